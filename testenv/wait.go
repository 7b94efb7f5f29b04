package testenv

import (
	"testing"
	"time"
)

// Patience is how long a test waits for what it expects before failing:
// long enough for a slow, shared machine, never a measure of speed.
const Patience = 10 * time.Second

// Until waits for cond to hold, looking at it at once and again after each
// signal (a change feed's channel, a worker's hook), and fails the test
// when Patience runs out first.
func Until[T any](tb testing.TB, signal <-chan T, what string, cond func() bool) {
	tb.Helper()
	deadline := time.NewTimer(Patience)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-signal:
		case <-deadline.C:
			tb.Fatalf("%s: not within %v", what, Patience)
		}
	}
}

// Eventually looks at cond every few milliseconds until it holds, failing
// the test when Patience runs out: only for what sends no signal (another
// process, a browser, a socket freed by the operating system).
func Eventually(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	Until(tb, tick.C, what, cond)
}
