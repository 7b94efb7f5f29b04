-- Timestamps are integer milliseconds since the Unix epoch (UTC).
-- Every row of customer data carries its mode ('live' or 'test').

CREATE TABLE sites (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    domain          TEXT,
    identity_secret TEXT,
    created_at      INTEGER NOT NULL
);

CREATE TABLE members (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name          TEXT NOT NULL,
    password_hash TEXT,
    created_at    INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    mode         TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    name         TEXT,
    hash         TEXT NOT NULL UNIQUE,
    hint         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    revoked_at   INTEGER
);

CREATE TABLE contacts (
    id           TEXT PRIMARY KEY,
    mode         TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    email        TEXT,
    email_norm   TEXT,
    name         TEXT,
    phone        TEXT,
    external_id  TEXT,
    attributes   TEXT NOT NULL DEFAULT '{}',
    last_seen_at INTEGER,
    -- COALESCE(last_seen_at, updated_at), kept as a column so "most recently
    -- active first" is an index walk.
    active_at    INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX contacts_email ON contacts (mode, email_norm) WHERE email_norm IS NOT NULL;
CREATE UNIQUE INDEX contacts_external_id ON contacts (mode, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX contacts_active ON contacts (mode, active_at, id);

CREATE TABLE conversations (
    id              TEXT PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    site_id         TEXT NOT NULL REFERENCES sites (id),
    visitor_id      TEXT,
    status          TEXT NOT NULL,
    subject         TEXT,
    contact_id      TEXT REFERENCES contacts (id) ON DELETE SET NULL,
    assignee_id     TEXT REFERENCES members (id),
    message_count   INTEGER NOT NULL DEFAULT 0,
    page_url        TEXT NOT NULL DEFAULT '',
    last_message_at INTEGER NOT NULL,
    metadata        TEXT NOT NULL DEFAULT '{}',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX conversations_created ON conversations (mode, created_at, id);
CREATE INDEX conversations_status ON conversations (mode, status, created_at, id);
CREATE INDEX conversations_site ON conversations (mode, site_id, created_at, id);
CREATE INDEX conversations_contact ON conversations (contact_id, created_at, id);
CREATE INDEX conversations_visitor ON conversations (visitor_id, created_at);

CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    author_type     TEXT NOT NULL,
    author_id       TEXT,
    author_name     TEXT,
    body            TEXT NOT NULL,
    attachments     TEXT NOT NULL DEFAULT '[]',
    sources         TEXT NOT NULL DEFAULT '[]',
    created_at      INTEGER NOT NULL
);
CREATE INDEX messages_conversation ON messages (conversation_id, created_at, id);
CREATE INDEX messages_author ON messages (author_id) WHERE author_id IS NOT NULL;

-- Internal notes left by the team (hand-off notes); never shown to visitors.
CREATE TABLE notes (
    id              TEXT PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    author_id       TEXT,
    body            TEXT NOT NULL,
    created_at      INTEGER NOT NULL
);
CREATE INDEX notes_conversation ON notes (conversation_id, created_at);

CREATE TABLE tickets (
    id              TEXT PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    number          INTEGER NOT NULL,
    subject         TEXT NOT NULL,
    description     TEXT,
    status          TEXT NOT NULL,
    priority        TEXT NOT NULL,
    -- No foreign key: an erased contact's tickets keep the (meaningless) id.
    contact_id      TEXT NOT NULL,
    conversation_id TEXT,
    assignee_id     TEXT REFERENCES members (id),
    tags            TEXT NOT NULL DEFAULT '[]',
    metadata        TEXT NOT NULL DEFAULT '{}',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    solved_at       INTEGER,
    UNIQUE (mode, number)
);
CREATE INDEX tickets_created ON tickets (mode, created_at, id);
CREATE INDEX tickets_status ON tickets (mode, status, created_at, id);
CREATE INDEX tickets_priority ON tickets (mode, priority, created_at, id);
CREATE INDEX tickets_contact ON tickets (contact_id, created_at, id);

-- One row per (ticket, tag) so the tag filter is an index lookup.
CREATE TABLE ticket_tags (
    ticket_id  TEXT NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    mode       TEXT NOT NULL,
    tag        TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (ticket_id, tag)
) WITHOUT ROWID;
CREATE INDEX ticket_tags_tag ON ticket_tags (mode, tag, created_at, ticket_id);

CREATE TABLE counters (
    mode  TEXT NOT NULL,
    name  TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (mode, name)
);

-- Events are written in the same transaction as the change that caused them;
-- seq gives workers a stable order to consume them in.
CREATE TABLE events (
    seq        INTEGER PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,
    mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    type       TEXT NOT NULL,
    object_id  TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- E-mails promised to contacts or operators, sent by the mail worker.
CREATE TABLE outbox (
    id              TEXT PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    template        TEXT NOT NULL,
    to_email        TEXT NOT NULL,
    to_name         TEXT,
    contact_id      TEXT,
    ticket_id       TEXT,
    data            TEXT NOT NULL DEFAULT '{}',
    status          TEXT NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
