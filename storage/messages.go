package storage

import "context"

// Message is one message of a conversation, as the API shows it.
type Message struct {
	ID             string       `json:"id"`
	Object         string       `json:"object"`
	Mode           Mode         `json:"-"`
	ConversationID string       `json:"conversation_id"`
	Author         Author       `json:"author"`
	Body           string       `json:"body"`
	Attachments    []Attachment `json:"attachments"` // signed afresh for each response
	Files          []StoredFile `json:"-"`           // what the attachments column holds
	Sources        []Source     `json:"sources"`
	CreatedAt      Timestamp    `json:"created_at"`
}

// Author types.
const (
	AuthorContact = "contact"
	AuthorBot     = "bot"
	AuthorAgent   = "agent"
	AuthorSystem  = "system"
)

// Author is who wrote a message.
type Author struct {
	Type string  `json:"type"`
	ID   *string `json:"id"`
	Name *string `json:"name"`
}

// Attachment is a file sent with a message, as the API shows it.
type Attachment struct {
	URL  string `json:"url"`
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// Source is a page an assistant reply was drawn from.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

const messageCols = `id, mode, conversation_id, author_type, author_id, author_name, body, attachments, sources, created_at`

func scanMessage(s interface{ Scan(...any) error }) (*Message, error) {
	m := &Message{Object: "message"}
	err := s.Scan(&m.ID, &m.Mode, &m.ConversationID, &m.Author.Type, &m.Author.ID, &m.Author.Name, &m.Body,
		jsonCol{&m.Files}, jsonCol{&m.Sources}, &m.CreatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	m.Attachments = []Attachment{}
	if m.Sources == nil {
		m.Sources = []Source{}
	}
	return m, nil
}

// InsertMessage stores a new message.
func (q *Q) InsertMessage(ctx context.Context, m *Message) error {
	q.changed(&m.ConversationID)
	atts, srcs := m.Files, m.Sources
	if atts == nil {
		atts = []StoredFile{}
	}
	if srcs == nil {
		srcs = []Source{}
	}
	_, err := q.exec(ctx, `INSERT INTO messages (`+messageCols+`) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		m.ID, m.Mode, m.ConversationID, m.Author.Type, m.Author.ID, m.Author.Name, m.Body,
		toJSON(atts), toJSON(srcs), m.CreatedAt)
	return err
}

// Message returns the message with id in mode, or ErrNotFound.
func (q *Q) Message(ctx context.Context, mode Mode, id string) (*Message, error) {
	return scanMessage(q.row(ctx, `SELECT `+messageCols+` FROM messages WHERE id = ? AND mode = ?`, id, mode))
}

// Messages lists a conversation's messages oldest first.
func (q *Q) Messages(ctx context.Context, conversationID string, p Page) ([]*Message, error) {
	where, tail, args := keyset("created_at", false, p, []string{"conversation_id = ?"}, []any{conversationID})
	rows, err := q.query(ctx, `SELECT `+messageCols+` FROM messages`+where+tail, args...)
	return collect(rows, err, scanMessage)
}

// Note is an internal note of the team on a conversation.
type Note struct {
	ID             string
	Mode           Mode
	ConversationID string
	AuthorID       *string
	Body           string
	CreatedAt      Timestamp
}

// InsertNote stores an internal note.
func (q *Q) InsertNote(ctx context.Context, n *Note) error {
	_, err := q.exec(ctx, `INSERT INTO notes (id, mode, conversation_id, author_id, body, created_at) VALUES (?,?,?,?,?,?)`,
		n.ID, n.Mode, n.ConversationID, n.AuthorID, n.Body, n.CreatedAt)
	return err
}

// Notes lists a conversation's internal notes oldest first.
func (q *Q) Notes(ctx context.Context, conversationID string) ([]*Note, error) {
	rows, err := q.query(ctx, `SELECT id, mode, conversation_id, author_id, body, created_at FROM notes
		WHERE conversation_id = ? ORDER BY created_at, id`, conversationID)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (*Note, error) {
		n := &Note{}
		return n, s.Scan(&n.ID, &n.Mode, &n.ConversationID, &n.AuthorID, &n.Body, &n.CreatedAt)
	})
}
