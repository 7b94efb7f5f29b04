package storage

import (
	"context"
	"encoding/json"

	"chatsvc/chat"
)

const endpointCols = `id, mode, url, events, enabled, description, secret, after_seq, failing_since,
	disabled_reason, created_at, updated_at`

func scanEndpoint(s interface{ Scan(...any) error }) (*chat.WebhookEndpoint, error) {
	e := &chat.WebhookEndpoint{}
	err := s.Scan(&e.ID, &e.Mode, &e.URL, jsonCol{&e.Events}, &e.Enabled, &e.Description, &e.Secret, &e.AfterSeq,
		&e.FailingSince, &e.DisabledReason, &e.CreatedAt, &e.UpdatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	if e.Events == nil {
		e.Events = []string{}
	}
	return e, nil
}

// LastEventSeq is the seq of the newest event, 0 when there is none.
func (q *Q) LastEventSeq(ctx context.Context) (int64, error) {
	var n int64
	err := q.row(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events`).Scan(&n)
	return n, err
}

// InsertWebhookEndpoint stores a new endpoint.
func (q *Q) InsertWebhookEndpoint(ctx context.Context, e *chat.WebhookEndpoint) error {
	_, err := q.exec(ctx, `INSERT INTO webhook_endpoints (`+endpointCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		e.ID, e.Mode, e.URL, toJSON(e.Events), e.Enabled, e.Description, e.Secret, e.AfterSeq, e.FailingSince,
		e.DisabledReason, e.CreatedAt, e.UpdatedAt)
	return err
}

// UpdateWebhookEndpoint writes every mutable field of e.
func (q *Q) UpdateWebhookEndpoint(ctx context.Context, e *chat.WebhookEndpoint) error {
	res, err := q.exec(ctx, `UPDATE webhook_endpoints SET url = ?, events = ?, enabled = ?, description = ?,
		failing_since = ?, disabled_reason = ?, updated_at = ? WHERE id = ? AND mode = ?`,
		e.URL, toJSON(e.Events), e.Enabled, e.Description, e.FailingSince, e.DisabledReason, e.UpdatedAt, e.ID, e.Mode)
	return affected(res, err)
}

// WebhookEndpoint returns the endpoint with id in mode, or ErrNotFound.
func (q *Q) WebhookEndpoint(ctx context.Context, mode chat.Mode, id string) (*chat.WebhookEndpoint, error) {
	return scanEndpoint(q.row(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints WHERE id = ? AND mode = ?`, id, mode))
}

// WebhookEndpoints lists one mode's endpoints newest first.
func (q *Q) WebhookEndpoints(ctx context.Context, mode chat.Mode, p Page) ([]*chat.WebhookEndpoint, error) {
	conds, args := equal(mode)
	where, tail, args := keyset("created_at", true, p, conds, args)
	rows, err := q.query(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints`+where+tail, args...)
	return collect(rows, err, scanEndpoint)
}

// EnabledWebhookEndpoints lists every enabled endpoint of every mode, for
// fanning events out.
func (q *Q) EnabledWebhookEndpoints(ctx context.Context) ([]*chat.WebhookEndpoint, error) {
	rows, err := q.query(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints WHERE enabled = 1 ORDER BY created_at, id`)
	return collect(rows, err, scanEndpoint)
}

// DeleteWebhookEndpoint removes an endpoint with its queue and attempt log.
func (q *Q) DeleteWebhookEndpoint(ctx context.Context, mode chat.Mode, id string) error {
	res, err := q.exec(ctx, `DELETE FROM webhook_endpoints WHERE id = ? AND mode = ?`, id, mode)
	return affected(res, err)
}

// WebhookSend is a delivery still owed: one event to one endpoint.
type WebhookSend struct {
	ID            int64
	Mode          chat.Mode
	EndpointID    string
	EventSeq      int64
	EventID       string
	Attempts      int
	NextAttemptAt chat.Timestamp
	CreatedAt     chat.Timestamp // start of the retry window
}

// QueueWebhook owes ev to endpoint, due at `at`. When the pair is queued
// already (a resend), the row is made due at `at` with a fresh retry window
// and a new id, so that a send of it still in flight, which reports by id,
// cannot end the resend when it finishes.
func (q *Q) QueueWebhook(ctx context.Context, mode chat.Mode, endpointID string, ev *chat.Event, at chat.Timestamp) error {
	q.queued(QueueDeliveries)
	_, err := q.exec(ctx, `INSERT INTO webhook_queue (mode, endpoint_id, event_seq, event_id, attempts, next_attempt_at, created_at)
		VALUES (?,?,?,?,0,?,?)
		ON CONFLICT (endpoint_id, event_id) DO UPDATE SET id = (SELECT MAX(id) + 1 FROM webhook_queue), attempts = 0,
			next_attempt_at = excluded.next_attempt_at, created_at = excluded.created_at`,
		mode, endpointID, ev.Seq, ev.ID, at, at)
	return err
}

// WebhookSendByID returns a queued delivery, or ErrNotFound once it is done.
func (q *Q) WebhookSendByID(ctx context.Context, id int64) (*WebhookSend, error) {
	s := &WebhookSend{}
	err := q.row(ctx, `SELECT id, mode, endpoint_id, event_seq, event_id, attempts, next_attempt_at, created_at
		FROM webhook_queue WHERE id = ?`, id).
		Scan(&s.ID, &s.Mode, &s.EndpointID, &s.EventSeq, &s.EventID, &s.Attempts, &s.NextAttemptAt, &s.CreatedAt)
	return s, notFound(err)
}

// RescheduleWebhook records a failed attempt on a queued delivery.
func (q *Q) RescheduleWebhook(ctx context.Context, id int64, attempts int, next chat.Timestamp) error {
	res, err := q.exec(ctx, `UPDATE webhook_queue SET attempts = ?, next_attempt_at = ? WHERE id = ?`, attempts, next, id)
	return affected(res, err)
}

// DequeueWebhook removes a delivery that succeeded or was given up.
func (q *Q) DequeueWebhook(ctx context.Context, id int64) error {
	_, err := q.exec(ctx, `DELETE FROM webhook_queue WHERE id = ?`, id)
	return err
}

// ResumeWebhooks makes every queued delivery of an endpoint due at `at`.
func (q *Q) ResumeWebhooks(ctx context.Context, endpointID string, at chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE webhook_queue SET next_attempt_at = ? WHERE endpoint_id = ? AND next_attempt_at > ?`,
		at, endpointID, at)
	return err
}

// DueWebhookEndpoints lists the enabled endpoints with a delivery due by `at`.
func (q *Q) DueWebhookEndpoints(ctx context.Context, at chat.Timestamp) ([]string, error) {
	rows, err := q.query(ctx, `SELECT e.id FROM webhook_endpoints e WHERE e.enabled = 1
		AND EXISTS (SELECT 1 FROM webhook_queue w WHERE w.endpoint_id = e.id AND w.next_attempt_at <= ?)
		ORDER BY e.created_at, e.id`, at)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var id string
		return id, s.Scan(&id)
	})
}

// WebhookJob is a due delivery with everything needed to send it.
type WebhookJob struct {
	Send   WebhookSend
	URL    string
	Secret string
	Event  chat.Event
}

// DueWebhookJobs lists up to limit deliveries of one enabled endpoint due by
// `at`, the longest due first.
func (q *Q) DueWebhookJobs(ctx context.Context, endpointID string, at chat.Timestamp, limit int) ([]*WebhookJob, error) {
	rows, err := q.query(ctx, `SELECT w.id, w.mode, w.endpoint_id, w.event_seq, w.event_id, w.attempts, w.next_attempt_at,
			w.created_at, e.url, e.secret, v.type, v.object_id, v.data, v.created_at
		FROM webhook_queue w JOIN webhook_endpoints e ON e.id = w.endpoint_id JOIN events v ON v.seq = w.event_seq
		WHERE w.endpoint_id = ? AND w.next_attempt_at <= ? AND e.enabled = 1
		ORDER BY w.next_attempt_at, w.id LIMIT ?`, endpointID, at, limit)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (*WebhookJob, error) {
		j := &WebhookJob{}
		w := &j.Send
		var data string
		err := s.Scan(&w.ID, &w.Mode, &w.EndpointID, &w.EventSeq, &w.EventID, &w.Attempts, &w.NextAttemptAt,
			&w.CreatedAt, &j.URL, &j.Secret, &j.Event.Type, &j.Event.ObjectID, &data, &j.Event.CreatedAt)
		j.Event.Seq, j.Event.ID, j.Event.Mode, j.Event.Data = w.EventSeq, w.EventID, w.Mode, json.RawMessage(data)
		return j, err
	})
}

// QueuedWebhooks counts the deliveries still owed, for tests and benchmarks.
func (q *Q) QueuedWebhooks(ctx context.Context) (int, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM webhook_queue`).Scan(&n)
	return n, err
}

