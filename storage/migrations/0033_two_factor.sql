-- Two-factor sign-in (TOTP, RFC 6238) for team members.
ALTER TABLE members ADD COLUMN totp_secret TEXT;                          -- base32; NULL: not enrolled
ALTER TABLE members ADD COLUMN totp_pending TEXT;                         -- a secret shown for enrolment, until confirmed
ALTER TABLE members ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0; -- the newest 30-second step a code was taken for
-- One-time recovery codes, stored as SHA-256 hashes (they are random, so a
-- slow hash adds nothing); a code used is deleted.
CREATE TABLE recovery_codes (
    member_id TEXT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    PRIMARY KEY (member_id, code_hash)
) WITHOUT ROWID;
