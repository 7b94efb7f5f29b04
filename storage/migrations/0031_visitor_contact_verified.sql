-- Whether a visitor's contact was named by a claim the site signed
-- (user_hash): only such an address is e-mailed a missed reply. An address a
-- visitor merely typed may be anyone's.
ALTER TABLE visitors ADD COLUMN contact_verified INTEGER NOT NULL DEFAULT 0;
