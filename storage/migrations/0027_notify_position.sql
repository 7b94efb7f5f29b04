-- Notifications are scheduled by the write that owes them, in its own
-- transaction, so the notify worker no longer follows the event log: the
-- position it kept there means nothing now.
DELETE FROM settings WHERE key = 'notify.seq';
