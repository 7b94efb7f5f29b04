-- A ticket is also found by the words of its comments, internal ones
-- included (search is for the team): each comment is a document of type
-- 'ticket' whose target is its ticket. Erasure rewrites a comment's body,
-- and the update trigger takes the old words out in the same transaction.
CREATE TRIGGER search_ticket_comment_insert AFTER INSERT ON ticket_comments BEGIN
    INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
        VALUES (new.id, new.mode, 'ticket', new.ticket_id, new.created_at);
    INSERT INTO search_text (rowid, body) VALUES (last_insert_rowid(), new.body);
END;
CREATE TRIGGER search_ticket_comment_update AFTER UPDATE OF body ON ticket_comments BEGIN
    UPDATE search_text SET body = new.body WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
END;
CREATE TRIGGER search_ticket_comment_delete AFTER DELETE ON ticket_comments BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = old.id);
    DELETE FROM search_docs WHERE source_id = old.id;
END;

INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
    SELECT id, mode, 'ticket', ticket_id, created_at FROM ticket_comments;
INSERT INTO search_text (rowid, body)
    SELECT d.doc, c.body FROM ticket_comments c JOIN search_docs d ON d.source_id = c.id;
