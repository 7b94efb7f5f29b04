-- Messages are looked up by author only to forget a contact who asked to be
-- erased. Team members' and the assistant's messages stay out of the index:
-- one index entry less to write for every one of them.
DROP INDEX messages_author;
CREATE INDEX messages_contact_author ON messages (author_id) WHERE author_type = 'contact';
