package storage

import (
	"context"

	"chatsvc/chat"
)

// WaitingAlert is the e-mail alert owed for a conversation left waiting.
type WaitingAlert struct {
	ConversationID string
	Mode           chat.Mode
	WaitingSince   chat.Timestamp
	DueAt          chat.Timestamp
	Status         string
}

// InsertWaitingAlert schedules the alert of a conversation unless it has
// one already: a conversation is alerted about at most once.
func (q *Q) InsertWaitingAlert(ctx context.Context, a *WaitingAlert) error {
	_, err := q.exec(ctx, `INSERT INTO waiting_alerts (conversation_id, mode, waiting_since, due_at, status)
		VALUES (?,?,?,?,?) ON CONFLICT (conversation_id) DO NOTHING`,
		a.ConversationID, a.Mode, a.WaitingSince, a.DueAt, chat.AlertPending)
	return err
}

const dueWaitingAlertsSQL = `SELECT conversation_id, mode, waiting_since, due_at, status FROM waiting_alerts
	WHERE status = ? AND due_at <= ? ORDER BY due_at, conversation_id LIMIT ?`

// DueWaitingAlerts lists up to limit pending alerts due at now, oldest first.
func (q *Q) DueWaitingAlerts(ctx context.Context, now chat.Timestamp, limit int) ([]*WaitingAlert, error) {
	rows, err := q.query(ctx, dueWaitingAlertsSQL, chat.AlertPending, now, limit)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (*WaitingAlert, error) {
		a := &WaitingAlert{}
		return a, s.Scan(&a.ConversationID, &a.Mode, &a.WaitingSince, &a.DueAt, &a.Status)
	})
}

// SetWaitingAlertStatus records that an alert was sent or skipped.
func (q *Q) SetWaitingAlertStatus(ctx context.Context, conversationID, status string) error {
	_, err := q.exec(ctx, `UPDATE waiting_alerts SET status = ? WHERE conversation_id = ?`, status, conversationID)
	return err
}

