package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
)

// The ticket-rows references: what SQLite allows on this machine for the
// writes of one ticket create per transaction, with nothing of the server
// around them: no HTTP, no JSON decoding, no writer queue, no group commit.
// A loop on one connection (the writer's driver and pragmas, prepared
// statements) runs the statements the API's ticket create runs, in the
// same schema (a database migrated by storage.Open), for the harness's
// request (a subject, a known contact's id, one tag, the confirmation
// e-mail):
//
//	the contact's id, mode, e-mail and name      SELECT by primary key
//	the mode's ticket number                     UPDATE … RETURNING
//	the ticket                                   the row and 6 indexes
//	its place in the desk-search queue           one row
//	its tag                                      the row and 1 index
//	ticket.created with the ticket's JSON        the row and 4 indexes
//	the confirmation e-mail                      the row and 2 indexes
//
// TestTicketRowsAreATicketCreates checks that it writes the rows a ticket
// create writes, table by table.

// ticketRowsContacts is how many contacts the reference's database holds:
// each create reads one at random, and its ticket's contact index entry
// goes to a random place.
const ticketRowsContacts = 10000

const (
	ticketRowsContact = `SELECT id, mode, email, name FROM contacts WHERE id = ? AND mode = ?`
	ticketRowsNumber  = `UPDATE counters SET value = value + 1 WHERE mode = ? AND name = 'ticket_number' RETURNING value`
	ticketRowsTicket  = `INSERT INTO tickets (id, mode, number, subject, description, status, priority, contact_id,
		conversation_id, assignee_id, tags, metadata, created_at, updated_at, solved_at)
		VALUES (?, ?, ?, ?, NULL, 'open', 'normal', ?, NULL, NULL, '["harness"]', '{}', ?, ?, NULL)`
	ticketRowsQueue = `INSERT INTO search_queue (source_id, source) VALUES (?, 'tickets')`
	ticketRowsTag   = `INSERT OR IGNORE INTO ticket_tags (ticket_id, mode, tag, created_at) VALUES (?, ?, 'harness', ?)`
	ticketRowsEvent = `INSERT INTO events (id, mode, type, object_id, data, created_at) VALUES (?, ?, 'ticket.created', ?, ?, ?)`
	ticketRowsMail  = `INSERT INTO outbox (id, mode, template, to_email, to_name, contact_id, ticket_id, data, status,
		attempts, next_attempt_at, last_error, created_at, sent_at, conversation_id, ticket_event)
		VALUES (?, ?, 'ticket_created', ?, ?, ?, ?, '{}', 'pending', 0, ?, NULL, ?, NULL, NULL, ?)`
)

// ticketRows is the reference's loop: one connection and its statements.
type ticketRows struct {
	db       *sql.DB
	stmts    []*sql.Stmt // in the order of the constants above
	contacts []string
}

// openTicketRows migrates a new database in dir, puts the contacts and the
// ticket counter in it, and opens it as the writer does; extra is added to
// the writer's connection string (a synchronous pragma for the reference
// without fsync).
func openTicketRows(dir, extra string) (*ticketRows, error) {
	db, err := storage.Open(context.Background(), dir)
	if err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	raw, err := sql.Open("sqlite", storage.WriterDSN(filepath.Join(dir, storage.FileName))+extra)
	if err != nil {
		return nil, err
	}
	raw.SetMaxOpenConns(1)
	r := &ticketRows{db: raw}
	if err := r.fill(); err != nil {
		raw.Close()
		return nil, err
	}
	for _, q := range []string{ticketRowsContact, ticketRowsNumber, ticketRowsTicket, ticketRowsQueue, ticketRowsTag, ticketRowsEvent, ticketRowsMail} {
		s, err := raw.Prepare(q)
		if err != nil {
			r.close()
			return nil, err
		}
		r.stmts = append(r.stmts, s)
	}
	return r, nil
}

// fill writes the contacts and the test mode's ticket counter.
func (r *ticketRows) fill() error {
	tx, err := r.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := chat.At(time.Now())
	for i := range ticketRowsContacts {
		id, email := app.NewID(app.PrefixContact), fmt.Sprintf("contact%d@example.com", i)
		if _, err := tx.Exec(`INSERT INTO contacts (id, mode, email, email_norm, name, attributes, active_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, '{}', ?, ?, ?)`, id, chat.Test, email, email, fmt.Sprintf("Contact %d", i), now, now, now); err != nil {
			return err
		}
		r.contacts = append(r.contacts, id)
	}
	if _, err := tx.Exec(`INSERT INTO counters (mode, name, value) VALUES (?, 'ticket_number', 0)`, chat.Test); err != nil {
		return err
	}
	return tx.Commit()
}

func (r *ticketRows) close() error {
	for _, s := range r.stmts {
		s.Close()
	}
	return r.db.Close()
}

// create writes the rows of ticket create i in one transaction.
func (r *ticketRows) create(i int) error {
	tx, err := r.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st := func(k int) *sql.Stmt { return tx.Stmt(r.stmts[k]) }
	var contact, mode string
	var email, name sql.NullString
	if err := st(0).QueryRow(r.contacts[rand.IntN(len(r.contacts))], chat.Test).Scan(&contact, &mode, &email, &name); err != nil {
		return fmt.Errorf("contact: %w", err)
	}
	var number int64
	if err := st(1).QueryRow(mode).Scan(&number); err != nil {
		return fmt.Errorf("ticket number: %w", err)
	}
	now := chat.At(time.Now())
	id, subject := app.NewID(app.PrefixTicket), fmt.Sprintf("Harness %d", i)
	if _, err := st(2).Exec(id, mode, number, subject, contact, now, now); err != nil {
		return fmt.Errorf("ticket: %w", err)
	}
	if _, err := st(3).Exec(id); err != nil {
		return fmt.Errorf("search queue: %w", err)
	}
	if _, err := st(4).Exec(id, mode, now); err != nil {
		return fmt.Errorf("tag: %w", err)
	}
	stamp, _ := now.MarshalText()
	data := fmt.Sprintf(`{"id":%q,"object":"ticket","number":%d,"subject":%q,"description":null,"status":"open","priority":"normal",`+
		`"contact_id":%q,"conversation_id":null,"assignee_id":null,"tags":["harness"],"metadata":{},"created_at":"%s","updated_at":"%s","solved_at":null}`,
		id, number, subject, contact, stamp, stamp)
	res, err := st(5).Exec(app.NewID(app.PrefixEvent), mode, id, data, now)
	if err != nil {
		return fmt.Errorf("event: %w", err)
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if _, err := st(6).Exec(app.NewID(app.PrefixMail), mode, email, name, contact, id, now, now, seq); err != nil {
		return fmt.Errorf("e-mail: %w", err)
	}
	return tx.Commit()
}

// rawTicketWrites measures ticket creates' rows written one ticket per
// transaction for d, in a new database in dir (see ticketRows).
func rawTicketWrites(name, dir, extra string, d time.Duration) (result, error) {
	r, err := openTicketRows(dir, extra)
	if err != nil {
		return result{}, err
	}
	defer r.close()
	return loopFor(name, d, r.create)
}
