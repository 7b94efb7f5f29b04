package web_test

import (
	"strconv"
	"testing"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
)

// TestWidgetTicketsRateLimited checks that a visitor opening tickets beyond
// the hourly limit gets 429 rate_limited with Retry-After.
func TestWidgetTicketsRateLimited(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	open := func(i int) webenv.Resp {
		return e.WidgetDo("POST", "/widget/v1/tickets", tok, map[string]any{"subject": "Help",
			"email": "person" + strconv.Itoa(i) + "@example.com"})
	}
	for i := range app.VisitorTicketsPerHour {
		open(i).OK(t, 201)
	}
	r := open(app.VisitorTicketsPerHour)
	r.Fails(t, 429, "rate_limited", "")
	if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 3600 {
		t.Errorf("Retry-After %q, want 1 to 3600 seconds", r.Header.Get("Retry-After"))
	}
}
