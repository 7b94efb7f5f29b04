package webhooks

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"chatsvc/app"
	"chatsvc/outbound"
)

// maxResponseBody is how much of a receiver's answer is read: the status
// is what counts, and a receiver must not be able to make us read megabytes.
const maxResponseBody = 4 << 10

// SenderOptions configure the HTTP side of deliveries.
type SenderOptions struct {
	AllowPrivate bool          // network.allow_private
	Timeout      time.Duration // webhooks.timeout: a 2xx must arrive within it
}

// Sender posts signed payloads; it implements app.WebhookSender.
type Sender struct {
	client  *http.Client
	timeout time.Duration
}

// NewSender returns a Sender over the SSRF-guarded outbound client, which
// follows no redirects.
func NewSender(o SenderOptions) *Sender {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	c := outbound.New(outbound.Options{AllowPrivate: o.AllowPrivate, Timeout: o.Timeout, MaxRedirects: 0,
		UserAgent: "chatsvc-webhooks/1"})
	return &Sender{client: c, timeout: o.Timeout}
}

// Send posts payload to url with the signature for time at.
func (s *Sender) Send(ctx context.Context, url, secret string, payload []byte, at time.Time) app.WebhookResult {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return app.WebhookResult{Err: "the URL cannot be requested"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(secret, at, payload))
	res, err := s.client.Do(req)
	if err != nil {
		return app.WebhookResult{Duration: time.Since(start), Err: cmp.Or(outbound.Reason(err, s.timeout), "connection failed")}
	}
	// Read what the receiver sends up to the cap, so a well-behaved
	// connection can be reused; the rest is dropped with the connection.
	_, err = io.Copy(io.Discard, io.LimitReader(res.Body, maxResponseBody))
	res.Body.Close()
	out := app.WebhookResult{StatusCode: res.StatusCode, Duration: time.Since(start)}
	switch {
	case res.StatusCode >= 300 && res.StatusCode < 400:
		out.Err = "HTTP " + strconv.Itoa(res.StatusCode) + " (redirects are not followed)"
	case res.StatusCode < 200 || res.StatusCode >= 300:
		out.Err = "HTTP " + strconv.Itoa(res.StatusCode)
	case err != nil: // a 2xx whose body did not arrive in time
		out.Err = cmp.Or(outbound.Reason(err, s.timeout), "connection failed")
	}
	return out
}

func logError(what string, err error) { slog.Error(what, "err", err) }
