package storage

import (
	"context"

	"chatsvc/chat"
)

const messageCols = `id, mode, conversation_id, author_type, author_id, author_name, body, attachments, sources, created_at`

func scanMessage(s interface{ Scan(...any) error }) (*chat.Message, error) {
	m := &chat.Message{}
	err := s.Scan(&m.ID, &m.Mode, &m.ConversationID, &m.Author.Type, &m.Author.ID, &m.Author.Name, &m.Body,
		jsonCol{&m.Files}, jsonCol{&m.Sources}, &m.CreatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	m.Attachments = []chat.Attachment{}
	if m.Sources == nil {
		m.Sources = []chat.Source{}
	}
	return m, nil
}

// InsertMessage stores a new message. What a message changes on its
// conversation is written apart: CountAgentMessageIn or SaveMove for a
// team member's (the first agent reply among it).
func (q *Q) InsertMessage(ctx context.Context, m *chat.Message) error {
	q.changed(&m.ConversationID)
	atts, srcs := m.Files, m.Sources
	if atts == nil {
		atts = []chat.StoredFile{}
	}
	if srcs == nil {
		srcs = []chat.Source{}
	}
	_, err := q.exec(ctx, `INSERT INTO messages (`+messageCols+`) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		m.ID, m.Mode, m.ConversationID, m.Author.Type, m.Author.ID, m.Author.Name, m.Body,
		toJSON(atts), toJSON(srcs), m.CreatedAt)
	return err
}

// Message returns the message with id in mode, or ErrNotFound.
func (q *Q) Message(ctx context.Context, mode chat.Mode, id string) (*chat.Message, error) {
	return scanMessage(q.row(ctx, `SELECT `+messageCols+` FROM messages WHERE id = ? AND mode = ?`, id, mode))
}

// Messages lists a conversation's messages oldest first.
func (q *Q) Messages(ctx context.Context, conversationID string, p Page) ([]*chat.Message, error) {
	where, tail, args := keyset("created_at", false, p, []string{"conversation_id = ?"}, []any{conversationID})
	rows, err := q.query(ctx, `SELECT `+messageCols+` FROM messages`+where+tail, args...)
	return collect(rows, err, scanMessage)
}

// InsertNote stores an internal note.
func (q *Q) InsertNote(ctx context.Context, n *chat.Note) error {
	_, err := q.exec(ctx, `INSERT INTO notes (id, mode, conversation_id, author_id, body, created_at) VALUES (?,?,?,?,?,?)`,
		n.ID, n.Mode, n.ConversationID, n.AuthorID, n.Body, n.CreatedAt)
	return q.queueSearch(ctx, err, "notes", n.ID)
}

// Notes lists a conversation's internal notes oldest first.
func (q *Q) Notes(ctx context.Context, conversationID string) ([]*chat.Note, error) {
	rows, err := q.query(ctx, `SELECT id, mode, conversation_id, author_id, body, created_at FROM notes
		WHERE conversation_id = ? ORDER BY created_at, id`, conversationID)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (*chat.Note, error) {
		n := &chat.Note{}
		return n, s.Scan(&n.ID, &n.Mode, &n.ConversationID, &n.AuthorID, &n.Body, &n.CreatedAt)
	})
}
