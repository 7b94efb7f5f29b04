-- Fewer b-trees written per ticket create (docs/index-audit.md).

-- conversations_report starts with the same three columns and serves the
-- conversation list as well.
DROP INDEX conversations_created;

-- It served only the count of deliveries owed, which webhook_queue_due
-- serves as well; each delivery queued wrote one b-tree more.
DROP INDEX webhook_queue_next;

-- Only widget and e-mail confirmations (ticket_received) are counted, per
-- address over a day and across addresses over an hour; other e-mails,
-- such as the confirmation of every ticket the API opens, took a leaf at a
-- random place in this index for nothing.
DROP INDEX outbox_recipient;
CREATE INDEX outbox_confirmations ON outbox (to_email COLLATE NOCASE, created_at)
    WHERE template = 'ticket_received';
CREATE INDEX outbox_confirmations_recent ON outbox (created_at)
    WHERE template = 'ticket_received';

-- An e-mail about a ticket shows the ticket as the event its write
-- recorded holds it (events.seq), rather than a copy of the same JSON.
ALTER TABLE outbox ADD COLUMN ticket_event INTEGER;

-- The due alerts are asked for with their status as a parameter, which a
-- partial index on status = 'pending' cannot serve: the query scanned the
-- table and sorted it.
DROP INDEX waiting_alerts_due;
CREATE INDEX waiting_alerts_due ON waiting_alerts (status, due_at);
