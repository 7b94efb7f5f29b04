package webhooks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/testenv/apienv"
	"chatsvc/web"
	"chatsvc/webhooks"
)

// t0 is when every test starts, unless it needs the real time.
var t0 = testenv.T0

// env is the service on a temp data dir with its REST API over real HTTP
// and a Deliverer sending to real receivers with the real Sender.
type env struct {
	t       *testing.T
	db      *storage.DB
	svc     *app.Service
	api     *httptest.Server
	client  *http.Client // checks every /v1 response against docs/openapi.json
	clock   *testenv.Clock
	d       *webhooks.Deliverer
	key     string // test mode
	liveKey string
	site    string
	member  string
}

// setup changes the defaults of newEnv.
type setup struct {
	start   time.Time
	hooks   func(*app.WebhookOptions)
	timeout time.Duration
	opts    webhooks.Options
}

func newEnv(t *testing.T, s setup) *env {
	t.Helper()
	if s.timeout == 0 {
		s.timeout = 5 * time.Second
	}
	// Receivers are httptest servers on loopback, over http.
	hooks := app.WebhookOptions{AllowHTTP: true, AllowPrivate: true, OwnerEmail: "owner@example.com"}
	if s.hooks != nil {
		s.hooks(&hooks)
	}
	sender := webhooks.NewSender(webhooks.SenderOptions{AllowPrivate: hooks.AllowPrivate, Timeout: s.timeout})
	hooks.Sender = sender
	a := apienv.New(t, apienv.Options{Start: s.start, Handler: web.Handler, App: func(_ string, o *app.Options) {
		o.PublicURL, o.Webhooks = "", hooks
	}})
	return &env{t: t, db: a.DB, svc: a.Svc, api: a.Server, client: a.Client, clock: a.Clock,
		d: webhooks.New(a.Svc, sender, s.opts), key: a.TestKey, liveKey: a.LiveKey, site: a.Site, member: a.Member}
}

// at moves the clock to t0 (or the env's start) plus d.
func (e *env) at(d time.Duration) { e.clock.Set(t0.Add(d)) }

// flush delivers everything due by the fake clock and waits for it.
func (e *env) flush() {
	e.t.Helper()
	if err := e.d.Flush(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// call sends a REST request with key and decodes the JSON answer.
func (e *env) call(method, path, key string, body any) (int, map[string]any) {
	e.t.Helper()
	r := testenv.Call(e.t, e.client, method, e.api.URL+path, body, "Authorization", "Bearer "+key)
	if r.Body == nil {
		e.t.Fatalf("%s %s: not JSON: %s", method, path, r.Raw)
	}
	return r.Status, r.Body
}

// ok calls in test mode and asserts the status.
func (e *env) ok(status int, method, path string, body any) map[string]any {
	e.t.Helper()
	got, out := e.call(method, path, e.key, body)
	if got != status {
		e.t.Fatalf("%s %s: status %d, want %d: %v", method, path, got, status, out)
	}
	return out
}

// fails asserts an error answer with status, code and param.
func (e *env) fails(key string, status int, code, param, method, path string, body any) {
	e.t.Helper()
	got, out := e.call(method, path, key, body)
	er, _ := out["error"].(map[string]any)
	p, _ := er["param"].(string)
	if got != status || er["code"] != code || p != param {
		e.t.Fatalf("%s %s %v: got %d %v/%v, want %d %s/%s", method, path, body, got, er["code"], er["param"], status, code, param)
	}
}

// endpoint creates an endpoint in test mode for url and events, returning
// its id and secret.
func (e *env) endpoint(url string, events ...string) (id, secret string) {
	e.t.Helper()
	out := e.ok(201, "POST", "/v1/webhook-endpoints", map[string]any{"url": url, "events": events})
	return out["id"].(string), out["secret"].(string)
}

// contact creates a contact in test mode.
func (e *env) contact(email string) string {
	e.t.Helper()
	return e.ok(201, "POST", "/v1/contacts", map[string]any{"email": email})["id"].(string)
}

// ticket creates a ticket for contact in test mode.
func (e *env) ticket(contact, subject string) string {
	e.t.Helper()
	return e.ok(201, "POST", "/v1/tickets", map[string]any{"subject": subject, "contact_id": contact})["id"].(string)
}

// queued counts deliveries still owed.
func (e *env) queued() int {
	e.t.Helper()
	n, err := e.db.Read().QueuedWebhooks(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// mails lists the outbox rows of a template as "to:data".
func (e *env) mails(template string) []*storage.Mail {
	e.t.Helper()
	rows, err := e.db.Read().OutboxByTemplate(context.Background(), template)
	if err != nil {
		e.t.Fatal(err)
	}
	return rows
}

// receiver starts a customer's endpoint whose hits carry the fake time.
func (e *env) receiver(answer func(n int, r *http.Request) int) *testenv.Receiver {
	return testenv.NewReceiver(e.t, e.clock.Now, answer)
}

// always answers every request with status.
func always(status int) func(int, *http.Request) int {
	return func(int, *http.Request) int { return status }
}

func join(s []string) string { return strings.Join(s, ",") }
