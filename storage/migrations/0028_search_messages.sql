-- Messages, most of the texts and most of the writes, get a full-text table
-- of their own whose content is the messages table: the message's rowid is
-- the document's number, so a message no longer pays for a queue row, a
-- search_docs row with its unique index, and a copy of its text in the
-- full-text table (8% of an agent message's write together). The other
-- texts keep search_text, search_docs and the queue.
CREATE VIRTUAL TABLE search_messages USING fts5 (body, content = 'messages', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2');
-- As for search_text: a removed text's words leave the index at once.
INSERT INTO search_messages (search_messages, rank) VALUES ('secure-delete', 1);

-- How far the search-index worker has indexed a table by rowid: the
-- messages up to last are in search_messages, those after it are not yet.
CREATE TABLE search_positions (
    name TEXT PRIMARY KEY,
    last INTEGER NOT NULL
) WITHOUT ROWID;

DROP TRIGGER search_message_insert;
DROP TRIGGER search_message_update;
DROP TRIGGER search_message_delete;

-- search_text is built again without the messages: deleting a million
-- documents one by one would take far longer.
DELETE FROM search_queue WHERE source = 'messages' OR source IS NULL;
DELETE FROM search_docs WHERE source_id IN (SELECT id FROM messages);
DROP TABLE search_text;
CREATE VIRTUAL TABLE search_text USING fts5 (body, tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO search_text (search_text, rank) VALUES ('secure-delete', 1);
INSERT INTO search_text (rowid, body)
    SELECT d.doc, n.body FROM search_docs d JOIN notes n ON n.id = d.source_id
    UNION ALL SELECT d.doc, t.subject || ' ' || COALESCE(t.description, '') FROM search_docs d JOIN tickets t ON t.id = d.source_id
    UNION ALL SELECT d.doc, c.body FROM search_docs d JOIN ticket_comments c ON c.id = d.source_id
    UNION ALL SELECT d.doc, COALESCE(c.name, '') || ' ' || COALESCE(c.email, '') FROM search_docs d JOIN contacts c ON c.id = d.source_id
    ORDER BY 1;

INSERT INTO search_messages (search_messages) VALUES ('rebuild');
INSERT INTO search_positions (name, last) VALUES ('messages', COALESCE((SELECT MAX(rowid) FROM messages), 0));

-- A rewritten (erased) message that was indexed has its old words taken out
-- and its new ones put in at once; one not yet indexed will be read as it
-- is then. FTS5's delete command is given the old text: the content table
-- already holds the new one.
CREATE TRIGGER search_message_update AFTER UPDATE OF body ON messages
    WHEN new.body IS NOT old.body AND old.rowid <= (SELECT last FROM search_positions WHERE name = 'messages') BEGIN
    INSERT INTO search_messages (search_messages, rowid, body) VALUES ('delete', old.rowid, old.body);
    INSERT INTO search_messages (rowid, body) VALUES (new.rowid, new.body);
END;

-- A deleted message that was indexed leaves the index. messages has no
-- AUTOINCREMENT, so the rowid of a deleted last row is given again: the
-- position comes back to the last row that remains, or a new message could
-- land at or under it and never be indexed (and its erasure would then
-- delete from the index a document it does not hold).
CREATE TRIGGER search_message_delete AFTER DELETE ON messages BEGIN
    INSERT INTO search_messages (search_messages, rowid, body)
        SELECT 'delete', old.rowid, old.body
        WHERE old.rowid <= (SELECT last FROM search_positions WHERE name = 'messages');
    UPDATE search_positions SET last = COALESCE((SELECT MAX(rowid) FROM messages), 0)
        WHERE name = 'messages' AND last > COALESCE((SELECT MAX(rowid) FROM messages), 0);
END;
