-- Privacy: an erasure leaves a mark on the Idempotency-Keys whose stored
-- response it removed.

-- 1: the stored response described an erased contact and was removed; a
-- replay of the key is refused instead of answered with it.
ALTER TABLE idempotency_keys ADD COLUMN erased INTEGER NOT NULL DEFAULT 0;
