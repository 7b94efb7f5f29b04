package web_test

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

func TestRateLimitPerAPIKey(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	e.Server.Close()
	e.Server = httptest.NewServer(web.HandlerWith(e.Svc, web.Options{APIPerSecond: 0.01, APIBurst: 3}))
	for i := 0; i < 3; i++ {
		e.Test("GET", "/v1/tickets", nil).OK(t, 200)
	}
	r := e.Test("GET", "/v1/tickets", nil)
	r.Fails(t, 429, "rate_limited", "")
	if r.Body["error"].(map[string]any)["type"] != "rate_limit_error" {
		t.Fatalf("type: %s", r.Raw)
	}
	if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 100 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// Another key has its own bucket.
	e.Live("GET", "/v1/tickets", nil).OK(t, 200)
	// An unauthenticated request is refused as such, without taking a token.
	e.Do("GET", "/v1/tickets", "", nil).Fails(t, 401, "api_key_missing", "")
}

func TestRateLimitPerVisitorIP(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	e.Server.Close()
	e.Server = httptest.NewServer(web.HandlerWith(e.Svc, web.Options{WidgetPerSecond: 0.01, WidgetBurst: 2}))
	start := func(xff string) webenv.Resp {
		return e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": "https://example.com/"},
			"X-Forwarded-For", xff)
	}
	start("203.0.113.7").OK(t, 200)
	start("203.0.113.7").OK(t, 200)
	r := start("203.0.113.7")
	r.Fails(t, 429, "rate_limited", "")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	start("198.51.100.9").OK(t, 200)             // another visitor behind the same proxy
	e.Test("GET", "/v1/tickets", nil).OK(t, 200) // the REST API has its own limit (off)
}
