-- When a conversation was first handed to a person is kept on it too, so
-- the reports read both of their times from one covering index instead
-- of looking the hand-off up in the events per conversation.
ALTER TABLE conversations ADD COLUMN handed_off_at INTEGER;
UPDATE conversations SET handed_off_at = (SELECT MIN(e.created_at) FROM events e
    WHERE e.object_id = conversations.id AND e.type = 'conversation.handed_off');
DROP INDEX events_handed_off;

-- Only a conversation's first hand-off writes the column.
CREATE TRIGGER first_handoff AFTER INSERT ON events WHEN new.type = 'conversation.handed_off' BEGIN
    UPDATE conversations SET handed_off_at = new.created_at
        WHERE id = new.object_id AND handed_off_at IS NULL;
END;

DROP INDEX conversations_report;
CREATE INDEX conversations_report ON conversations
    (mode, created_at, id, site_id, status, closed_at, rating_score, first_agent_at, handed_off_at);
