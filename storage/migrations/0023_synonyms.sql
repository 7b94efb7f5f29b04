-- The team's synonyms: groups of words or expressions that mean the same
-- to its customers, which the assistant searches for one another.
CREATE TABLE synonyms (
    id         TEXT PRIMARY KEY,
    mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    words      TEXT NOT NULL, -- the group, one word or expression a line
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX synonyms_mode ON synonyms (mode, created_at, id);
