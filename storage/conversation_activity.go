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
