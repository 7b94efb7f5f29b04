package app

import (
	"testing"
	"time"
)

func TestRetryNext(t *testing.T) {
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	hook := webhookRetry(WebhookOptions{}.withDefaults())
	for _, c := range []struct {
		name  string
		r     Retry
		n     int
		at    time.Time
		after time.Duration // from at; -1: given up
	}{
		{"assistant, first failure", assistantRetry, 1, start, 5 * time.Second},
		{"assistant, second failure", assistantRetry, 2, start, 30 * time.Second},
		{"assistant, out of delays", assistantRetry, 3, start, -1},
		{"webhook, first failure", hook, 1, start, time.Minute},
		{"webhook, the last delay repeats", hook, 9, start.Add(24 * time.Hour), 6 * time.Hour},
		{"webhook, a last attempt as the window closes", hook, 20, start.Add(70 * time.Hour), 2 * time.Hour},
		{"webhook, the window is over", hook, 21, start.Add(72 * time.Hour), -1},
		{"mail, no last attempt", MailRetry, 99, start.Add(71*time.Hour + 30*time.Minute), -1},
	} {
		next, ok := c.r.Next(c.n, start, c.at)
		if c.after < 0 {
			if ok {
				t.Errorf("%s: retried at %s, want given up", c.name, next)
			}
			continue
		}
		if !ok || next.Sub(c.at) != c.after {
			t.Errorf("%s: next in %s (%v), want %s", c.name, next.Sub(c.at), ok, c.after)
		}
	}
}
