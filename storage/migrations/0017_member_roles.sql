-- Members gain a role: owners manage the team in the dashboard, agents answer
-- customers. The oldest member of an existing installation becomes its owner,
-- so every team that had members keeps someone who can invite others.
ALTER TABLE members ADD COLUMN role TEXT NOT NULL DEFAULT 'agent' CHECK (role IN ('owner', 'agent'));
UPDATE members SET role = 'owner'
 WHERE id = (SELECT id FROM members ORDER BY created_at, id LIMIT 1);

-- One-time links e-mailed to a member: an invitation to choose a first
-- password, or a password reset. Only a hash of the link's token is kept; a
-- link works until expires_at and only once (used_at).
CREATE TABLE member_links (
    token_hash  TEXT PRIMARY KEY,           -- sha256 of the token in the link
    member_id   TEXT NOT NULL REFERENCES members (id),
    purpose     TEXT NOT NULL CHECK (purpose IN ('invitation', 'reset')),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER
) WITHOUT ROWID;
CREATE INDEX member_links_member ON member_links (member_id);
