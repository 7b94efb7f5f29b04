-- When the latest sign-in attempt of an address was counted: failures in a
-- row are forgotten a lock-out window after it, and the row can be pruned.
ALTER TABLE sign_in_failures ADD COLUMN last_at INTEGER NOT NULL DEFAULT 0;

-- Confirmations of widget tickets sent to one address, counted per day to
-- keep the public widget from being used to send mail to anyone.
CREATE INDEX outbox_recipient ON outbox (template, to_email COLLATE NOCASE, created_at);
