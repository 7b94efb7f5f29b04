-- The agent's desk: canned replies, and the full-text search tables.

CREATE TABLE canned_replies (
    id         TEXT PRIMARY KEY,
    mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    shortcut   TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (mode, shortcut)
);

-- Search: one document per searchable text (a message, a note, a ticket, a
-- contact). search_docs says what a document belongs to; search_text holds
-- its words, with the document's number as its rowid. The number is an
-- INTEGER PRIMARY KEY so VACUUM never renumbers it. Triggers keep both in
-- the same transaction as the change, so an erased or deleted text leaves
-- the search tables when it leaves its own table.
CREATE TABLE search_docs (
    doc        INTEGER PRIMARY KEY,
    source_id  TEXT NOT NULL UNIQUE,
    mode       TEXT NOT NULL,
    type       TEXT NOT NULL, -- what a hit finds: conversation, ticket or contact
    target_id  TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE VIRTUAL TABLE search_text USING fts5 (body, tokenize = 'porter unicode61 remove_diacritics 2');
-- A changed or deleted text leaves the index at once, not as a marker that
-- keeps the old words on disk until a later merge: erasure means gone.
INSERT INTO search_text (search_text, rank) VALUES ('secure-delete', 1);

-- Messages and notes find their conversation.
CREATE TRIGGER search_message_insert AFTER INSERT ON messages BEGIN
    INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
        VALUES (new.id, new.mode, 'conversation', new.conversation_id, new.created_at);
    INSERT INTO search_text (rowid, body) VALUES (last_insert_rowid(), new.body);
END;
CREATE TRIGGER search_message_update AFTER UPDATE OF body ON messages BEGIN
    UPDATE search_text SET body = new.body WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
END;
CREATE TRIGGER search_message_delete AFTER DELETE ON messages BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = old.id);
    DELETE FROM search_docs WHERE source_id = old.id;
END;

CREATE TRIGGER search_note_insert AFTER INSERT ON notes BEGIN
    INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
        VALUES (new.id, new.mode, 'conversation', new.conversation_id, new.created_at);
    INSERT INTO search_text (rowid, body) VALUES (last_insert_rowid(), new.body);
END;
CREATE TRIGGER search_note_update AFTER UPDATE OF body ON notes BEGIN
    UPDATE search_text SET body = new.body WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
END;
CREATE TRIGGER search_note_delete AFTER DELETE ON notes BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = old.id);
    DELETE FROM search_docs WHERE source_id = old.id;
END;

-- A ticket is found by its subject and description. Its comments, once they
-- exist, join in the same way: triggers on their table that write documents
-- of type 'ticket' whose target_id is the comment's ticket_id.
CREATE TRIGGER search_ticket_insert AFTER INSERT ON tickets BEGIN
    INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
        VALUES (new.id, new.mode, 'ticket', new.id, new.created_at);
    INSERT INTO search_text (rowid, body) VALUES (last_insert_rowid(), new.subject || ' ' || COALESCE(new.description, ''));
END;
CREATE TRIGGER search_ticket_update AFTER UPDATE OF subject, description ON tickets BEGIN
    UPDATE search_text SET body = new.subject || ' ' || COALESCE(new.description, '')
        WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
END;
CREATE TRIGGER search_ticket_delete AFTER DELETE ON tickets BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = old.id);
    DELETE FROM search_docs WHERE source_id = old.id;
END;

CREATE TRIGGER search_contact_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
        VALUES (new.id, new.mode, 'contact', new.id, new.created_at);
    INSERT INTO search_text (rowid, body) VALUES (last_insert_rowid(), COALESCE(new.name, '') || ' ' || COALESCE(new.email, ''));
END;
CREATE TRIGGER search_contact_update AFTER UPDATE OF name, email ON contacts BEGIN
    UPDATE search_text SET body = COALESCE(new.name, '') || ' ' || COALESCE(new.email, '')
        WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = new.id);
END;
CREATE TRIGGER search_contact_delete AFTER DELETE ON contacts BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT doc FROM search_docs WHERE source_id = old.id);
    DELETE FROM search_docs WHERE source_id = old.id;
END;

-- What existed before this migration.
INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
    SELECT id, mode, 'conversation', conversation_id, created_at FROM messages;
INSERT INTO search_text (rowid, body) SELECT d.doc, m.body FROM messages m JOIN search_docs d ON d.source_id = m.id;
INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
    SELECT id, mode, 'conversation', conversation_id, created_at FROM notes;
INSERT INTO search_text (rowid, body) SELECT d.doc, n.body FROM notes n JOIN search_docs d ON d.source_id = n.id;
INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
    SELECT id, mode, 'ticket', id, created_at FROM tickets;
INSERT INTO search_text (rowid, body) SELECT d.doc, t.subject || ' ' || COALESCE(t.description, '')
    FROM tickets t JOIN search_docs d ON d.source_id = t.id;
INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
    SELECT id, mode, 'contact', id, created_at FROM contacts;
INSERT INTO search_text (rowid, body) SELECT d.doc, COALESCE(c.name, '') || ' ' || COALESCE(c.email, '')
    FROM contacts c JOIN search_docs d ON d.source_id = c.id;

-- A conversation's ticket fills {{ticket.number}} of canned replies.
CREATE INDEX tickets_conversation ON tickets (conversation_id, created_at) WHERE conversation_id IS NOT NULL;
