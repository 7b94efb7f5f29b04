-- Widget visitors and the assistant's pending replies.

-- A visitor is one browser's widget session on one site, in one mode. The
-- visitor token names it; contact_id is set once the visitor identifies
-- themselves or leaves an e-mail address.
CREATE TABLE visitors (
    id           TEXT PRIMARY KEY,
    mode         TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    site_id      TEXT NOT NULL REFERENCES sites (id),
    contact_id   TEXT REFERENCES contacts (id) ON DELETE SET NULL,
    page_url     TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
);
CREATE INDEX visitors_contact ON visitors (contact_id) WHERE contact_id IS NOT NULL;
CREATE INDEX conversations_visitor_mode ON conversations (mode, visitor_id, created_at, id);

-- Visitor messages the assistant has yet to answer. A row is written in the
-- same transaction as the message and deleted in the one that stores the
-- reply, so a restart neither loses a question nor answers it twice.
CREATE TABLE assistant_jobs (
    message_id      TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL
);
CREATE INDEX assistant_jobs_due ON assistant_jobs (next_attempt_at);
