package app

import (
	"context"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/outbound"
	"chatsvc/storage"
)

// WebhookOptions are the webhooks.* settings (and owner_email); zero values
// take the defaults of config.example.yaml.
type WebhookOptions struct {
	Disabled     bool            // webhooks.enabled: false (a plan without webhooks)
	AllowHTTP    bool            // webhooks.allow_http
	AllowPrivate bool            // network.allow_private: endpoint URLs may name private addresses
	RetryDelays  []time.Duration // waits between attempts; the last repeats
	GiveUpAfter  time.Duration   // retry window of a delivery, and how long an endpoint may fail
	OwnerEmail   string          // told when an endpoint is disabled; "" tells nobody
	Sender       WebhookSender   // posts test pings; nil: the test endpoint reports a failure
}

func (o WebhookOptions) withDefaults() WebhookOptions {
	if len(o.RetryDelays) == 0 {
		o.RetryDelays = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}
	}
	if o.GiveUpAfter <= 0 {
		o.GiveUpAfter = 72 * time.Hour
	}
	return o
}

// WebhookSender posts one signed payload to a receiver. Package webhooks
// implements it over HTTP; the service stays free of network code.
type WebhookSender interface {
	// Send posts payload to url, signed with secret at time at.
	Send(ctx context.Context, url, secret string, payload []byte, at time.Time) WebhookResult
}

// WebhookResult is the outcome of one attempt.
type WebhookResult struct {
	StatusCode int           // the receiver's HTTP status; 0 when no response arrived
	Duration   time.Duration // from sending to the end of the response (or failure)
	Err        string        // why it failed, for the attempt log; "" for a 2xx
}

// Delivered reports a 2xx answer.
func (r WebhookResult) Delivered() bool {
	return r.Err == "" && r.StatusCode >= 200 && r.StatusCode < 300
}

// Webhook limits and prefixes.
const (
	PrefixWebhookEndpoint = "whe_"
	PrefixWebhookAttempt  = "whd_"
	WebhookSecretPrefix   = "whsec_"
	MaxWebhookURL         = 2048
	MaxWebhookDescription = 500
	eventAll              = "*"
)

// WebhookEventTypes are the event types an endpoint may subscribe to.
var WebhookEventTypes = chat.EventTypes

// WebhookFeature refuses every webhook operation on a plan without webhooks.
func (s *Service) WebhookFeature() error {
	if s.hooks.Disabled {
		return &Error{Kind: Forbidden, Code: CodeFeatureUnavailable,
			Message: "Webhooks are not available on this plan (webhooks.enabled is false)."}
	}
	return nil
}

// WebhookEndpointInput is the body of POST and PATCH /webhook-endpoints.
type WebhookEndpointInput struct {
	URL         Field[string]
	Events      Field[[]string]
	Enabled     Field[bool] // PATCH only
	Description Field[string]
}

// CreatedWebhookEndpoint is the creation response: the endpoint and, this
// once, its signing secret.
type CreatedWebhookEndpoint struct {
	*chat.WebhookEndpoint
	Secret string `json:"secret"`
}

func (s *Service) checkWebhookURL(v string) error {
	if err := checkLen("url", v, MaxWebhookURL, true); err != nil {
		return err
	}
	u, err := url.Parse(v)
	want := "an HTTPS URL"
	if s.hooks.AllowHTTP {
		want = "an HTTP or HTTPS URL"
	}
	if err != nil || u.Host == "" || u.Hostname() == "" || u.User != nil || u.Fragment != "" ||
		(u.Scheme != "https" && !(s.hooks.AllowHTTP && u.Scheme == "http")) {
		return invalid("url", "url must be %s with a host, without credentials or fragment (got '%s').", want, v)
	}
	// Names are checked when connecting; an address literal can be refused now.
	if ip, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil && !s.hooks.AllowPrivate && !outbound.Public(ip) {
		return invalid("url", "url must point to a public address (got '%s').", v)
	}
	return nil
}

