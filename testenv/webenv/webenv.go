// Package webenv is the test harness of the web package's tests and of the
// browser tests: the service behind real HTTP on a database that replays
// every write batch (New), or with the assistant and its worker running
// (NewWidget), and the calls those tests make with it: API requests with
// either key, widget requests with a visitor token, visitor event streams.
//
// It lives apart from testenv because it imports web and app, whose own
// tests use testenv.
package webenv

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/testenv/apienv"
	"chatsvc/web"
)

// PublicURL is the public root the test services sign file URLs with.
const PublicURL = apienv.PublicURL

// DashPassword is the password the tests give the first member.
const DashPassword = "correct horse battery"

// Env is a running service on a temp data dir, reached over real HTTP.
type Env struct {
	T       *testing.T
	DB      *storage.DB
	Svc     *app.Service
	Server  *httptest.Server
	Clock   *testenv.Clock
	TestKey string // csk_test_…
	LiveKey string // csk_live_…
	Site    string // site id
	Member  string // team member id
	Member2 string
	API     *apienv.Env
}

// SearchIndexed waits until search finds everything written so far.
func (e *Env) SearchIndexed() {
	e.T.Helper()
	e.API.Search.Indexed(e.T)
}

// New starts a service whose attachments come through the SSRF guard
// (private addresses refused); opts may change its options.
func New(t *testing.T, opts ...func(*app.Options)) *Env {
	t.Helper()
	a := apienv.New(t, apienv.Options{Step: time.Millisecond, Handler: web.Handler, App: func(dir string, o *app.Options) {
		// Sign-in bursts wait for a password check however slow the machine
		// (the race detector makes bcrypt many times slower): what they test
		// is the counting, and the wait has a test of its own in app.
		o.PasswordCheckWait = time.Minute
		o.Files = files.New(files.Options{Dir: filepath.Join(dir, "files"), MaxBytes: 25 << 20, Timeout: 10 * time.Second})
		for _, f := range opts {
			f(o)
		}
	}})
	return &Env{T: t, DB: a.DB, Svc: a.Svc, Server: a.Server, Clock: a.Clock, TestKey: a.TestKey, LiveKey: a.LiveKey,
		Site: a.Site, Member: a.Member, Member2: a.Member2, API: a}
}

// Resp is a decoded HTTP response.
type Resp struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

// ToResp is the Resp of testenv's response.
func ToResp(r testenv.Response) Resp {
	return Resp{Status: r.Status, Header: r.Header, Body: r.Body, Raw: r.Raw}
}

func (r Resp) shared() testenv.Response {
	return testenv.Response{Status: r.Status, Header: r.Header, Body: r.Body, Raw: r.Raw}
}

// Do sends a request with the given key; body may be nil, a string (sent
// as is) or a value encoded as JSON.
func (e *Env) Do(method, path, key string, body any) Resp {
	e.T.Helper()
	var auth []string
	if key != "" {
		auth = []string{"Authorization", "Bearer " + key}
	}
	return ToResp(testenv.Call(e.T, e.Server.Client(), method, e.Server.URL+path, body, auth...))
}

// Send sends a prepared request and decodes the response.
func (e *Env) Send(req *http.Request) Resp {
	e.T.Helper()
	return ToResp(testenv.Send(e.T, e.Server.Client(), req))
}

// Test and live send a request with the Test-mode or live-mode key.
func (e *Env) Test(method, path string, body any) Resp {
	e.T.Helper()
	return e.Do(method, path, e.TestKey, body)
}
func (e *Env) Live(method, path string, body any) Resp {
	e.T.Helper()
	return e.Do(method, path, e.LiveKey, body)
}

// OK asserts the status and returns the body.
func (r Resp) OK(t *testing.T, status int) map[string]any {
	t.Helper()
	return r.shared().OK(t, status)
}

// Fails asserts an error response of the API's shape (docs/api.md, Errors)
// with the given status, code and param ("" for a null param), and that
// Request-Id matches.
func (r Resp) Fails(t *testing.T, status int, code, param string) {
	t.Helper()
	r.shared().Fails(t, status, code, param)
}

// Conversation opens a Conversation as a visitor would, in the given mode.
func (e *Env) Conversation(mode chat.Mode, firstMessage string) string {
	e.T.Helper()
	c, _, err := e.Svc.StartConversation(context.Background(), mode, app.VisitorStart{
		SiteID: e.Site, VisitorID: "vis_test", PageURL: "https://example.com/pricing", Body: firstMessage})
	if err != nil {
		e.T.Fatal(err)
	}
	return c.ID
}

// Contact creates a Contact through the API in test mode and returns its id.
func (e *Env) Contact(email string) string {
	e.T.Helper()
	return e.Test("POST", "/v1/contacts", map[string]any{"email": email}).OK(e.T, 201)["id"].(string)
}

// Events returns the types of the Events recorded about an object, in order.
func (e *Env) Events(objectID string) []string {
	e.T.Helper()
	evs, err := e.DB.Read().EventsOf(context.Background(), objectID)
	if err != nil {
		e.T.Fatal(err)
	}
	types := make([]string, len(evs))
	for i, ev := range evs {
		types[i] = string(ev.Mode) + ":" + ev.Type
	}
	return types
}

// EventData returns the data.object of the newest event of a type about an object.
func (e *Env) EventData(objectID, typ string) map[string]any {
	e.T.Helper()
	evs, err := e.DB.Read().EventsOf(context.Background(), objectID)
	if err != nil {
		e.T.Fatal(err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == typ {
			var m map[string]any
			if err := json.Unmarshal(evs[i].Data, &m); err != nil {
				e.T.Fatal(err)
			}
			return m
		}
	}
	e.T.Fatalf("no %s event for %s", typ, objectID)
	return nil
}

// Mails returns the templates of the e-Mails queued about a ticket, in order.
func (e *Env) Mails(ticketID string) []string {
	e.T.Helper()
	ms, err := e.DB.Read().MailsOfTicket(context.Background(), ticketID)
	if err != nil {
		e.T.Fatal(err)
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Template + ":" + m.ToEmail
	}
	return out
}

// All walks every page of a list with the given page size and returns the ids.
func (e *Env) All(key, path string, limit int) []string {
	e.T.Helper()
	return testenv.Walk(e.T, func(p string) map[string]any { return e.Do("GET", p, key, nil).OK(e.T, 200) }, path, limit, nil)
}
