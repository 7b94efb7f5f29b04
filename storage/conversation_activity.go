package storage

import (
	"context"
	"strings"

	"chatsvc/chat"
)

// Package app decides every move of a conversation's lifecycle; the
// writes here carry out a decision passed in as values (the status to
// write, the statuses a write applies in) and know no status themselves.

// UpdateConversationActivity writes only c's message count and times: what
// a new message changes. It spares the full UpdateConversation the rewrite
// of the contact index and of the metadata, which profiles of agent
// message creates showed as a large share of the single writer's time;
// use it only when nothing else of c changed.
func (q *Q) UpdateConversationActivity(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET message_count = ?, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ?`, c.MessageCount, c.LastMessageAt, c.UpdatedAt, c.ID, c.Mode)
	return affected(res, err)
}

// Move is what a step of a conversation's lifecycle stamps beside the
// status; nil leaves a time as it is.
type Move struct {
	HandedOffAt  *chat.Timestamp // the first hand-off, kept when there is one
	FirstAgentAt *chat.Timestamp // the first agent reply, kept when there is one
	ClosedAt     *chat.Timestamp // the close, which retention counts from
	Reopened     bool            // forgets the close time
}

// SaveMove writes a step of c's lifecycle: c's status, assignee, message
// count and times, and the stamps of m. One statement, so the report
// index, which holds the status and the first hand-off and agent reply,
// is rewritten once rather than once for each.
func (q *Q) SaveMove(ctx context.Context, c *chat.Conversation, m Move) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET status = ?, assignee_id = ?, message_count = ?, last_message_at = ?,
		updated_at = ?, handed_off_at = COALESCE(handed_off_at, ?), first_agent_at = COALESCE(first_agent_at, ?),
		closed_at = IIF(?, ?, closed_at)
		WHERE id = ? AND mode = ?`, c.Status, c.AssigneeID, c.MessageCount, c.LastMessageAt,
		c.UpdatedAt, m.HandedOffAt, m.FirstAgentAt, m.ClosedAt != nil || m.Reopened, m.ClosedAt, c.ID, c.Mode)
	return affected(res, err)
}

// CountAgentMessageIn counts a team member's message on a conversation
// whose status is one of statuses and that has its first agent reply:
// the usual case, where the message changes nothing else. The statement
// names neither the status nor the report columns, so it leaves their
// indexes alone (a random page written per message otherwise).
// ErrNotFound when there is no such conversation, for the caller to look
// at it and decide.
func (q *Q) CountAgentMessageIn(ctx context.Context, mode chat.Mode, id string, at chat.Timestamp, statuses []chat.Status) error {
	q.changed(&id)
	cond, args := statusIn(statuses)
	res, err := q.exec(ctx, `UPDATE conversations SET message_count = message_count + 1, last_message_at = ?, updated_at = ?
		WHERE id = ? AND mode = ? AND first_agent_at IS NOT NULL AND `+cond, append([]any{at, at, id, mode}, args...)...)
	return affected(res, err)
}

// statusIn is the condition "status is one of statuses" and its arguments.
func statusIn(statuses []chat.Status) (string, []any) {
	if len(statuses) == 0 {
		return `0`, nil
	}
	args := make([]any, len(statuses))
	for i, s := range statuses {
		args[i] = s
	}
	return `status IN (?` + strings.Repeat(", ?", len(statuses)-1) + `)`, args
}

// FirstAgentReply records at as a conversation's first agent reply unless
// it has one, for writes that add a team member's message without
// counting it (the benchmark's seed data).
func (q *Q) FirstAgentReply(ctx context.Context, conversationID string, at chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE conversations SET first_agent_at = ? WHERE id = ? AND first_agent_at IS NULL`,
		at, conversationID)
	return err
}
