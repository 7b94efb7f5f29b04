-- Responses to POST requests sent with an Idempotency-Key, replayed for 24 hours.
CREATE TABLE idempotency_keys (
    mode        TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL, -- hash of method, path and body
    status      INTEGER,       -- NULL while the first request is running
    body        BLOB,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (mode, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
