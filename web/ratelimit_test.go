package web_test

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"chatsvc/web"
)

func TestRateLimitPerAPIKey(t *testing.T) {
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
