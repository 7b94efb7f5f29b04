package storage

import (
	"context"

	"chatsvc/chat"
)

// VisitorAlert is the missed-reply e-mail a conversation's contact may be
// owed: due at DueAt (nil: nothing owed), for agent messages newer than
// MailedUntil.
type VisitorAlert struct {
	ConversationID string
	Mode           chat.Mode
	DueAt          *chat.Timestamp
	MailedUntil    chat.Timestamp
}

// MarkVisitorSeen records that the visitor has been shown the messages of
// a conversation up to upTo (a message's created_at). It only moves
// forward, and does not wake the live streams.
func (q *Q) MarkVisitorSeen(ctx context.Context, conversationID string, upTo chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE conversations SET visitor_seen_at = ? WHERE id = ? AND visitor_seen_at < ?`,
		upTo, conversationID, upTo)
	return err
}

// VisitorSeenAt is how far the visitor has seen a conversation (0: nothing).
func (q *Q) VisitorSeenAt(ctx context.Context, conversationID string) (chat.Timestamp, error) {
	var at chat.Timestamp
	err := q.row(ctx, `SELECT visitor_seen_at FROM conversations WHERE id = ?`, conversationID).Scan(&at)
	return at, notFound(err)
}

// OweVisitorAlert makes a conversation's alert due at due, unless one is
// due already: the earlier unseen message sets the time, and the row is
// then left unwritten.
func (q *Q) OweVisitorAlert(ctx context.Context, conversationID string, due chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE conversations SET alert_due_at = ? WHERE id = ? AND alert_due_at IS NULL`,
		due, conversationID)
	return err
}

// DueVisitorAlerts lists up to limit alerts due at now, oldest first.
func (q *Q) DueVisitorAlerts(ctx context.Context, now chat.Timestamp, limit int) ([]*VisitorAlert, error) {
	rows, err := q.query(ctx, `SELECT id, mode, alert_due_at, alert_mailed_until FROM conversations
		WHERE alert_due_at IS NOT NULL AND alert_due_at <= ? ORDER BY alert_due_at, id LIMIT ?`, now, limit)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (*VisitorAlert, error) {
		a := &VisitorAlert{}
		return a, s.Scan(&a.ConversationID, &a.Mode, &a.DueAt, &a.MailedUntil)
	})
}

// SetVisitorAlert stores when the alert is next due (nil: not owed) and
// the newest agent message it has dealt with.
func (q *Q) SetVisitorAlert(ctx context.Context, a *VisitorAlert) error {
	_, err := q.exec(ctx, `UPDATE conversations SET alert_due_at = ?, alert_mailed_until = ? WHERE id = ?`,
		a.DueAt, a.MailedUntil, a.ConversationID)
	return err
}

// AgentMessagesAfter lists up to limit agent messages of a conversation
// written after a time, oldest first.
func (q *Q) AgentMessagesAfter(ctx context.Context, conversationID string, after chat.Timestamp, limit int) ([]*chat.Message, error) {
	rows, err := q.query(ctx, `SELECT `+messageCols+` FROM messages WHERE conversation_id = ? AND author_type = ?
		AND created_at > ? ORDER BY created_at, id LIMIT ?`, conversationID, chat.AuthorAgent, after, limit)
	return collect(rows, err, scanMessage)
}
