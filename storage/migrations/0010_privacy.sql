-- Privacy: erasure marks the Idempotency-Keys whose stored response it
-- removed; retention finds closed conversations and idle visitors.

-- 1: the stored response described an erased contact and was removed; a
-- replay of the key is refused instead of answered with it.
ALTER TABLE idempotency_keys ADD COLUMN erased INTEGER NOT NULL DEFAULT 0;

-- Retention counts from a conversation's close. Set once, when the
-- conversation closes (closing is final); conversations closed before this
-- column existed count from their last update.
ALTER TABLE conversations ADD COLUMN closed_at INTEGER;
UPDATE conversations SET closed_at = updated_at WHERE status = 'closed';
CREATE INDEX conversations_closed ON conversations (closed_at) WHERE closed_at IS NOT NULL;

-- Anonymous visitors are pruned by when they were last seen.
CREATE INDEX visitors_anonymous_seen ON visitors (last_seen_at) WHERE contact_id IS NULL;