// AgentWroteSince reports whether a team member wrote in the conversation
// at or after since.
func (q *Q) AgentWroteSince(ctx context.Context, conversationID string, since chat.Timestamp) (bool, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE conversation_id = ? AND author_type = ?
		AND created_at >= ? LIMIT 1)`, conversationID, chat.AuthorAgent, since).Scan(&n)
	return n > 0, err
}

// PushSubscription is where the browser of a member receives pushes.
type PushSubscription struct {
	ID        string
	MemberID  string
	Endpoint  string
	P256DH    string
	Auth      string
	CreatedAt chat.Timestamp
}

const pushSubCols = `id, member_id, endpoint, p256dh, auth, created_at`

func scanPushSub(s interface{ Scan(...any) error }) (*PushSubscription, error) {
	p := &PushSubscription{}
	err := s.Scan(&p.ID, &p.MemberID, &p.Endpoint, &p.P256DH, &p.Auth, &p.CreatedAt)
	return p, notFound(err)
}

// SavePushSubscription stores a subscription; one already stored at the
// same endpoint is taken over (a browser re-subscribing, or another member
// signing in on it), keeping its id.
func (q *Q) SavePushSubscription(ctx context.Context, p *PushSubscription) (*PushSubscription, error) {
	_, err := q.exec(ctx, `INSERT INTO push_subscriptions (`+pushSubCols+`) VALUES (?,?,?,?,?,?)
		ON CONFLICT (endpoint) DO UPDATE SET member_id = excluded.member_id, p256dh = excluded.p256dh,
		auth = excluded.auth`, p.ID, p.MemberID, p.Endpoint, p.P256DH, p.Auth, p.CreatedAt)
	if err != nil {
		return nil, err
	}
	return scanPushSub(q.row(ctx, `SELECT `+pushSubCols+` FROM push_subscriptions WHERE endpoint = ?`, p.Endpoint))
}

// KeepNewestPushSubscriptions removes a member's subscriptions but the
// newest n, with their queued pushes.
func (q *Q) KeepNewestPushSubscriptions(ctx context.Context, memberID string, n int) error {
	_, err := q.exec(ctx, `DELETE FROM push_subscriptions WHERE member_id = ?1 AND id NOT IN
		(SELECT id FROM push_subscriptions WHERE member_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2)`, memberID, n)
	return err
}

// DeletePushSubscription removes a member's subscription at endpoint, and
// the pushes queued for it; ErrNotFound when there was none.
func (q *Q) DeletePushSubscription(ctx context.Context, memberID, endpoint string) error {
	res, err := q.exec(ctx, `DELETE FROM push_subscriptions WHERE member_id = ? AND endpoint = ?`, memberID, endpoint)
	return affected(res, err)
}

// DropPushSubscription removes a subscription the push service no longer
// knows, with its queued pushes.
func (q *Q) DropPushSubscription(ctx context.Context, id string) error {
	_, err := q.exec(ctx, `DELETE FROM push_subscriptions WHERE id = ?`, id)
	return err
}

// PushSubscriptionsOf lists the subscriptions of the given members (all
// members' when ids is nil).
func (q *Q) PushSubscriptionsOf(ctx context.Context, memberIDs []string) ([]*PushSubscription, error) {
	if memberIDs == nil {
		rows, err := q.query(ctx, `SELECT `+pushSubCols+` FROM push_subscriptions ORDER BY created_at, id`)
		return collect(rows, err, scanPushSub)
	}
	var all []*PushSubscription
	for _, id := range memberIDs {
		rows, err := q.query(ctx, `SELECT `+pushSubCols+` FROM push_subscriptions WHERE member_id = ?
			ORDER BY created_at, id`, id)
		subs, err := collect(rows, err, scanPushSub)
		if err != nil {
			return nil, err
		}
		all = append(all, subs...)
	}
	return all, nil
}

// Push is a notification owed to one subscription.
type Push struct {
	ID            string
	Subscription  PushSubscription
	Payload       string
	Attempts      int
	NextAttemptAt chat.Timestamp
	CreatedAt     chat.Timestamp
}

// QueuePush owes payload to a subscription, due at once.
func (q *Q) QueuePush(ctx context.Context, id, subscriptionID, payload string, at chat.Timestamp) error {
	q.queued(QueuePushes)
	_, err := q.exec(ctx, `INSERT INTO pushes (id, subscription_id, payload, attempts, next_attempt_at, created_at)
		VALUES (?,?,?,0,?,?)`, id, subscriptionID, payload, at, at)
	return err
}

// DuePushes lists up to limit pushes due at now, with their subscription.
func (q *Q) DuePushes(ctx context.Context, now chat.Timestamp, limit int) ([]*Push, error) {
	rows, err := q.query(ctx, `SELECT p.id, p.payload, p.attempts, p.next_attempt_at, p.created_at,
		s.id, s.member_id, s.endpoint, s.p256dh, s.auth, s.created_at
		FROM pushes p JOIN push_subscriptions s ON s.id = p.subscription_id
		WHERE p.next_attempt_at <= ? ORDER BY p.next_attempt_at, p.id LIMIT ?`, now, limit)
	return collect(rows, err, func(r interface{ Scan(...any) error }) (*Push, error) {
		p := &Push{}
		s := &p.Subscription
		return p, r.Scan(&p.ID, &p.Payload, &p.Attempts, &p.NextAttemptAt, &p.CreatedAt,
			&s.ID, &s.MemberID, &s.Endpoint, &s.P256DH, &s.Auth, &s.CreatedAt)
	})
}

// PushDone removes a push that was delivered or given up.
func (q *Q) PushDone(ctx context.Context, id string) error {
	_, err := q.exec(ctx, `DELETE FROM pushes WHERE id = ?`, id)
	return err
}

// PushRetry records a failed attempt and when the next one is due.
func (q *Q) PushRetry(ctx context.Context, id string, attempts int, next chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE pushes SET attempts = ?, next_attempt_at = ? WHERE id = ?`, attempts, next, id)
	return err
}
