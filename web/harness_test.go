package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/docs/openapicheck"
	"chatsvc/files"
	"chatsvc/storage"
	"chatsvc/support"
	"chatsvc/testenv"
	"chatsvc/web"
)

// publicURL is the public root the test services sign file URLs with.
const publicURL = "https://chat.example.com"

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
}

// newEnv starts a service whose attachments come through the SSRF guard
// (private addresses refused); opts may change its options.
func newEnv(t *testing.T, opts ...func(*app.Options)) *env {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := storage.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db.ReplayEveryBatch() // every write runs twice, as when its batch is replayed
	clk := testenv.NewClock(testenv.T0, time.Millisecond)
	// Sign-in bursts wait for a password check however slow the machine
	// (the race detector makes bcrypt many times slower): what they test
	// is the counting, and the wait has a test of its own in app.
	o := app.Options{Now: clk.Now, PublicURL: publicURL, PasswordCheckWait: time.Minute,
		Files: files.New(files.Options{Dir: filepath.Join(dir, "files"), MaxBytes: 25 << 20, Timeout: 10 * time.Second})}
	for _, f := range opts {
		f(&o)
	}
	svc := app.New(db, o)
	e := &env{t: t, db: db, svc: svc, clock: clk}
	e.srv = httptest.NewServer(web.Handler(svc))
	// Every /v1 response the tests get is checked against docs/openapi.json.
	e.srv.Client().Transport = openapicheck.New(t, e.srv.URL, e.srv.Client().Transport)
	t.Cleanup(func() { e.srv.Close(); db.Close() })
	if e.testKey, _, err = svc.CreateKey(ctx, support.Test, "tests"); err != nil {
		t.Fatal(err)
	}
	if e.liveKey, _, err = svc.CreateKey(ctx, support.Live, "tests"); err != nil {
		t.Fatal(err)
	}
	site, err := svc.CreateSite(ctx, "Test site", "example.com")
	if err != nil {
		t.Fatal(err)
	}
	e.site = site.ID
	m, err := svc.CreateMember(ctx, "agent@example.com", "Agent Smith", "")
	if err != nil {
		t.Fatal(err)
	}
	e.member = m.ID
	m2, err := svc.CreateMember(ctx, "other@example.com", "Other Agent", "")
	if err != nil {
		t.Fatal(err)
	}
	e.member2 = m2.ID
	return e
}

// resp is a decoded HTTP response.
type resp struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

// do sends a request with the given key; body may be nil, a string (sent
// as is) or a value encoded as JSON.
func (e *env) do(method, path, key string, body any) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return e.send(req)
}

// send sends a prepared request and decodes the response.
func (e *env) send(req *http.Request) resp {
	e.t.Helper()
	method, path := req.Method, req.URL.Path
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, header: res.Header, raw: raw}
	if len(raw) > 0 && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			e.t.Fatalf("%s %s: response is not a JSON object: %v\n%s", method, path, err, raw)
		}
	}
	return r
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
	if r.status != status {
		t.Fatalf("status %d, want %d; body: %s", r.status, status, r.raw)
	}
	return r.body
}

// fails asserts an error response of the API's shape (docs/api.md, Errors)
// with the given status, code and param ("" for a null param), and that
// Request-Id matches.
func (r resp) fails(t *testing.T, status int, code, param string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body: %s", r.status, status, r.raw)
	}
	e, ok := r.body["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error object: %s", r.raw)
	}
	for _, k := range []string{"type", "message", "code", "param", "request_id"} {
		if _, ok := e[k]; !ok {
			t.Fatalf("error.%s missing: %s", k, r.raw)
		}
	}
	if e["code"] != code {
		t.Fatalf("error.code %v, want %s; body: %s", e["code"], code, r.raw)
	}
	var gotParam string
	if p, ok := e["param"].(string); ok {
		gotParam = p
	}
	if gotParam != param {
		t.Fatalf("error.param %q, want %q; body: %s", gotParam, param, r.raw)
	}
	if id := r.header.Get("Request-Id"); id == "" || id != e["request_id"] {
		t.Fatalf("Request-Id header %q != error.request_id %v", id, e["request_id"])
	}
	if msg, _ := e["message"].(string); msg == "" {
		t.Fatalf("empty error.message: %s", r.raw)
	}
}

// conversation opens a conversation as a visitor would, in the given mode.
func (e *env) conversation(mode support.Mode, firstMessage string) string {
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
	var ids []string
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	url := path + sep + "limit=" + itoa(limit)
	for pages := 0; ; pages++ {
		if pages > 10000 {
			e.t.Fatal("pagination does not end")
		}
		b := e.do("GET", url, key, nil).ok(e.t, 200)
		for _, o := range b["data"].([]any) {
			ids = append(ids, o.(map[string]any)["id"].(string))
		}
		if b["has_more"] != true {
			if b["next_cursor"] != nil {
				e.t.Fatalf("has_more false but next_cursor %v", b["next_cursor"])
			}
			return ids
		}
		url = path + sep + "limit=" + itoa(limit) + "&cursor=" + b["next_cursor"].(string)
	}
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
