package storage

import (
	"context"
	"encoding/json"

	"chatsvc/chat"
)

// Mail is an e-mail waiting in (or sent from) the outbox.
type Mail struct {
	ID        string
	Mode      chat.Mode
	Template  string
	ToEmail   string
	ToName    *string
	ContactID *string
	TicketID  *string
	// ConversationID names the conversation a missed-reply e-mail is about.
	ConversationID *string
	Data           json.RawMessage
	Status         string // pending, sent, failed
	Attempts       int
	NextAttemptAt  chat.Timestamp
	LastError      *string
	CreatedAt      chat.Timestamp
	SentAt         *chat.Timestamp
}

const mailCols = `id, mode, template, to_email, to_name, contact_id, ticket_id, data, status, attempts,
	next_attempt_at, last_error, created_at, sent_at, conversation_id`

func scanMail(s interface{ Scan(...any) error }) (*Mail, error) {
	m := &Mail{}
	var data string
	err := s.Scan(&m.ID, &m.Mode, &m.Template, &m.ToEmail, &m.ToName, &m.ContactID, &m.TicketID, &data, &m.Status,
		&m.Attempts, &m.NextAttemptAt, &m.LastError, &m.CreatedAt, &m.SentAt, &m.ConversationID)
	if err != nil {
		return nil, notFound(err)
	}
	m.Data = json.RawMessage(data)
	return m, nil
}

// InsertMail queues an e-mail.
func (q *Q) InsertMail(ctx context.Context, m *Mail) error {
	q.queued(QueueMail)
	if m.Status == "" {
		m.Status = chat.MailPending
	}
	_, err := q.exec(ctx, `INSERT INTO outbox (`+mailCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		m.ID, m.Mode, m.Template, m.ToEmail, m.ToName, m.ContactID, m.TicketID, string(m.Data), m.Status,
		m.Attempts, m.NextAttemptAt, m.LastError, m.CreatedAt, m.SentAt, m.ConversationID)
	return err
}

// MailsOfTicket lists the outbox rows about one ticket, oldest first.
func (q *Q) MailsOfTicket(ctx context.Context, ticketID string) ([]*Mail, error) {
	rows, err := q.query(ctx, `SELECT `+mailCols+` FROM outbox WHERE ticket_id = ? ORDER BY created_at, id`, ticketID)
	return collect(rows, err, scanMail)
}

// MailsAfter counts the e-mails of a template queued after a time, to any
// address.
func (q *Q) MailsAfter(ctx context.Context, template string, since chat.Timestamp) (n int, err error) {
	err = q.row(ctx, `SELECT COUNT(*) FROM outbox WHERE template = ? AND created_at > ?`, template, since).Scan(&n)
	return n, err
}

// MailsToAfter counts the e-mails of a template queued for an address (any
// case) after a time, and returns when the earliest of them was queued.
func (q *Q) MailsToAfter(ctx context.Context, template, email string, since chat.Timestamp) (n int, first chat.Timestamp, err error) {
	var earliest *chat.Timestamp
	err = q.row(ctx, `SELECT COUNT(*), MIN(created_at) FROM outbox
		WHERE template = ? AND to_email = ? COLLATE NOCASE AND created_at > ?`, template, email, since).Scan(&n, &earliest)
	if earliest != nil {
		first = *earliest
	}
	return n, first, err
}
