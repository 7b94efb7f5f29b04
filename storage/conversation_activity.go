package storage

import (
	"context"
	"errors"
	"strings"

	"chatsvc/chat"
)

// UpdateConversationActivity writes only c's status, message count and
// times: what a new message changes. It spares the full UpdateConversation
// the rewrite of the contact index and of the metadata, which profiles of
// agent message creates showed as a large share of the single writer's
// time; use it only when nothing else of c changed.
func (q *Q) UpdateConversationActivity(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET status = ?, message_count = ?, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ?`, c.Status, c.MessageCount, c.LastMessageAt, c.UpdatedAt, c.ID, c.Mode)
	return affected(res, err)
}

// TakeOver writes what a person's first message changes in a
// conversation the assistant was answering: c's status, assignee, message
// count and times, and the first hand-off and first agent reply when there
// were none. One statement, so the report index, which holds all three,
// is rewritten once rather than three times.
func (q *Q) TakeOver(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET status = ?, assignee_id = ?, message_count = ?, last_message_at = ?,
		updated_at = ?, handed_off_at = COALESCE(handed_off_at, ?), first_agent_at = COALESCE(first_agent_at, ?)
		WHERE id = ? AND mode = ?`, c.Status, c.AssigneeID, c.MessageCount, c.LastMessageAt,
		c.UpdatedAt, c.UpdatedAt, c.LastMessageAt, c.ID, c.Mode)
	return affected(res, err)
}

// CountAgentMessage counts a team member's message on a conversation
// whose status is not refused: it moves the conversation from status from
// to status to if it is in from, and records the first agent reply, which
// the reports read. Most messages change neither, and the first statement,
// which names neither column, leaves the status and report indexes alone
// (a random page written per message otherwise); a conversation in from, or
// without an agent reply yet, takes a second statement. ErrNotFound when
// there is no such conversation or its status is refused.
func (q *Q) CountAgentMessage(ctx context.Context, mode chat.Mode, id string, at chat.Timestamp, from, to string, refused ...string) error {
	q.changed(&id)
	notIn := func(statuses ...string) (string, []any) {
		args := make([]any, len(statuses))
		for i, s := range statuses {
			args[i] = s
		}
		return ` AND status NOT IN (?` + strings.Repeat(", ?", len(statuses)-1) + `)`, args
	}
	cond, args := notIn(append([]string{from}, refused...)...)
	res, err := q.exec(ctx, `UPDATE conversations SET message_count = message_count + 1, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ? AND first_agent_at IS NOT NULL`+cond, append([]any{at, at, id, mode}, args...)...)
	if err := affected(res, err); !errors.Is(err, ErrNotFound) {
		return err
	}
	cond, args = notIn(refused...)
	res, err = q.exec(ctx, `UPDATE conversations SET status = CASE status WHEN ? THEN ? ELSE status END,
		message_count = message_count + 1, last_message_at = ?, updated_at = ?, first_agent_at = COALESCE(first_agent_at, ?)
		WHERE id = ? AND mode = ?`+cond, append([]any{from, to, at, at, at, id, mode}, args...)...)
	return affected(res, err)
}

// FirstAgentReply records at as a conversation's first agent reply unless
// it has one, for writes that add a team member's message without
// counting it (the benchmark's seed data).
func (q *Q) FirstAgentReply(ctx context.Context, conversationID string, at chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE conversations SET first_agent_at = ? WHERE id = ? AND first_agent_at IS NULL`,
		at, conversationID)
	return err
}

// HandedOff keeps the time of a conversation's first hand-off to a person
// on the conversation, where the reports read it; later hand-offs leave it.
func (q *Q) HandedOff(ctx context.Context, conversationID string, at chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE conversations SET handed_off_at = ? WHERE id = ? AND handed_off_at IS NULL`,
		at, conversationID)
	return err
}
