package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"chatsvc/chat"
)

func TestAllowedFrom(t *testing.T) {
	domain := func(d string) *chat.Site { return &chat.Site{ID: "site_x", Domains: []string{d}} }
	cases := []struct {
		site   *chat.Site
		origin string
		ok     bool
	}{
		{domain("example.com"), "", true},                             // not a browser page
		{domain("example.com"), "https://example.com", true},          // the domain
		{domain("example.com"), "http://example.com:8443", true},      // any scheme and port
		{domain("example.com"), "https://shop.example.com", true},     // a subdomain
		{domain("Example.com"), "https://EXAMPLE.com", true},          // case
		{domain("https://example.com/"), "https://example.com", true}, // domain entered as a URL
		{domain("example.com"), "https://notexample.com", false},
		{domain("example.com"), "https://example.com.evil.net", false},
		{domain("shop.example.com"), "https://example.com", false},
		{domain("example.com"), "null", false},
		{domain("example.com"), "https://chat.internal:8080", true}, // this server's own pages
		{&chat.Site{ID: "site_y"}, "https://anything.example.net", true},
	}
	for _, c := range cases {
		err := allowedFrom(c.site, Origin{Origin: c.origin, Host: "chat.internal:8080"})
		if (err == nil) != c.ok {
			t.Errorf("domains %v, origin %q: %v, want allowed=%v", c.site.Domains, c.origin, err, c.ok)
		}
	}
}

func TestVisitorTokens(t *testing.T) {
	ctx := context.Background()
	s, db := newTestService(t)
	claims := visitorClaims{Mode: chat.Test, SiteID: "site_a", VisitorID: "vis_1", IssuedAt: s.now().Unix()}
	tok, err := s.signToken(ctx, claims)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.verifyToken(ctx, tok); err != nil || got != claims {
		t.Fatalf("verify: %v %v", got, err)
	}
	// The key is kept in the database: another Service over it accepts the token.
	if got, err := New(db, Options{}).verifyToken(ctx, tok); err != nil || got != claims {
		t.Fatalf("after restart: %v %v", got, err)
	}
	other, _ := s.signToken(ctx, visitorClaims{Mode: chat.Live, SiteID: "site_a", VisitorID: "vis_1"})
	payload, _, _ := strings.Cut(other, ".")
	_, sig, _ := strings.Cut(tok, ".")
	for _, bad := range []string{"", "vt_", "vt_abc", tok + "x", payload + "." + sig, strings.TrimPrefix(tok, "vt_")} {
		if _, err := s.verifyToken(ctx, bad); err == nil {
			t.Errorf("token %q accepted", bad)
		}
	}
}

// A token is refused once VisitorTokenTTL has passed since it was issued.
func TestVisitorTokensExpire(t *testing.T) {
	ctx := context.Background()
	_, db := newTestService(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := New(db, Options{Now: func() time.Time { return now }})
	tok, err := s.signToken(ctx, visitorClaims{Mode: chat.Test, SiteID: "site_a", VisitorID: "vis_1"})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(VisitorTokenTTL)
	if _, err := s.verifyToken(ctx, tok); err != nil {
		t.Fatalf("at the end of its life: %v", err)
	}
	now = now.Add(time.Second)
	if _, err := s.verifyToken(ctx, tok); err == nil || err.(*Error).Code != CodeVisitorTokenInvalid {
		t.Fatalf("after its life: %v, want %s", err, CodeVisitorTokenInvalid)
	}
}
