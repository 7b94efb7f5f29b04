-- Conversations gain tags; one row per (conversation, tag) so the tag filter is an index lookup.
ALTER TABLE conversations ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
CREATE TABLE conversation_tags (
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    mode            TEXT NOT NULL,
    tag             TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    PRIMARY KEY (conversation_id, tag)
) WITHOUT ROWID;
CREATE INDEX conversation_tags_tag ON conversation_tags (mode, tag, created_at, conversation_id);
