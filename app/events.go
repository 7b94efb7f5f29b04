package app

import (
	"context"
	"encoding/json"
	"slices"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Event is the API's event object: the webhook payload, and what GET
// /events returns.
type Event struct {
	ID        string         `json:"id"`
	Object    string         `json:"object"`
	Type      string         `json:"type"`
	CreatedAt chat.Timestamp `json:"created_at"`
	Livemode  bool           `json:"livemode"`
	Data      EventData      `json:"data"`
}

// EventData holds the object as the API returned it when the event happened.
type EventData struct {
	Object json.RawMessage `json:"object"`
}

func eventOf(e *chat.Event) *Event {
	return &Event{ID: e.ID, Object: "event", Type: e.Type, CreatedAt: e.CreatedAt, Livemode: e.Mode == chat.Live,
		Data: EventData{Object: e.Data}}
}

// EventPayload is the exact body posted to receivers for e.
func EventPayload(e *chat.Event) ([]byte, error) { return marshal(eventOf(e)) }

// EventQuery is the filter of GET /events, as received.
type EventQuery struct {
	Type string
	ListParams
}

// Events lists a mode's events newest first.
func (s *Service) Events(ctx context.Context, mode chat.Mode, in EventQuery) (List[*Event], error) {
	pg, err := in.page()
	if err != nil {
		return List[*Event]{}, err
	}
	if in.Type != "" && !slices.Contains(WebhookEventTypes, in.Type) {
		return List[*Event]{}, oneOf("type", in.Type, WebhookEventTypes...)
	}
	rows, err := s.db.Read().Events(ctx, storage.EventFilter{Mode: mode, Type: in.Type, Page: pg})
	if err != nil {
		return List[*Event]{}, err
	}
	out := make([]*Event, len(rows))
	for i, r := range rows {
		out[i] = eventOf(r)
	}
	seqs := make(map[string]int64, len(rows))
	for _, r := range rows {
		seqs[r.ID] = r.Seq
	}
	return makeList(out, pg, func(e *Event) chat.Cursor { return chat.Cursor{Key: seqs[e.ID], ID: e.ID} }), nil
}

// Event returns one event of mode.
func (s *Service) Event(ctx context.Context, mode chat.Mode, id string) (*Event, error) {
	e, err := s.db.Read().Event(ctx, mode, id)
	if err != nil {
		return nil, found(err, noSuch("event", id))
	}
	return eventOf(e), nil
}

// Resend is the result of POST /events/{id}/resend.
type Resend struct {
	Object             string   `json:"object"`
	EventID            string   `json:"event_id"`
	WebhookEndpointIDs []string `json:"webhook_endpoint_ids"`
}

// ResendEvent queues an event again, due at once with a fresh retry window:
// to one endpoint (which must be enabled; its subscription is not checked,
// as the caller names it) or to every enabled endpoint of the mode that now
// subscribes to the event's type. A delivery still queued for an endpoint is
// made due at once rather than doubled.
func (s *Service) ResendEvent(ctx context.Context, mode chat.Mode, id string, endpointID Field[string]) (*Resend, error) {
	if err := s.WebhookFeature(); err != nil {
		return nil, err
	}
	return writeNamed(ctx, s, "resend event "+id, func(q *storage.Q) (*Resend, error) {
		out := &Resend{Object: "event_resend", EventID: id, WebhookEndpointIDs: []string{}}
		ev, err := q.Event(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("event", id))
		}
		var targets []*chat.WebhookEndpoint
		if endpointID.has() {
			e, err := q.WebhookEndpoint(ctx, mode, endpointID.V)
			if err != nil {
				return nil, found(err, noSuchRef("webhook_endpoint_id", "webhook endpoint", endpointID.V))
			}
			if !e.Enabled {
				return nil, invalid("webhook_endpoint_id", "Webhook endpoint %s is disabled; enable it first.", e.ID)
			}
			targets = append(targets, e)
		} else {
			all, err := q.EnabledWebhookEndpoints(ctx)
			if err != nil {
				return nil, err
			}
			for _, e := range all {
				if e.Mode == mode && subscribed(e, ev.Type) {
					targets = append(targets, e)
				}
			}
		}
		now := s.stamp()
		for _, e := range targets {
			if err := q.QueueWebhook(ctx, mode, e.ID, ev, now); err != nil {
				return nil, err
			}
			out.WebhookEndpointIDs = append(out.WebhookEndpointIDs, e.ID)
		}
		return out, nil
	})
}

// WebhookAttemptQuery is the filter of GET /webhook-endpoints/{id}/deliveries.
type WebhookAttemptQuery struct {
	EventID string
	ListParams
}

// WebhookAttempts lists an endpoint's delivery attempts newest first.
func (s *Service) WebhookAttempts(ctx context.Context, mode chat.Mode, endpointID string, in WebhookAttemptQuery) (List[*chat.WebhookAttempt], error) {
	if err := s.WebhookFeature(); err != nil {
		return List[*chat.WebhookAttempt]{}, err
	}
	pg, err := in.page()
	if err != nil {
		return List[*chat.WebhookAttempt]{}, err
	}
	q := s.db.Read()
	if _, err := q.WebhookEndpoint(ctx, mode, endpointID); err != nil {
		return List[*chat.WebhookAttempt]{}, found(err, noSuch("webhook endpoint", endpointID))
	}
	rows, err := q.WebhookAttempts(ctx, endpointID, in.EventID, pg)
	if err != nil {
		return List[*chat.WebhookAttempt]{}, err
	}
	return makeList(rows, pg, func(a *chat.WebhookAttempt) chat.Cursor {
		return chat.Cursor{Key: int64(a.CreatedAt), ID: a.ID}
	}), nil
}
