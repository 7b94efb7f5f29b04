package app

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	l := NewLimiter(VisitorMessagesPerMinute, time.Minute) // a message every 2 s, 30 at once
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := range VisitorMessagesPerMinute {
		if _, ok := l.Allow("vis_a", t0); !ok {
			t.Fatalf("message %d of a burst refused", i+1)
		}
	}
	if wait, ok := l.Allow("vis_a", t0); ok || wait != 2*time.Second {
		t.Fatalf("message %d: allowed %v, wait %v; want refused, wait 2s", VisitorMessagesPerMinute+1, ok, wait)
	}
	if _, ok := l.Allow("vis_b", t0); !ok {
		t.Fatal("another visitor was refused")
	}
	if _, ok := l.Allow("vis_a", t0.Add(2*time.Second)); !ok {
		t.Fatal("refused once a token was back")
	}
	if _, ok := l.Allow("vis_a", t0.Add(2*time.Second)); ok {
		t.Fatal("a refused attempt took no token, so the next one must still wait")
	}
	var none *Limiter
	if _, ok := none.Allow("vis_a", t0); !ok {
		t.Fatal("no limiter refused")
	}
}
