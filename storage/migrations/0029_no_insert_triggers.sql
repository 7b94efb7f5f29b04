-- Writes that used to follow an insert by trigger are now made by the
-- storage functions that insert: a table with an INSERT trigger makes
-- SQLite keep a statement journal (a copy of every page the insert
-- changes) for each insert into it, so the trigger cost the insert about as
-- much again as the trigger's own work. Measured: the two triggers on
-- messages and events took a tenth of an agent message's write.
-- The UPDATE and DELETE triggers stay: those writes are rare.
DROP TRIGGER first_agent_reply;
DROP TRIGGER first_handoff;
DROP TRIGGER search_note_insert;
DROP TRIGGER search_ticket_insert;
DROP TRIGGER search_ticket_comment_insert;
DROP TRIGGER search_contact_insert;
