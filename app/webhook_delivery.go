package app

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// fanoutKey is the setting holding the seq of the last event fanned out.
const fanoutKey = "webhooks.fanout_seq"

// FanOutWebhooks queues deliveries for up to limit events not yet fanned
// out, in the order they were written: each goes to every enabled endpoint
// of its mode that existed when it was written and subscribes to its type
// or "*" (changes to endpoints fan out what came before them first, so this
// is the subscription at the event's time). The queue rows and the new position are written in one
// transaction, so a crash repeats or loses nothing. more reports that
// events remain; queued counts the deliveries added. While no endpoint is
// enabled it does not touch the database, for a second at a time or until
// an endpoint is written (webhooksIdle).
func (s *Service) FanOutWebhooks(ctx context.Context, limit int) (more bool, queued int, err error) {
	now := s.now()
	if s.hooksIdle.skip(now) {
		return false, 0, nil // no endpoint enabled, a moment ago
	}
	writes := s.hooksIdle.seen()
	// The worker runs after every commit: most times there is nothing new,
	// and finding that out on a reader keeps the writer free.
	if after, err := fanoutPosition(ctx, s.db.Read()); err != nil {
		return false, 0, err
	} else if last, err := s.db.Read().LastEventSeq(ctx); err != nil || last <= after {
		return false, 0, err
	}
	w, err := storage.Write(ctx, s.db, func(q *storage.Q) (fanned, error) { return s.fanOut(ctx, q, limit) })
	if err == nil && w.Result.none {
		s.hooksIdle.none(writes, now)
	}
	return w.Result.more, w.Result.queued, err
}

// fanned is what one fan-out step did.
type fanned struct {
	more   bool // events remain
	none   bool // no endpoint is enabled
	queued int  // deliveries queued
}

// fanOut queues deliveries for up to limit events after the fan-out
// position, in the caller's write transaction, and moves the position.
// With no endpoint enabled, every event so far goes to no one: the
// position moves to the last event at once, whatever their number.
func (s *Service) fanOut(ctx context.Context, q *storage.Q, limit int) (fanned, error) {
	endpoints, err := q.EnabledWebhookEndpoints(ctx)
	if err != nil {
		return fanned{}, err
	}
	if len(endpoints) == 0 {
		last, err := q.LastEventSeq(ctx)
		if err != nil {
			return fanned{}, err
		}
		return fanned{none: true}, q.SetSetting(ctx, fanoutKey, strconv.FormatInt(last, 10))
	}
	after, err := fanoutPosition(ctx, q)
	if err != nil {
		return fanned{}, err
	}
	events, err := q.EventsAfter(ctx, after, limit)
	if err != nil || len(events) == 0 {
		return fanned{}, err
	}
	now := s.stamp()
	queued := 0
	for _, ev := range events {
		for _, e := range endpoints {
			if e.Mode != ev.Mode || ev.Seq <= e.AfterSeq || !subscribed(e, ev.Type) {
				continue
			}
			if err := q.QueueWebhook(ctx, ev.Mode, e.ID, ev, now); err != nil {
				return fanned{}, err
			}
			queued++
		}
	}
	err = q.SetSetting(ctx, fanoutKey, strconv.FormatInt(events[len(events)-1].Seq, 10))
	return fanned{more: len(events) == limit, queued: queued}, err
}

// fanOutAll fans out every event written so far, in the caller's write
// transaction. A change to which events an endpoint gets calls it first, so
// each event goes where the subscriptions pointed when it was written, even
// when the fan-out worker lags.
func (s *Service) fanOutAll(ctx context.Context, q *storage.Q) error {
	for {
		f, err := s.fanOut(ctx, q, 1000)
		if err != nil || !f.more {
			return err
		}
	}
}

// fanoutPosition is the seq of the last event fanned out (0: none yet).
func fanoutPosition(ctx context.Context, q *storage.Q) (int64, error) {
	return seqSetting(ctx, q, fanoutKey)
}

// seqSetting reads an event position kept in the settings (0: none yet).
func seqSetting(ctx context.Context, q *storage.Q, key string) (int64, error) {
	v, err := q.Setting(ctx, key)
	if isNotFound(err) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	return strconv.ParseInt(v, 10, 64)
}

func subscribed(e *chat.WebhookEndpoint, typ string) bool {
	return slices.Contains(e.Events, eventAll) || slices.Contains(e.Events, typ)
}

// DueWebhookEndpoints lists the enabled endpoints with a delivery due now.
func (s *Service) DueWebhookEndpoints(ctx context.Context) ([]string, error) {
	return s.db.Read().DueWebhookEndpoints(ctx, s.stamp())
}

// WebhookJob is a due delivery, ready to send: Payload is the exact body.
type WebhookJob struct {
	Send    storage.WebhookSend
	Type    string
	URL     string
	Secret  string
	Payload []byte
}

// DueWebhookJobs returns up to limit deliveries of one endpoint due now,
// the longest due first.
func (s *Service) DueWebhookJobs(ctx context.Context, endpointID string, limit int) ([]*WebhookJob, error) {
	rows, err := s.db.Read().DueWebhookJobs(ctx, endpointID, s.stamp(), limit)
	if err != nil {
		return nil, err
	}
	out := make([]*WebhookJob, len(rows))
	for i, r := range rows {
		payload, err := s.DeliveryPayload(ctx, &r.Event)
		if err != nil {
			return nil, err
		}
		out[i] = &WebhookJob{Send: r.Send, Type: r.Event.Type, URL: r.URL, Secret: r.Secret, Payload: payload}
	}
	return out, nil
}

