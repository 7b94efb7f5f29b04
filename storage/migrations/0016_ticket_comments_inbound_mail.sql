-- Ticket comments: the conversation of a ticket, by API, dashboard or e-mail.
CREATE TABLE ticket_comments (
    id          TEXT PRIMARY KEY,
    mode        TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    ticket_id   TEXT NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    author_type TEXT NOT NULL,
    author_id   TEXT,
    author_name TEXT,
    body        TEXT NOT NULL,
    public      INTEGER NOT NULL,
    attachments TEXT NOT NULL DEFAULT '[]',
    via         TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX ticket_comments_ticket ON ticket_comments (ticket_id, created_at, id);

-- Inbound e-mail taken in, by its Message-ID, so a message delivered twice
-- (an SMTP retry, an IMAP poll cut short) is handled once, and senders can be
-- counted for the rate limit.
CREATE TABLE inbound_mail (
    message_id  TEXT PRIMARY KEY,
    sender      TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    object_id   TEXT,
    received_at INTEGER NOT NULL
);
CREATE INDEX inbound_mail_sender ON inbound_mail (sender, received_at);

-- Files that came with a comment (e-mail attachments), found by id for download.
CREATE TABLE ticket_comment_files (
    id           TEXT PRIMARY KEY,
    mode         TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    comment_id   TEXT NOT NULL REFERENCES ticket_comments (id) ON DELETE CASCADE,
    hash         TEXT NOT NULL,
    name         TEXT NOT NULL,
    size         INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX ticket_comment_files_comment ON ticket_comment_files (comment_id);
