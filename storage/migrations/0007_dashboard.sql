-- Dashboard sign-in: sessions are kept here (only a hash of the cookie's
-- token), so signing out ends a session on the server, not just in the browser.
CREATE TABLE dashboard_sessions (
    token_hash  TEXT PRIMARY KEY,           -- sha256 of the cookie value
    member_id   TEXT NOT NULL REFERENCES members (id),
    mode        TEXT NOT NULL CHECK (mode IN ('live', 'test')), -- what the dashboard shows
    csrf        TEXT NOT NULL,              -- token every state-changing request must carry
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    ended_at    INTEGER                     -- set by sign-out
) WITHOUT ROWID;
CREATE INDEX dashboard_sessions_member ON dashboard_sessions (member_id);

-- Failed sign-ins per e-mail address (lower-cased), for the lock-out.
CREATE TABLE sign_in_failures (
    email        TEXT PRIMARY KEY,
    failures     INTEGER NOT NULL,
    locked_until INTEGER                    -- no sign-in before this instant
) WITHOUT ROWID;

-- How many messages of a conversation each member has seen, for unread counts.
CREATE TABLE conversation_reads (
    member_id       TEXT NOT NULL REFERENCES members (id),
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    seen_count      INTEGER NOT NULL,
    PRIMARY KEY (member_id, conversation_id)
) WITHOUT ROWID;
