-- When a team member first answered is kept on the conversation. The
-- reports read it there; before, they looked it up in an index of every
-- agent message, which each agent message had to update: a page at a
-- random place in a large index, a tenth of the message's write.
ALTER TABLE conversations ADD COLUMN first_agent_at INTEGER;
UPDATE conversations SET first_agent_at = (SELECT MIN(m.created_at) FROM messages m
    WHERE m.conversation_id = conversations.id AND m.author_type = 'agent');
DROP INDEX messages_agent;

-- Only a conversation's first agent message writes the column, so the
-- report index below changes once per conversation.
CREATE TRIGGER first_agent_reply AFTER INSERT ON messages WHEN new.author_type = 'agent' BEGIN
    UPDATE conversations SET first_agent_at = new.created_at
        WHERE id = new.conversation_id AND first_agent_at IS NULL;
END;

-- The report's conversations, with every column it reads.
DROP INDEX conversations_report;
CREATE INDEX conversations_report ON conversations (mode, created_at, id, site_id, status, closed_at, rating_score, first_agent_at);
