-- The missed-reply alert moves onto its conversation. As a table of its own
-- it cost each agent message an insert into another B-tree (and its index)
-- in the single writer's transaction, the largest part of what the alerts
-- added to an agent message; on the conversation, which the message rewrites
-- anyway, owing an alert is a lookup when one is owed already, and a row
-- already in the transaction's pages when not.
ALTER TABLE conversations ADD COLUMN alert_due_at INTEGER;                  -- NULL: nothing owed now
ALTER TABLE conversations ADD COLUMN alert_mailed_until INTEGER NOT NULL DEFAULT 0; -- newest agent message e-mailed (or passed over)
UPDATE conversations SET (alert_due_at, alert_mailed_until) =
    (SELECT due_at, mailed_until FROM visitor_alerts WHERE conversation_id = conversations.id)
    WHERE id IN (SELECT conversation_id FROM visitor_alerts);
DROP TABLE visitor_alerts;
CREATE INDEX conversations_alert_due ON conversations (alert_due_at, id) WHERE alert_due_at IS NOT NULL;
