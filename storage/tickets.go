package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"chatsvc/chat"
)

const ticketCols = `id, mode, number, subject, description, status, priority, contact_id, conversation_id,
	assignee_id, tags, metadata, created_at, updated_at, solved_at`

func scanTicket(s interface{ Scan(...any) error }) (*chat.Ticket, error) {
	t := &chat.Ticket{}
	err := s.Scan(&t.ID, &t.Mode, &t.Number, &t.Subject, &t.Description, &t.Status, &t.Priority, &t.ContactID,
		&t.ConversationID, &t.AssigneeID, jsonCol{&t.Tags}, jsonCol{&t.Metadata}, &t.CreatedAt, &t.UpdatedAt, &t.SolvedAt)
	if err != nil {
		return nil, notFound(err)
	}
	if t.Tags == nil {
		t.Tags = []string{}
	}
	if t.Metadata == nil {
		t.Metadata = map[string]string{}
	}
	return t, nil
}

// NextTicketNumber reserves the next ticket number of mode (1, 2, …).
func (q *Q) NextTicketNumber(ctx context.Context, mode chat.Mode) (int64, error) {
	// The counter exists after a mode's first ticket: a plain UPDATE is
	// then one b-tree seek, where the upsert tried an insert first.
	var n int64
	err := q.row(ctx, `UPDATE counters SET value = value + 1 WHERE mode = ? AND name = 'ticket_number'
		RETURNING value`, mode).Scan(&n)
	if !errors.Is(err, sql.ErrNoRows) {
		return n, err
	}
	err = q.row(ctx, `INSERT INTO counters (mode, name, value) VALUES (?, 'ticket_number', 1)
		ON CONFLICT (mode, name) DO UPDATE SET value = value + 1 RETURNING value`, mode).Scan(&n)
	return n, err
}

// InsertTicket stores a new ticket and its tags.
func (q *Q) InsertTicket(ctx context.Context, t *chat.Ticket) error {
	_, err := q.exec(ctx, `INSERT INTO tickets (`+ticketCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		t.ID, t.Mode, t.Number, t.Subject, t.Description, t.Status, t.Priority, t.ContactID, t.ConversationID,
		t.AssigneeID, tagsJSON(t.Tags), toJSON(t.Metadata), t.CreatedAt, t.UpdatedAt, t.SolvedAt)
	if err := q.queueSearch(ctx, err, "tickets", t.ID); err != nil {
		return err
	}
	return q.insertTags(ctx, t)
}

// UpdateTicket writes every mutable field of t; replaceTags also rewrites
// the tag index.
func (q *Q) UpdateTicket(ctx context.Context, t *chat.Ticket, replaceTags bool) error {
	res, err := q.exec(ctx, `UPDATE tickets SET subject = ?, description = ?, status = ?, priority = ?, contact_id = ?,
		conversation_id = ?, assignee_id = ?, tags = ?, metadata = ?, updated_at = ?, solved_at = ?
		WHERE id = ? AND mode = ?`,
		t.Subject, t.Description, t.Status, t.Priority, t.ContactID, t.ConversationID, t.AssigneeID,
		tagsJSON(t.Tags), toJSON(t.Metadata), t.UpdatedAt, t.SolvedAt, t.ID, t.Mode)
	if err := affected(res, err); err != nil || !replaceTags {
		return err
	}
	if _, err := q.exec(ctx, `DELETE FROM ticket_tags WHERE ticket_id = ?`, t.ID); err != nil {
		return err
	}
	return q.insertTags(ctx, t)
}

func (q *Q) insertTags(ctx context.Context, t *chat.Ticket) error {
	for _, tag := range t.Tags {
		if _, err := q.exec(ctx, `INSERT OR IGNORE INTO ticket_tags (ticket_id, mode, tag, created_at) VALUES (?,?,?,?)`,
			t.ID, t.Mode, tag, t.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

func tagsJSON(tags []string) string {
	if tags == nil {
		return "[]"
	}
	b, _ := json.Marshal(tags)
	return string(b)
}

// Ticket returns the ticket with id in mode, or ErrNotFound.
func (q *Q) Ticket(ctx context.Context, mode chat.Mode, id string) (*chat.Ticket, error) {
	return scanTicket(q.rowByKey(ctx, `SELECT `+ticketCols+` FROM tickets WHERE id = ? AND mode = ?`, id, mode))
}

// TicketByNumber returns the ticket with number in mode, or ErrNotFound.
func (q *Q) TicketByNumber(ctx context.Context, mode chat.Mode, number int64) (*chat.Ticket, error) {
	return scanTicket(q.rowByKey(ctx, `SELECT `+ticketCols+` FROM tickets WHERE mode = ? AND number = ?`, mode, number))
}

// DeleteTicket removes a ticket for good.
func (q *Q) DeleteTicket(ctx context.Context, mode chat.Mode, id string) error {
	res, err := q.exec(ctx, `DELETE FROM tickets WHERE id = ? AND mode = ?`, id, mode)
	return affected(res, err)
}

// TicketFilter selects tickets; zero fields do not filter. Created bounds
// are exclusive.
type TicketFilter struct {
	Mode          chat.Mode
	Status        string
	Priority      string
	ContactID     string
	Tag           string
	CreatedAfter  *chat.Timestamp
	CreatedBefore *chat.Timestamp
	Page          Page
}

// Tickets lists tickets newest first.
func (q *Q) Tickets(ctx context.Context, f TicketFilter) ([]*chat.Ticket, error) {
	query, args := f.sql()
	rows, err := q.query(ctx, query, args...)
	return collect(rows, err, scanTicket)
}

func (f TicketFilter) sql() (string, []any) {
	conds, args := equal(f.Mode, "status", f.Status, "priority", f.Priority, "contact_id", f.ContactID)
	if f.Tag != "" {
		conds = append(conds, "id IN (SELECT ticket_id FROM ticket_tags WHERE mode = ? AND tag = ?)")
		args = append(args, f.Mode, f.Tag)
	}
	if f.CreatedAfter != nil {
		conds = append(conds, "created_at > ?")
		args = append(args, *f.CreatedAfter)
	}
	if f.CreatedBefore != nil {
		conds = append(conds, "created_at < ?")
		args = append(args, *f.CreatedBefore)
	}
	where, tail, args := keyset("created_at", true, f.Page, conds, args)
	return `SELECT ` + ticketCols + ` FROM tickets` + where + tail, args
}

// TicketsOfContact lists every ticket whose contact is contactID.
func (q *Q) TicketsOfContact(ctx context.Context, contactID string) ([]*chat.Ticket, error) {
	rows, err := q.query(ctx, `SELECT `+ticketCols+` FROM tickets WHERE contact_id = ? ORDER BY created_at, id`, contactID)
	return collect(rows, err, scanTicket)
}
