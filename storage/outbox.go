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
	// TicketEvent is the seq of the event that holds the ticket as the
	// e-mail shows it (.ticket), recorded in the same write; Ticket is that
	// event's data, read with the e-mail.
	TicketEvent   *int64
	Ticket        json.RawMessage
	Status        string // pending, sent, failed
	Attempts      int
	NextAttemptAt chat.Timestamp
	LastError     *string
	CreatedAt     chat.Timestamp
	SentAt        *chat.Timestamp
}

const mailCols = `id, mode, template, to_email, to_name, contact_id, ticket_id, data, status, attempts,
	next_attempt_at, last_error, created_at, sent_at, conversation_id, ticket_event`

// mailRead is mailCols with the data of the e-mail's ticket event, for
// queries FROM outbox.
const mailRead = mailCols + `, (SELECT e.data FROM events e WHERE e.seq = outbox.ticket_event)`

func scanMail(s interface{ Scan(...any) error }) (*Mail, error) {
	m := &Mail{}
	var data string
	var ticket *string
	err := s.Scan(&m.ID, &m.Mode, &m.Template, &m.ToEmail, &m.ToName, &m.ContactID, &m.TicketID, &data, &m.Status,
		&m.Attempts, &m.NextAttemptAt, &m.LastError, &m.CreatedAt, &m.SentAt, &m.ConversationID, &m.TicketEvent, &ticket)
	if err != nil {
		return nil, notFound(err)
	}
	m.Data = json.RawMessage(data)
	if ticket != nil {
		m.Ticket = json.RawMessage(*ticket)
	}
	return m, nil
}

// InsertMail queues an e-mail.
func (q *Q) InsertMail(ctx context.Context, m *Mail) error {
	q.queued(QueueMail)
	if m.Status == "" {
		m.Status = chat.MailPending
	}
	_, err := q.exec(ctx, `INSERT INTO outbox (`+mailCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		m.ID, m.Mode, m.Template, m.ToEmail, m.ToName, m.ContactID, m.TicketID, string(m.Data), m.Status,
		m.Attempts, m.NextAttemptAt, m.LastError, m.CreatedAt, m.SentAt, m.ConversationID, m.TicketEvent)
	return err
}

// MailsOfTicket lists the outbox rows about one ticket, oldest first.
func (q *Q) MailsOfTicket(ctx context.Context, ticketID string) ([]*Mail, error) {
	rows, err := q.query(ctx, `SELECT `+mailRead+` FROM outbox WHERE ticket_id = ? ORDER BY created_at, id`, ticketID)
	return collect(rows, err, scanMail)
}

// The confirmations of tickets opened by people not yet known (template
// ticket_received) are the only e-mails counted against limits; the two
// indexes that count them hold only those (outbox_confirmations*), so the
// queries name the template as written there.

const (
	confirmationsAfterSQL   = `SELECT COUNT(*) FROM outbox WHERE template = 'ticket_received' AND created_at > ?`
	confirmationsToAfterSQL = `SELECT COUNT(*), MIN(created_at) FROM outbox
		WHERE template = 'ticket_received' AND to_email = ? COLLATE NOCASE AND created_at > ?`
)

// ConfirmationsAfter counts the ticket_received e-mails queued after a
// time, to any address.
func (q *Q) ConfirmationsAfter(ctx context.Context, since chat.Timestamp) (n int, err error) {
	err = q.row(ctx, confirmationsAfterSQL, since).Scan(&n)
	return n, err
}

// ConfirmationsToAfter counts the ticket_received e-mails queued for an
// address (any case) after a time, and returns when the earliest of them
// was queued.
func (q *Q) ConfirmationsToAfter(ctx context.Context, email string, since chat.Timestamp) (n int, first chat.Timestamp, err error) {
	var earliest *chat.Timestamp
	err = q.row(ctx, confirmationsToAfterSQL, email, since).Scan(&n, &earliest)
	if earliest != nil {
		first = *earliest
	}
	return n, first, err
}
