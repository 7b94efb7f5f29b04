package storage

import (
	"context"
	"errors"
	"strings"

	"chatsvc/support"
)

// UpdateConversationActivity writes only c's status, message count and
// times: what a new message changes. It spares the full UpdateConversation
// the rewrite of the contact index and of the metadata, which profiles of
// agent message creates showed as a large share of the single writer's
// time; use it only when nothing else of c changed.
func (q *Q) UpdateConversationActivity(ctx context.Context, c *support.Conversation) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET status = ?, message_count = ?, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ?`, c.Status, c.MessageCount, c.LastMessageAt, c.UpdatedAt, c.ID, c.Mode)
	return affected(res, err)
}

// CountMessage counts a new message on a conversation whose status is not
// refused, and moves it from status from to status to if it is in from:
// what an agent message changes. Most messages leave the status alone, and
// the statement for them does not name it, so SQLite leaves the status
// index untouched (a random page written per message otherwise); only a
// conversation in from takes a second statement. ErrNotFound when there is
// no such conversation or it is in one of the statuses refused.
func (q *Q) CountMessage(ctx context.Context, mode support.Mode, id string, at support.Timestamp, from, to string, refused ...string) error {
	q.changed(&id)
	args := []any{at, at, id, mode, from}
	for _, r := range refused {
		args = append(args, r)
	}
	res, err := q.exec(ctx, `UPDATE conversations SET message_count = message_count + 1, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ? AND status NOT IN (?`+strings.Repeat(", ?", len(refused))+`)`, args...)
	if err := affected(res, err); !errors.Is(err, ErrNotFound) {
		return err
	}
	res, err = q.exec(ctx, `UPDATE conversations SET status = ?, message_count = message_count + 1, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ? AND status = ?`, to, at, at, id, mode, from)
	return affected(res, err)
}

// HandedOff keeps the time of a conversation's first hand-off to a person
// on the conversation, where the reports read it; later hand-offs leave it.
func (q *Q) HandedOff(ctx context.Context, conversationID string, at support.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE conversations SET handed_off_at = ? WHERE id = ? AND handed_off_at IS NULL`,
		at, conversationID)
	return err
}
