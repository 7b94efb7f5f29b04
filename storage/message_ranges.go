package storage

import (
	"context"

	"chatsvc/chat"
)

// MessagesAfter lists up to limit messages of a conversation that come after
// the given one (all, when afterID is ""), oldest first.
func (q *Q) MessagesAfter(ctx context.Context, conversationID, afterID string, limit int) ([]*chat.Message, error) {
	p := Page{Limit: limit}
	if afterID != "" {
		m, err := scanMessage(q.row(ctx, `SELECT `+messageCols+` FROM messages WHERE id = ? AND conversation_id = ?`,
			afterID, conversationID))
		if err != nil {
			return nil, err
		}
		p.After = &chat.Cursor{Key: int64(m.CreatedAt), ID: m.ID}
	}
	return q.Messages(ctx, conversationID, p)
}

// MessagesBefore lists up to limit messages of a conversation that come
// before m, oldest first.
func (q *Q) MessagesBefore(ctx context.Context, m *chat.Message, limit int) ([]*chat.Message, error) {
	rows, err := q.query(ctx, `SELECT `+messageCols+` FROM messages WHERE conversation_id = ? AND (created_at, id) < (?, ?)
		ORDER BY created_at DESC, id DESC LIMIT ?`, m.ConversationID, m.CreatedAt, m.ID, limit)
	out, err := collect(rows, err, scanMessage)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}
