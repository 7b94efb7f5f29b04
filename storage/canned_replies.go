package storage

import (
	"context"

	"chatsvc/chat"
)

const cannedReplyCols = `id, mode, shortcut, title, body, created_at, updated_at`

func scanCannedReply(s interface{ Scan(...any) error }) (*chat.CannedReply, error) {
	c := &chat.CannedReply{}
	err := s.Scan(&c.ID, &c.Mode, &c.Shortcut, &c.Title, &c.Body, &c.CreatedAt, &c.UpdatedAt)
	return c, notFound(err)
}

// InsertCannedReply stores a new canned reply; ErrConflict if its shortcut
// is taken in its mode.
func (q *Q) InsertCannedReply(ctx context.Context, c *chat.CannedReply) error {
	_, err := q.exec(ctx, `INSERT INTO canned_replies (`+cannedReplyCols+`) VALUES (?,?,?,?,?,?,?)`,
		c.ID, c.Mode, c.Shortcut, c.Title, c.Body, c.CreatedAt, c.UpdatedAt)
	return conflict(err)
}

// UpdateCannedReply writes every mutable field of c; ErrConflict as
// InsertCannedReply.
func (q *Q) UpdateCannedReply(ctx context.Context, c *chat.CannedReply) error {
	res, err := q.exec(ctx, `UPDATE canned_replies SET shortcut = ?, title = ?, body = ?, updated_at = ?
		WHERE id = ? AND mode = ?`, c.Shortcut, c.Title, c.Body, c.UpdatedAt, c.ID, c.Mode)
	return affected(res, err)
}

// DeleteCannedReply removes a canned reply.
func (q *Q) DeleteCannedReply(ctx context.Context, mode chat.Mode, id string) error {
	res, err := q.exec(ctx, `DELETE FROM canned_replies WHERE id = ? AND mode = ?`, id, mode)
	return affected(res, err)
}

// CannedReply reads one canned reply of a mode.
func (q *Q) CannedReply(ctx context.Context, mode chat.Mode, id string) (*chat.CannedReply, error) {
	return scanCannedReply(q.row(ctx, `SELECT `+cannedReplyCols+` FROM canned_replies WHERE id = ? AND mode = ?`, id, mode))
}

// CannedReplies lists a mode's canned replies, newest first.
func (q *Q) CannedReplies(ctx context.Context, mode chat.Mode, p Page) ([]*chat.CannedReply, error) {
	where, tail, args := keyset("created_at", true, p, []string{"mode = ?"}, []any{mode})
	rows, err := q.query(ctx, `SELECT `+cannedReplyCols+` FROM canned_replies`+where+tail, args...)
	return collect(rows, err, scanCannedReply)
}

// TicketNumberOfConversation returns the number of the newest ticket opened
// from a conversation, or ErrNotFound.
func (q *Q) TicketNumberOfConversation(ctx context.Context, mode chat.Mode, conversationID string) (int64, error) {
	var n int64
	err := q.row(ctx, `SELECT number FROM tickets WHERE conversation_id = ? AND mode = ?
		ORDER BY created_at DESC LIMIT 1`, conversationID, mode).Scan(&n)
	return n, notFound(err)
}
