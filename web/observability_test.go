package web_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	if code, body := get(t, e.Server.URL+"/healthz", ""); code != 200 || !strings.Contains(body, `"ok"`) {
		t.Fatalf("healthz: %d %s", code, body)
	}
	if code, body := get(t, e.Server.URL+"/readyz", ""); code != 200 {
		t.Fatalf("readyz: %d %s", code, body)
	}
	failing := httptest.NewServer(web.HandlerWith(e.Svc, web.Options{Ready: func(context.Context) error {
		return errors.New("1 of 2 background workers are running")
	}}))
	defer failing.Close()
	if code, body := get(t, failing.URL+"/readyz", ""); code != 503 || !strings.Contains(body, "workers") {
		t.Fatalf("readyz with a stopped worker: %d %s", code, body)
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	e.Test("POST", "/v1/tickets", map[string]any{"subject": "Hi", "contact": map[string]any{"email": "a@example.com"}}).OK(t, 201)
	e.Test("GET", "/v1/tickets/T-1", nil).OK(t, 200)
	e.Test("GET", "/v1/tickets/T-9", nil).Fails(t, 404, "resource_missing", "id")
	code, body := get(t, e.Server.URL+"/metrics", "")
	if code != 200 {
		t.Fatalf("metrics: %d", code)
	}
	for _, want := range []string{
		`chatsvc_http_requests_total{method="POST",route="POST /v1/tickets",status="201"} 1`,
		`chatsvc_http_requests_total{method="GET",route="GET /v1/tickets/{id}",status="200"} 1`,
		`chatsvc_http_requests_total{method="GET",route="GET /v1/tickets/{id}",status="404"} 1`,
		`chatsvc_http_request_duration_seconds_bucket{method="GET",route="GET /v1/tickets/{id}"`,
		`chatsvc_queue_depth{queue="outbox"} 1`, // the confirmation e-mail
		`chatsvc_sqlite_connections{pool="readers",state="idle"}`,
		`chatsvc_queue_depth{queue="webhooks"} 0`,
		`chatsvc_webhook_attempts_total{outcome="delivered"} 0`,
		`chatsvc_stored{kind="knowledge_chunks"} 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}

	// Without a token, only a scraper on this machine is served, not one
	// relayed by a proxy here.
	req, _ := http.NewRequest("GET", e.Server.URL+"/metrics", nil)
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 403 {
		t.Fatalf("metrics through a proxy: %v %v, want 403", res.StatusCode, err)
	} else {
		res.Body.Close()
	}

	guarded := httptest.NewServer(web.HandlerWith(e.Svc, web.Options{MetricsToken: "s3cret"}))
	defer guarded.Close()
	for _, tok := range []string{"", "wrong"} {
		if code, _ := get(t, guarded.URL+"/metrics", tok); code != 401 {
			t.Errorf("metrics with token %q: %d, want 401", tok, code)
		}
	}
	if code, _ := get(t, guarded.URL+"/metrics", "s3cret"); code != 200 {
		t.Errorf("metrics with the token: %d", code)
	}
}

// TestLogLinesCarryTheRequestID sets the process's default logger, so it
// runs alone, not beside the parallel tests.
func TestLogLinesCarryTheRequestID(t *testing.T) {
	var buf lockedBuffer
	prev := slog.Default()
	slog.SetDefault(slog.New(web.LogHandler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	defer slog.SetDefault(prev)
	e := webenv.New(t)
	r := e.Test("POST", "/v1/contacts", map[string]any{"email": "secret-person@example.com", "name": "Secret Name"})
	r.OK(t, 201)
	id := r.Header.Get("Request-Id")
	logged := func(logs string) bool {
		return strings.Contains(logs, `"request_id":"`+id+`"`) && strings.Contains(logs, `"route":"POST /v1/contacts"`)
	}
	logs := buf.String()
	// The request's line is written once its response is sent: wait for it.
	for deadline := time.Now().Add(2 * time.Second); !logged(logs) && time.Now().Before(deadline); logs = buf.String() {
		time.Sleep(5 * time.Millisecond)
	}
	if !logged(logs) {
		t.Fatalf("no log line with request_id %s:\n%s", id, logs)
	}
	if strings.Contains(logs, "secret-person") || strings.Contains(logs, "Secret Name") || strings.Contains(logs, e.TestKey) {
		t.Fatalf("request bodies or keys leaked into the logs:\n%s", logs)
	}
}

func TestSecureHeaders(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	res, err := http.Get(e.Server.URL + "/demo?site=" + e.Site)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
		"Referrer-Policy": "same-origin"} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("/demo %s = %q, want %q", k, got, want)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("/demo CSP %q", csp)
	}
	if r := e.Test("GET", "/v1/tickets", nil); r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("API responses must carry nosniff")
	}
}

// Paths outside the API answer with the API's error shape too.
func TestUnknownPathsOutsideTheAPI(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	e.Do("GET", "/nothing", "", nil).Fails(t, 404, "resource_missing", "")
	wrong := e.Do("POST", "/healthz", "", nil)
	wrong.Fails(t, 405, "method_not_allowed", "")
	if allow := wrong.Header.Get("Allow"); allow != "GET" {
		t.Errorf("Allow %q, want GET", allow)
	}
	if r := e.Do("GET", "/", "", nil); r.Status != 200 {
		t.Errorf("GET / answered %d", r.Status)
	}
}

// A disk with less room than app.Options.MinFreeBytes makes the server not
// ready: SQLite may still commit an empty transaction there, while every
// real write fails.
func TestNotReadyWhenTheDiskIsFull(t *testing.T) {
	t.Parallel()
	e := webenv.New(t, func(o *app.Options) { o.MinFreeBytes = 1 << 62 }) // more than any disk has free
	if code, body := get(t, e.Server.URL+"/readyz", ""); code != 503 || !strings.Contains(body, "disk") {
		t.Fatalf("readyz with a full disk: %d %s", code, body)
	}
}

// lockedBuffer is a log's buffer that the server's goroutines write while
// the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
