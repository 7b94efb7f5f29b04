-- A visitor's rating of a closed conversation (1 to 5, with an optional comment).
ALTER TABLE conversations ADD COLUMN rating_score INTEGER;
ALTER TABLE conversations ADD COLUMN rating_comment TEXT;
ALTER TABLE conversations ADD COLUMN rated_at INTEGER;
