// Package push sends the dashboard's Web Push notifications. Package app
// queues them in the same write as the event they tell about; the worker
// here encrypts each for its subscription (RFC 8291), signs the request
// with the server's VAPID key (RFC 8292), posts it to the browser's push
// service through the guarded outbound client, and tells the service how
// it went. No relay stands between the server and the push service.
package push

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"chatsvc/app"
	"chatsvc/outbound"
	"chatsvc/storage"
)

// Options configure the sender.
type Options struct {
	// Subscriber is the contact the push services may reach the operator
	// at: an https URL or an e-mail address.
	Subscriber   string
	AllowPrivate bool          // network.allow_private: development only
	Timeout      time.Duration // one request; 0: 10s
}

// Sender drains the queue of pushes.
type Sender struct {
	svc    *app.Service
	o      Options
	client *http.Client
}

// New returns a sender for the service's queue.
func New(svc *app.Service, o Options) *Sender {
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	return &Sender{svc: svc, o: o, client: outbound.New(outbound.Options{AllowPrivate: o.AllowPrivate, Timeout: o.Timeout})}
}

// ttl is how long a push service keeps a push for a browser that is off:
// an alert a day old is no longer worth showing.
const ttl = 24 * 60 * 60

const batchSize = 20

// Worker sends due pushes, woken by every write that queues one and every
// ten seconds for retries.
func (s *Sender) Worker() app.Worker {
	return app.Worker{Name: "push", Every: 10 * time.Second, Wake: s.svc.Wakeup(storage.QueuePushes), Step: s.Step}
}

// Step sends one batch of due pushes; more reports a full batch.
func (s *Sender) Step(ctx context.Context) (more bool, err error) {
	due, err := s.svc.DuePushes(ctx, batchSize)
	if err != nil || len(due) == 0 {
		return false, err
	}
	keys, err := s.svc.EnsureVAPIDKeys(ctx)
	if err != nil {
		return false, err
	}
	for _, p := range due {
		outcome := s.send(ctx, keys, p)
		if err := s.svc.RecordPushAttempt(ctx, p, s.svc.Now(), outcome); err != nil {
			return false, err
		}
	}
	return len(due) == batchSize, nil
}

// send posts one push and classifies the answer.
func (s *Sender) send(ctx context.Context, keys app.VAPIDKeys, p *storage.Push) app.PushOutcome {
	sub := &webpush.Subscription{Endpoint: p.Subscription.Endpoint,
		Keys: webpush.Keys{P256dh: p.Subscription.P256DH, Auth: p.Subscription.Auth}}
	resp, err := webpush.SendNotificationWithContext(ctx, []byte(p.Payload), sub, &webpush.Options{
		HTTPClient: s.client, Subscriber: s.o.Subscriber, TTL: ttl, Urgency: webpush.UrgencyHigh,
		VAPIDPublicKey: keys.Public, VAPIDPrivateKey: keys.Private})
	if err != nil {
		slog.Warn("push not sent", "push", p.ID, "err", err)
		return app.PushFailed
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return outcomeOf(resp.StatusCode)
}

// outcomeOf reads a push service's status: 2xx taken; 404 and 410 the
// subscription is gone; 429 and 5xx try later; any other 4xx never works.
func outcomeOf(status int) app.PushOutcome {
	switch {
	case status >= 200 && status < 300:
		return app.PushDelivered
	case status == http.StatusNotFound || status == http.StatusGone:
		return app.PushGone
	case status == http.StatusTooManyRequests || status >= 500:
		return app.PushFailed
	}
	slog.Warn("push refused", "status", status)
	return app.PushRefused
}
