-- Webhook endpoints, the queue of deliveries still owed to them, and the log
-- of every attempt. Delivery state lives here, not in memory, so a restart
-- resumes every pending delivery and repeats none that was acknowledged.

-- GET /events lists one mode's events newest first, optionally of one type.
CREATE INDEX events_mode ON events (mode, seq);
CREATE INDEX events_mode_type ON events (mode, type, seq);

CREATE TABLE webhook_endpoints (
    id              TEXT PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,          -- JSON array of event types, or ["*"]
    enabled         INTEGER NOT NULL,
    description     TEXT,
    -- Kept as is, not hashed: it keys the HMAC of every delivery. The API
    -- returns it only in the creation response.
    secret          TEXT NOT NULL,
    -- The newest event seq when the endpoint was created: events after it
    -- were written while the endpoint existed, the others never go to it.
    after_seq       INTEGER NOT NULL,
    -- First failed attempt since the last successful one; NULL when healthy.
    failing_since   INTEGER,
    disabled_reason TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_mode ON webhook_endpoints (mode, created_at, id);

-- Deliveries still owed: one row per (endpoint, event) until it succeeds or
-- is given up. The row is deleted in the same transaction that logs the
-- successful attempt.
CREATE TABLE webhook_queue (
    id              INTEGER PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_seq       INTEGER NOT NULL,        -- events.seq
    event_id        TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    -- Start of the retry window (webhooks.give_up_after runs from here).
    created_at      INTEGER NOT NULL,
    UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_queue_due ON webhook_queue (endpoint_id, next_attempt_at, id);
CREATE INDEX webhook_queue_next ON webhook_queue (next_attempt_at);

-- Every attempt made, successful or not (the API's webhook deliveries).
CREATE TABLE webhook_attempts (
    id              TEXT PRIMARY KEY,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    attempt         INTEGER NOT NULL,
    status_code     INTEGER,                 -- NULL when no response arrived
    delivered       INTEGER NOT NULL,
    duration_ms     INTEGER NOT NULL,
    error           TEXT,
    next_attempt_at INTEGER,                 -- the retry this failure scheduled
    created_at      INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, created_at, id);
CREATE INDEX webhook_attempts_event ON webhook_attempts (event_id);
