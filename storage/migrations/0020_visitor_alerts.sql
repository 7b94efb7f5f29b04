-- Missed chat replies: how far the visitor has seen their conversation, and
-- the e-mail owed to its contact for agent messages left unseen. An outbox
-- row may be about a conversation, so a reply to it threads back there.
ALTER TABLE conversations ADD COLUMN visitor_seen_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN conversation_id TEXT;

CREATE TABLE visitor_alerts (
    conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    mode            TEXT NOT NULL,
    due_at          INTEGER,                  -- NULL: nothing owed now
    mailed_until    INTEGER NOT NULL DEFAULT 0 -- newest agent message already e-mailed (or passed over)
) WITHOUT ROWID;
CREATE INDEX visitor_alerts_due ON visitor_alerts (due_at) WHERE due_at IS NOT NULL;