// checkEvents validates an events list and returns it without duplicates.
func checkEvents(v []string) ([]string, error) {
	if len(v) == 0 {
		return nil, invalid("events", "events must list at least one event type, or be [\"*\"] for all.")
	}
	out := make([]string, 0, len(v))
	for i, t := range v {
		if t == eventAll && len(v) > 1 {
			return nil, invalid("events."+strconv.Itoa(i), "\"*\" already means every event type; send it alone.")
		}
		if t != eventAll && !slices.Contains(WebhookEventTypes, t) {
			return nil, invalid("events."+strconv.Itoa(i), "events.%d must be an event type (%s) or \"*\" (got '%s').",
				i, strings.Join(WebhookEventTypes, ", "), t)
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// CreateWebhookEndpoint registers a URL for events of mode. The endpoint
// receives events written from now on; its secret is returned this once.
func (s *Service) CreateWebhookEndpoint(ctx context.Context, mode chat.Mode, in WebhookEndpointInput) (*CreatedWebhookEndpoint, error) {
	if err := s.WebhookFeature(); err != nil {
		return nil, err
	}
	if !in.URL.has() {
		return nil, missing("url")
	}
	if err := s.checkWebhookURL(in.URL.V); err != nil {
		return nil, err
	}
	if !in.Events.has() {
		return nil, missing("events")
	}
	events, err := checkEvents(in.Events.V)
	if err != nil {
		return nil, err
	}
	if err := checkLen("description", in.Description.V, MaxWebhookDescription, false); err != nil {
		return nil, err
	}
	if in.Enabled.Set {
		return nil, Unknown("enabled") // endpoints start enabled; only PATCH sets it
	}
	defer s.hooksIdle.written() // the fan-out looks for endpoints again
	return writeNamed(ctx, s, "create webhook endpoint", func(q *storage.Q) (*CreatedWebhookEndpoint, error) {
		var out *CreatedWebhookEndpoint
		now := s.stamp()
		after, err := q.LastEventSeq(ctx)
		if err != nil {
			return nil, err
		}
		e := &chat.WebhookEndpoint{ID: NewID(PrefixWebhookEndpoint), Mode: mode,
			URL: in.URL.V, Events: events, Enabled: true, Description: in.Description.ptr(),
			Secret: WebhookSecretPrefix + RandomToken(32), AfterSeq: after, CreatedAt: now, UpdatedAt: now}
		out = &CreatedWebhookEndpoint{WebhookEndpoint: e, Secret: e.Secret}
		return out, q.InsertWebhookEndpoint(ctx, e)
	})
}

// WebhookEndpoint returns an endpoint (without its secret).
func (s *Service) WebhookEndpoint(ctx context.Context, mode chat.Mode, id string) (*chat.WebhookEndpoint, error) {
	if err := s.WebhookFeature(); err != nil {
		return nil, err
	}
	e, err := s.db.Read().WebhookEndpoint(ctx, mode, id)
	return e, found(err, noSuch("webhook endpoint", id))
}

// WebhookEndpoints lists a mode's endpoints newest first.
func (s *Service) WebhookEndpoints(ctx context.Context, mode chat.Mode, in ListParams) (List[*chat.WebhookEndpoint], error) {
	if err := s.WebhookFeature(); err != nil {
		return List[*chat.WebhookEndpoint]{}, err
	}
	pg, err := in.page()
	if err != nil {
		return List[*chat.WebhookEndpoint]{}, err
	}
	rows, err := s.db.Read().WebhookEndpoints(ctx, mode, pg)
	if err != nil {
		return List[*chat.WebhookEndpoint]{}, err
	}
	return makeList(rows, pg, func(e *chat.WebhookEndpoint) chat.Cursor {
		return chat.Cursor{Key: int64(e.CreatedAt), ID: e.ID}
	}), nil
}

// UpdateWebhookEndpoint changes an endpoint. Re-enabling one forgets its
// failures and makes its queued deliveries due at once; disabling one keeps
// them queued, unsent, until it is enabled again.
func (s *Service) UpdateWebhookEndpoint(ctx context.Context, mode chat.Mode, id string, in WebhookEndpointInput) (*chat.WebhookEndpoint, error) {
	if err := s.WebhookFeature(); err != nil {
		return nil, err
	}
	if in.URL.Set {
		if err := s.checkWebhookURL(in.URL.V); err != nil {
			return nil, err
		}
	}
	var events []string
	if in.Events.Set {
		var err error
		if events, err = checkEvents(in.Events.V); err != nil {
			return nil, err
		}
	}
	if err := checkLen("description", in.Description.V, MaxWebhookDescription, false); err != nil {
		return nil, err
	}
	defer s.hooksIdle.written() // the fan-out looks for endpoints again
	return writeNamed(ctx, s, "update webhook endpoint "+id, func(q *storage.Q) (*chat.WebhookEndpoint, error) {
		e, err := q.WebhookEndpoint(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("webhook endpoint", id))
		}
		if in.Events.Set || in.Enabled.Set {
			if err := s.fanOutAll(ctx, q); err != nil {
				return nil, err
			}
		}
		now := s.stamp()
		if in.URL.Set {
			e.URL = in.URL.V
		}
		if in.Events.Set {
			e.Events = events
		}
		if in.Description.Set {
			e.Description = in.Description.ptr()
		}
		if in.Enabled.Set && in.Enabled.V != e.Enabled {
			e.Enabled = in.Enabled.V
			if e.Enabled {
				e.FailingSince, e.DisabledReason = nil, nil
				if err := q.ResumeWebhooks(ctx, e.ID, now); err != nil {
					return nil, err
				}
			}
		}
		e.UpdatedAt = now
		return e, q.UpdateWebhookEndpoint(ctx, e)
	})
}

// DeleteWebhookEndpoint removes an endpoint; deliveries still queued for it
// are dropped, so nothing more is sent to its URL.
func (s *Service) DeleteWebhookEndpoint(ctx context.Context, mode chat.Mode, id string) (*Deleted, error) {
	if err := s.WebhookFeature(); err != nil {
		return nil, err
	}
	err := s.write(ctx, func(q *storage.Q) error {
		return found(q.DeleteWebhookEndpoint(ctx, mode, id), noSuch("webhook endpoint", id))
	})
	if err != nil {
		return nil, err
	}
	return &Deleted{ID: id, Object: "webhook_endpoint", Deleted: true}, nil
}

// WebhookTest is the result of POST /webhook-endpoints/{id}/test.
type WebhookTest struct {
	Delivered  bool    `json:"delivered"`
	StatusCode int     `json:"status_code"` // 0 when no response arrived
	DurationMS int64   `json:"duration_ms"`
	Error      *string `json:"error"`
}

// TestWebhookEndpoint sends a ping event to an enabled endpoint, waits for
// the answer and logs the attempt; a disabled endpoint receives nothing,
// not even a ping. The ping's data.object is the endpoint itself; pings
// are not stored as events.
func (s *Service) TestWebhookEndpoint(ctx context.Context, mode chat.Mode, id string) (*WebhookTest, error) {
	if err := s.WebhookFeature(); err != nil {
		return nil, err
	}
	e, err := s.db.Read().WebhookEndpoint(ctx, mode, id)
	if err != nil {
		return nil, found(err, noSuch("webhook endpoint", id))
	}
	if !e.Enabled {
		why := "The endpoint is disabled, and disabled endpoints receive nothing: enable it to send a test."
		return &WebhookTest{Error: &why}, nil
	}
	data, err := marshal(e)
	if err != nil {
		return nil, err
	}
	at := s.now()
	ev := &chat.Event{ID: NewID(PrefixEvent), Mode: mode, Type: chat.EventPing, ObjectID: e.ID, Data: data,
		CreatedAt: chat.At(at)}
	payload, err := EventPayload(ev)
	if err != nil {
		return nil, err
	}
	res := WebhookResult{Err: "no webhook sender is configured"}
	if s.hooks.Sender != nil {
		res = s.hooks.Sender.Send(ctx, e.URL, e.Secret, payload, at)
	}
	a := attemptOf(e.ID, ev, 1, at, res)
	err = s.db.Write(ctx, func(q *storage.Q) error { return q.InsertWebhookAttempt(ctx, a) })
	if err != nil {
		return nil, err
	}
	return &WebhookTest{Delivered: a.Delivered, StatusCode: res.StatusCode, DurationMS: a.DurationMS, Error: a.Error}, nil
}