// RecordWebhookAttempt logs an attempt made at `at` and applies the retry
// rules. A 2xx ends the delivery and clears the endpoint's failures. A
// failure schedules the next attempt after webhooks.retry_delays (the last
// repeating), with one final attempt at the end of the retry window
// (webhooks.give_up_after from the delivery's start), after which the
// delivery is given up. An endpoint whose attempts have all failed for
// give_up_after is disabled and owner_email gets an e-mail.
func (s *Service) RecordWebhookAttempt(ctx context.Context, job *WebhookJob, at time.Time, res WebhookResult) error {
	w, err := storage.Write(ctx, s.db, func(q *storage.Q) (disabled bool, err error) {
		send, err := q.WebhookSendByID(ctx, job.Send.ID)
		if isNotFound(err) {
			// Resent meanwhile (a new row owes the event again) or the
			// endpoint deleted: only the attempt is logged, if it can be.
			if _, err := q.WebhookEndpoint(ctx, job.Send.Mode, job.Send.EndpointID); err != nil {
				return false, orGone(err)
			}
			ev := &chat.Event{ID: job.Send.EventID, Mode: job.Send.Mode, Type: job.Type}
			return false, q.InsertWebhookAttempt(ctx, attemptOf(job.Send.EndpointID, ev, job.Send.Attempts+1, at, res))
		} else if err != nil {
			return false, err
		}
		e, err := q.WebhookEndpoint(ctx, send.Mode, send.EndpointID)
		if err != nil {
			return false, err
		}
		ev := &chat.Event{ID: send.EventID, Mode: send.Mode, Type: job.Type}
		attempt := attemptOf(e.ID, ev, send.Attempts+1, at, res)
		if attempt.Delivered {
			if err := q.DequeueWebhook(ctx, send.ID); err != nil {
				return false, err
			}
			if e.FailingSince != nil {
				e.FailingSince = nil
				if err := q.UpdateWebhookEndpoint(ctx, e); err != nil {
					return false, err
				}
			}
			return false, q.InsertWebhookAttempt(ctx, attempt)
		}
		if next, ok := webhookRetry(s.hooks).Next(send.Attempts+1, send.CreatedAt.Time(), at); ok {
			ts := chat.At(next)
			attempt.NextAttemptAt = &ts
			err = q.RescheduleWebhook(ctx, send.ID, send.Attempts+1, ts)
		} else {
			err = q.DequeueWebhook(ctx, send.ID) // given up
		}
		if err != nil {
			return false, err
		}
		if err := q.InsertWebhookAttempt(ctx, attempt); err != nil {
			return false, err
		}
		stamp := chat.At(at)
		if e.FailingSince == nil {
			e.FailingSince = &stamp
		} else if e.Enabled && at.Sub(e.FailingSince.Time()) >= s.hooks.GiveUpAfter {
			return true, s.disableEndpoint(ctx, q, e, *attempt.Error, stamp)
		} else {
			return false, nil
		}
		return false, q.UpdateWebhookEndpoint(ctx, e)
	})
	if err == nil && w.Result {
		s.wake(storage.QueueMail) // the owner is owed an e-mail
	}
	return err
}

// MailWebhookEndpointDisabled is the template of the e-mail telling the
// owner an endpoint was disabled.
const MailWebhookEndpointDisabled = "webhook_endpoint_disabled"

func (s *Service) disableEndpoint(ctx context.Context, q *storage.Q, e *chat.WebhookEndpoint, reason string, now chat.Timestamp) error {
	if err := s.fanOutAll(ctx, q); err != nil { // what came before the disabling is still owed
		return err
	}
	e.Enabled, e.DisabledReason, e.UpdatedAt = false, &reason, now
	if err := q.UpdateWebhookEndpoint(ctx, e); err != nil {
		return err
	}
	if s.hooks.OwnerEmail == "" {
		return nil
	}
	data, err := json.Marshal(map[string]any{"endpoint": e, "reason": reason})
	if err != nil {
		return err
	}
	return q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: e.Mode, Template: MailWebhookEndpointDisabled,
		ToEmail: s.hooks.OwnerEmail, Data: data, NextAttemptAt: now, CreatedAt: now})
}

// attemptOf makes the log row of an attempt to deliver ev to an endpoint.
func attemptOf(endpointID string, ev *chat.Event, n int, at time.Time, res WebhookResult) *chat.WebhookAttempt {
	a := &chat.WebhookAttempt{ID: NewID(PrefixWebhookAttempt), Mode: ev.Mode,
		EndpointID: endpointID, EventID: ev.ID, EventType: ev.Type, Attempt: n, Delivered: res.Delivered(),
		DurationMS: res.Duration.Milliseconds(), CreatedAt: chat.At(at)}
	if res.StatusCode != 0 {
		code := res.StatusCode
		a.StatusCode = &code
	}
	if !a.Delivered {
		msg := res.Err
		if msg == "" {
			msg = "HTTP " + strconv.Itoa(res.StatusCode)
		}
		a.Error = &msg
	}
	return a
}
