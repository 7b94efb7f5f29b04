-- Files sent with agent messages. The bytes live in the data dir under
-- their SHA-256 (so a file sent twice is stored once); this table is what a
-- signed download URL (/files/att_…/name) resolves to.
CREATE TABLE attachments (
    id           TEXT PRIMARY KEY,
    mode         TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    message_id   TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    hash         TEXT NOT NULL,
    name         TEXT NOT NULL,
    size         INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX attachments_message ON attachments (message_id);
CREATE INDEX attachments_hash ON attachments (hash);

-- Erasure rewrites the stored events of every object it scrubs; without
-- this index each lookup would read the whole events table.
CREATE INDEX IF NOT EXISTS events_object ON events (object_id, seq);
