package app

import (
	"context"
	"strings"
	"testing"

	"chatsvc/chat"
)

// FuzzVisitorToken feeds arbitrary visitor tokens to the verifier: it never
// panics, refuses every token it did not sign as visitor_token_invalid or
// _missing, and accepts a token only when it carries our own signature.
func FuzzVisitorToken(f *testing.F) {
	ctx := context.Background()
	s, _ := newTestService(f)
	good, err := s.signToken(ctx, visitorClaims{Mode: chat.Test, SiteID: "site_1", VisitorID: "vis_1"})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{good, "", "vt_", "vt_.", good + "x", strings.Replace(good, "vt_", "vt_A", 1), "vt_dGVzdHx8.AAAA"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, token string) {
		c, err := s.verifyToken(ctx, token)
		if err != nil {
			if e, ok := err.(*Error); !ok || (e.Code != CodeVisitorTokenInvalid && e.Code != CodeVisitorTokenMissing) {
				t.Fatalf("token %q: %v", token, err)
			}
			return
		}
		again, err := s.signToken(ctx, c)
		if err != nil || again != token {
			t.Fatalf("accepted %q, which is not the token we sign for %+v (%q)", token, c, again)
		}
	})
}
