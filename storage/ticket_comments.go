package storage

import (
	"context"

	"chatsvc/chat"
)

const ticketCommentCols = `id, mode, ticket_id, author_type, author_id, author_name, body, public, attachments, via, created_at`

func scanTicketComment(s interface{ Scan(...any) error }) (*chat.TicketComment, error) {
	c := &chat.TicketComment{}
	err := s.Scan(&c.ID, &c.Mode, &c.TicketID, &c.Author.Type, &c.Author.ID, &c.Author.Name, &c.Body, &c.Public,
		jsonCol{&c.Files}, &c.Via, &c.CreatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	c.Attachments = []chat.Attachment{}
	return c, nil
}

// InsertTicketComment stores a comment on a ticket.
func (q *Q) InsertTicketComment(ctx context.Context, c *chat.TicketComment) error {
	files := c.Files
	if files == nil {
		files = []chat.StoredFile{}
	}
	_, err := q.exec(ctx, `INSERT INTO ticket_comments (`+ticketCommentCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
		c.ID, c.Mode, c.TicketID, c.Author.Type, c.Author.ID, c.Author.Name, c.Body, c.Public, toJSON(files), c.Via,
		c.CreatedAt)
	if err := q.queueSearch(ctx, err, "ticket_comments", c.ID); err != nil {
		return err
	}
	for _, f := range c.Files {
		if _, err := q.exec(ctx, `INSERT INTO ticket_comment_files (id, mode, comment_id, hash, name, size, content_type,
			created_at) VALUES (?,?,?,?,?,?,?,?)`, f.ID, c.Mode, c.ID, f.Hash, f.Name, f.Size, f.ContentType, c.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// TicketComments lists a ticket's comments oldest first.
func (q *Q) TicketComments(ctx context.Context, ticketID string, p Page) ([]*chat.TicketComment, error) {
	where, tail, args := keyset("created_at", false, p, []string{"ticket_id = ?"}, []any{ticketID})
	rows, err := q.query(ctx, `SELECT `+ticketCommentCols+` FROM ticket_comments`+where+tail, args...)
	return collect(rows, err, scanTicketComment)
}

// ScrubTicketComment rewrites a comment's author, body and file names.
func (q *Q) ScrubTicketComment(ctx context.Context, c *chat.TicketComment) error {
	files := c.Files
	if files == nil {
		files = []chat.StoredFile{}
	}
	if _, err := q.exec(ctx, `UPDATE ticket_comments SET author_id = ?, author_name = ?, body = ?, attachments = ? WHERE id = ?`,
		c.Author.ID, c.Author.Name, c.Body, toJSON(files), c.ID); err != nil {
		return err
	}
	for _, f := range c.Files {
		if _, err := q.exec(ctx, `UPDATE ticket_comment_files SET name = ? WHERE id = ?`, f.Name, f.ID); err != nil {
			return err
		}
	}
	return nil
}

// InboundMail is an e-mail taken in, remembered by its Message-ID.
type InboundMail struct {
	MessageID  string
	Sender     string
	Outcome    string // what became of it: comment, ticket, message, or why it was dropped
	ObjectID   *string
	ReceivedAt chat.Timestamp
}

// InsertInboundMail remembers an e-mail taken in; it reports false when
// the Message-ID was already taken.
func (q *Q) InsertInboundMail(ctx context.Context, m *InboundMail) (bool, error) {
	res, err := q.exec(ctx, `INSERT INTO inbound_mail (message_id, sender, outcome, object_id, received_at)
		VALUES (?,?,?,?,?) ON CONFLICT (message_id) DO NOTHING`, m.MessageID, m.Sender, m.Outcome, m.ObjectID, m.ReceivedAt)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// InboundMail returns the record of the e-mail with this Message-ID, or
// ErrNotFound.
func (q *Q) InboundMail(ctx context.Context, messageID string) (*InboundMail, error) {
	m := &InboundMail{}
	err := q.row(ctx, `SELECT message_id, sender, outcome, object_id, received_at FROM inbound_mail WHERE message_id = ?`,
		messageID).Scan(&m.MessageID, &m.Sender, &m.Outcome, &m.ObjectID, &m.ReceivedAt)
	return m, notFound(err)
}

// InboundMailSeen tells whether an e-mail with this Message-ID was taken in.
func (q *Q) InboundMailSeen(ctx context.Context, messageID string) (bool, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM inbound_mail WHERE message_id = ?`, messageID).Scan(&n)
	return n > 0, err
}

// InboundMailsFrom counts the e-mails taken in from a sender since a time.
func (q *Q) InboundMailsFrom(ctx context.Context, sender string, since chat.Timestamp) (int, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM inbound_mail WHERE sender = ? AND received_at > ?`, sender, since).Scan(&n)
	return n, err
}

// ForgetInboundSender removes an address from the record of e-mails taken
// in; their Message-IDs stay, so none is taken twice.
func (q *Q) ForgetInboundSender(ctx context.Context, sender string) error {
	_, err := q.exec(ctx, `UPDATE inbound_mail SET sender = '' WHERE sender = ?`, sender)
	return err
}
