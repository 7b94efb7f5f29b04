-- Search text is indexed by a worker, from a queue, instead of in the
-- transaction of each write: FTS5 work in every small transaction was a
-- quarter of a message's or a ticket's write. A write now only appends
-- the id of the text it added or changed to search_queue, and the
-- search-index worker moves the queued texts into search_docs and
-- search_text many at a time, reading each text as it is then.
--
-- Removal stays in the write's own transaction: a text whose words change
-- (erasure rewrites them) or that is deleted leaves search_text at once,
-- so erased words are gone when the erasure commits. A queued id whose
-- text was since deleted indexes nothing, and one whose text was rewritten
-- indexes the rewritten text: the queue never brings old words back.
CREATE TABLE search_queue (
    seq       INTEGER PRIMARY KEY,
    source_id TEXT NOT NULL
);

-- The old triggers indexed in the write's transaction: nothing is owed.
DROP TRIGGER search_message_insert;
DROP TRIGGER search_message_update;
DROP TRIGGER search_note_insert;
DROP TRIGGER search_note_update;
DROP TRIGGER search_ticket_insert;
DROP TRIGGER search_ticket_update;
DROP TRIGGER search_contact_insert;
DROP TRIGGER search_contact_update;
DROP TRIGGER search_ticket_comment_insert;
DROP TRIGGER search_ticket_comment_update;

CREATE TRIGGER search_message_insert AFTER INSERT ON messages BEGIN
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;
CREATE TRIGGER search_message_update AFTER UPDATE OF body ON messages WHEN new.body IS NOT old.body BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;

CREATE TRIGGER search_note_insert AFTER INSERT ON notes BEGIN
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;
CREATE TRIGGER search_note_update AFTER UPDATE OF body ON notes WHEN new.body IS NOT old.body BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;

CREATE TRIGGER search_ticket_insert AFTER INSERT ON tickets BEGIN
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;
CREATE TRIGGER search_ticket_update AFTER UPDATE OF subject, description ON tickets
    WHEN new.subject IS NOT old.subject OR new.description IS NOT old.description BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;

CREATE TRIGGER search_ticket_comment_insert AFTER INSERT ON ticket_comments BEGIN
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;
CREATE TRIGGER search_ticket_comment_update AFTER UPDATE OF body ON ticket_comments WHEN new.body IS NOT old.body BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;

CREATE TRIGGER search_contact_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;
CREATE TRIGGER search_contact_update AFTER UPDATE OF name, email ON contacts
    WHEN new.name IS NOT old.name OR new.email IS NOT old.email BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
    INSERT INTO search_queue (source_id) VALUES (new.id);
END;
