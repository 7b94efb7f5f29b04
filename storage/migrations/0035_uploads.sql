-- Files a visitor uploaded through the widget and has not yet sent. The
-- next message that names one moves it into attachments (same id) in the
-- transaction that stores the message; those never sent are pruned.
CREATE TABLE uploads (
    id           TEXT PRIMARY KEY,
    mode         TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    visitor_id   TEXT NOT NULL,
    hash         TEXT NOT NULL,
    name         TEXT NOT NULL,
    size         INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX uploads_visitor ON uploads (visitor_id);
CREATE INDEX uploads_hash ON uploads (hash);
CREATE INDEX uploads_created ON uploads (created_at);
