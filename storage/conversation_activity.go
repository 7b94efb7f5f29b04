package storage

import "context"

// UpdateConversationActivity writes only c's status, message count and
// times: what a new message changes. It spares the full UpdateConversation
// the rewrite of the contact index and of the metadata, which profiles of
// agent message creates showed as a large share of the single writer's
// time; use it only when nothing else of c changed.
func (q *Q) UpdateConversationActivity(ctx context.Context, c *Conversation) error {
	res, err := q.exec(ctx, `UPDATE conversations SET status = ?, message_count = ?, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ?`, c.Status, c.MessageCount, c.LastMessageAt, c.UpdatedAt, c.ID, c.Mode)
	return affected(res, err)
}

// CountMessage counts a new message on a conversation whose status is not
// refused, and moves it from status from to status to if it is in from:
// what an agent message changes, in one statement. ErrNotFound when there
// is no such conversation or it is in status refused.
func (q *Q) CountMessage(ctx context.Context, mode Mode, id string, at Timestamp, from, to, refused string) error {
	res, err := q.exec(ctx, `UPDATE conversations SET status = CASE status WHEN ? THEN ? ELSE status END,
		message_count = message_count + 1, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ? AND status <> ?`, from, to, at, at, id, mode, refused)
	return affected(res, err)
}