const attemptCols = `id, mode, endpoint_id, event_id, event_type, attempt, delivered, status_code, duration_ms, error,
	next_attempt_at, created_at`

func scanAttempt(s interface{ Scan(...any) error }) (*chat.WebhookAttempt, error) {
	a := &chat.WebhookAttempt{}
	err := s.Scan(&a.ID, &a.Mode, &a.EndpointID, &a.EventID, &a.EventType, &a.Attempt, &a.Delivered, &a.StatusCode,
		&a.DurationMS, &a.Error, &a.NextAttemptAt, &a.CreatedAt)
	return a, notFound(err)
}

// InsertWebhookAttempt logs an attempt.
func (q *Q) InsertWebhookAttempt(ctx context.Context, a *chat.WebhookAttempt) error {
	_, err := q.exec(ctx, `INSERT INTO webhook_attempts (`+attemptCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		a.ID, a.Mode, a.EndpointID, a.EventID, a.EventType, a.Attempt, a.Delivered, a.StatusCode, a.DurationMS,
		a.Error, a.NextAttemptAt, a.CreatedAt)
	return err
}

// WebhookAttempts lists an endpoint's attempts newest first, optionally
// only those for one event.
func (q *Q) WebhookAttempts(ctx context.Context, endpointID, eventID string, p Page) ([]*chat.WebhookAttempt, error) {
	conds, args := []string{"endpoint_id = ?"}, []any{endpointID}
	if eventID != "" {
		conds, args = append(conds, "event_id = ?"), append(args, eventID)
	}
	where, tail, args := keyset("created_at", true, p, conds, args)
	rows, err := q.query(ctx, `SELECT `+attemptCols+` FROM webhook_attempts`+where+tail, args...)
	return collect(rows, err, scanAttempt)
}

// OutboxByTemplate lists the outbox rows of one template, oldest first.
func (q *Q) OutboxByTemplate(ctx context.Context, template string) ([]*Mail, error) {
	rows, err := q.query(ctx, `SELECT `+mailRead+` FROM outbox WHERE template = ? ORDER BY created_at, id`, template)
	return collect(rows, err, scanMail)
}

// DeliveredEventIDs lists the events with a successful attempt to some
// endpoint, for tests and benchmarks.
func (q *Q) DeliveredEventIDs(ctx context.Context) ([]string, error) {
	rows, err := q.query(ctx, `SELECT DISTINCT event_id FROM webhook_attempts WHERE delivered = 1`)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var id string
		return id, s.Scan(&id)
	})
}
