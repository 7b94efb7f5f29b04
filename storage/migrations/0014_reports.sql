-- Reports: every figure is computed from the rows as they are, so
-- conversations from before this migration count like new ones. These
-- partial indexes make each per-conversation look-up one index seek.

-- The conversations of a period with every column a report reads, so the
-- scan never visits the table's wide rows.
CREATE INDEX conversations_report ON conversations (mode, created_at, id, site_id, status, closed_at, rating_score);
-- When a conversation was handed to a person (its first hand-off event).
CREATE INDEX events_handed_off ON events (object_id, created_at) WHERE type = 'conversation.handed_off';
-- When a team member first answered (only agent messages are indexed).
CREATE INDEX messages_agent ON messages (conversation_id, created_at) WHERE author_type = 'agent';
-- Tickets solved in a period.
CREATE INDEX tickets_solved ON tickets (mode, solved_at) WHERE solved_at IS NOT NULL;

-- One row per assistant reply to a visitor's question: whether it said it
-- could not answer from the knowledge (abstained) and the visitor's feedback
-- (helpful: NULL until given, then 1 or 0; giving it again replaces it).
-- The question is the visitor's message itself, never a copy, so erasure
-- and retention reach it.
CREATE TABLE assistant_replies (
    message_id      TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    mode            TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    question_id     TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    abstained       INTEGER NOT NULL,
    helpful         INTEGER,
    created_at      INTEGER NOT NULL,
    feedback_at     INTEGER
) WITHOUT ROWID;
CREATE INDEX assistant_replies_gaps ON assistant_replies (mode, created_at) WHERE abstained = 1 OR helpful = 0;
CREATE INDEX assistant_replies_question ON assistant_replies (question_id);

-- Replies written before this table existed: the visitor message just
-- before each one is its question, and the assistant's stock "could not
-- find it" reply is an abstention.
INSERT INTO assistant_replies (message_id, mode, conversation_id, question_id, abstained, created_at)
SELECT r.id, r.mode, r.conversation_id, q.id,
    r.body = 'I couldn''t find the answer to that in our help pages. Would you like to talk to a person? Press "Talk to a person" or just ask for one.',
    r.created_at
FROM messages r
JOIN messages q ON q.id = (
    SELECT p.id FROM messages p
    WHERE p.conversation_id = r.conversation_id AND p.author_type = 'contact'
      AND (p.created_at < r.created_at OR p.created_at = r.created_at AND p.id < r.id)
    ORDER BY p.created_at DESC, p.id DESC LIMIT 1)
WHERE r.author_type = 'bot';
