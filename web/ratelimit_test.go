package web_test

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"chatsvc/web"
)

func TestRateLimitPerAPIKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.Close()
	e.srv = httptest.NewServer(web.HandlerWith(e.svc, web.Options{APIPerSecond: 0.01, APIBurst: 3}))
	for i := 0; i < 3; i++ {
		e.test("GET", "/v1/tickets", nil).ok(t, 200)
	}
	r := e.test("GET", "/v1/tickets", nil)
	r.fails(t, 429, "rate_limited", "")
	if r.body["error"].(map[string]any)["type"] != "rate_limit_error" {
		t.Fatalf("type: %s", r.raw)
	}
	if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || s > 100 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	// Another key has its own bucket.
	e.live("GET", "/v1/tickets", nil).ok(t, 200)
	// An unauthenticated request is refused as such, without taking a token.
	e.do("GET", "/v1/tickets", "", nil).fails(t, 401, "api_key_missing", "")
}

func TestRateLimitPerVisitorIP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.Close()
	e.srv = httptest.NewServer(web.HandlerWith(e.svc, web.Options{WidgetPerSecond: 0.01, WidgetBurst: 2}))
	start := func(xff string) resp {
		return e.wdo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.site, "page_url": "https://example.com/"},
			"X-Forwarded-For", xff)
	}
	start("203.0.113.7").ok(t, 200)
	start("203.0.113.7").ok(t, 200)
	r := start("203.0.113.7")
	r.fails(t, 429, "rate_limited", "")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	start("198.51.100.9").ok(t, 200)             // another visitor behind the same proxy
	e.test("GET", "/v1/tickets", nil).ok(t, 200) // the REST API has its own limit (off)
}
