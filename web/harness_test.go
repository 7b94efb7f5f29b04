package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
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

// publicURL is the public root the test services sign file URLs with.
const publicURL = apienv.PublicURL

// env is a running service on a temp data dir, reached over real HTTP.
type env struct {
	t       *testing.T
	db      *storage.DB
	svc     *app.Service
	srv     *httptest.Server
	clock   *testenv.Clock
	testKey string // csk_test_…
	liveKey string // csk_live_…
	site    string // site id
	member  string // team member id
	member2 string
	api     *apienv.Env
}

// searchIndexed waits until search finds everything written so far.
func (e *env) searchIndexed() {
	e.t.Helper()
	e.api.Search.Indexed(e.t)
}

// newEnv starts a service whose attachments come through the SSRF guard
// (private addresses refused); opts may change its options.
func newEnv(t *testing.T, opts ...func(*app.Options)) *env {
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
	return &env{t: t, db: a.DB, svc: a.Svc, srv: a.Server, clock: a.Clock, testKey: a.TestKey, liveKey: a.LiveKey,
		site: a.Site, member: a.Member, member2: a.Member2, api: a}
}

// resp is a decoded HTTP response.
type resp struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

func toResp(r testenv.Response) resp {
	return resp{status: r.Status, header: r.Header, body: r.Body, raw: r.Raw}
}

func (r resp) shared() testenv.Response {
	return testenv.Response{Status: r.status, Header: r.header, Body: r.body, Raw: r.raw}
}

// do sends a request with the given key; body may be nil, a string (sent
// as is) or a value encoded as JSON.
func (e *env) do(method, path, key string, body any) resp {
	e.t.Helper()
	var auth []string
	if key != "" {
		auth = []string{"Authorization", "Bearer " + key}
	}
	return toResp(testenv.Call(e.t, e.srv.Client(), method, e.srv.URL+path, body, auth...))
}

// send sends a prepared request and decodes the response.
func (e *env) send(req *http.Request) resp {
	e.t.Helper()
	return toResp(testenv.Send(e.t, e.srv.Client(), req))
}

// test and live send a request with the test-mode or live-mode key.
func (e *env) test(method, path string, body any) resp {
	e.t.Helper()
	return e.do(method, path, e.testKey, body)
}
func (e *env) live(method, path string, body any) resp {
	e.t.Helper()
	return e.do(method, path, e.liveKey, body)
}

// ok asserts the status and returns the body.
func (r resp) ok(t *testing.T, status int) map[string]any {
	t.Helper()
	return r.shared().OK(t, status)
}

// fails asserts an error response of the API's shape (docs/api.md, Errors)
// with the given status, code and param ("" for a null param), and that
// Request-Id matches.
func (r resp) fails(t *testing.T, status int, code, param string) {
	t.Helper()
	r.shared().Fails(t, status, code, param)
}

// conversation opens a conversation as a visitor would, in the given mode.
func (e *env) conversation(mode chat.Mode, firstMessage string) string {
	e.t.Helper()
	c, _, err := e.svc.StartConversation(context.Background(), mode, app.VisitorStart{
		SiteID: e.site, VisitorID: "vis_test", PageURL: "https://example.com/pricing", Body: firstMessage})
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID
}

// contact creates a contact through the API in test mode and returns its id.
func (e *env) contact(email string) string {
	e.t.Helper()
	return e.test("POST", "/v1/contacts", map[string]any{"email": email}).ok(e.t, 201)["id"].(string)
}

// events returns the types of the events recorded about an object, in order.
func (e *env) events(objectID string) []string {
	e.t.Helper()
	evs, err := e.db.Read().EventsOf(context.Background(), objectID)
	if err != nil {
		e.t.Fatal(err)
	}
	types := make([]string, len(evs))
	for i, ev := range evs {
		types[i] = string(ev.Mode) + ":" + ev.Type
	}
	return types
}

// eventData returns the data.object of the newest event of a type about an object.
func (e *env) eventData(objectID, typ string) map[string]any {
	e.t.Helper()
	evs, err := e.db.Read().EventsOf(context.Background(), objectID)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == typ {
			var m map[string]any
			if err := json.Unmarshal(evs[i].Data, &m); err != nil {
				e.t.Fatal(err)
			}
			return m
		}
	}
	e.t.Fatalf("no %s event for %s", typ, objectID)
	return nil
}

// mails returns the templates of the e-mails queued about a ticket, in order.
func (e *env) mails(ticketID string) []string {
	e.t.Helper()
	ms, err := e.db.Read().MailsOfTicket(context.Background(), ticketID)
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Template + ":" + m.ToEmail
	}
	return out
}

// all walks every page of a list with the given page size and returns the ids.
func (e *env) all(key, path string, limit int) []string {
	e.t.Helper()
	return testenv.Walk(e.t, func(p string) map[string]any { return e.do("GET", p, key, nil).ok(e.t, 200) }, path, limit, nil)
}

func itoa(n int) string { return strconv.Itoa(n) }

// str makes a string of n copies of s.
func str(s string, n int) string { return strings.Repeat(s, n) }

// meta makes a metadata object with n pairs.
func meta(n int) map[string]any {
	m := map[string]any{}
	for i := 0; i < n; i++ {
		m["k"+itoa(i)] = "v"
	}
	return m
}
