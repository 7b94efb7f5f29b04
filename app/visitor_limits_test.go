package app

import (
	"fmt"
	"testing"
	"time"
)

func TestVisitorLimits(t *testing.T) {
	l := visitorLimits{max: VisitorMessagesPerMinute, per: time.Minute}
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < VisitorMessagesPerMinute; i++ {
		if _, ok := l.allow("vis_a", t0.Add(time.Duration(i)*time.Second)); !ok {
			t.Fatalf("message %d refused", i+1)
		}
	}
	if wait, ok := l.allow("vis_a", t0.Add(40*time.Second)); ok || wait != 20*time.Second {
		t.Fatalf("message %d: allowed %v, wait %v; want refused, wait 20s", VisitorMessagesPerMinute+1, ok, wait)
	}
	if _, ok := l.allow("vis_b", t0.Add(40*time.Second)); !ok {
		t.Fatal("another visitor was refused")
	}
	if _, ok := l.allow("vis_a", t0.Add(time.Minute)); !ok {
		t.Fatal("refused in a new minute")
	}

	// Many visitors: ended windows are forgotten, at most once a minute.
	for i := 0; i < 10001; i++ {
		l.allow(fmt.Sprintf("vis_%d", i), t0.Add(2*time.Minute))
	}
	l.allow("vis_late", t0.Add(2*time.Minute+time.Second))
	if n := len(l.windows); n < 10001 {
		t.Fatalf("%d windows: live windows were forgotten", n)
	}
	l.allow("vis_later", t0.Add(4*time.Minute))
	if n := len(l.windows); n != 1 {
		t.Fatalf("%d windows after every window ended, want 1", n)
	}
}
