package app

import (
	"context"
	"log/slog"
	"time"
)

// Worker is a named background loop whose progress lives in the database.
type Worker struct {
	Name  string
	Every time.Duration   // poll interval, the fallback when no wake-up comes
	Wake  <-chan struct{} // optional: a signal that new work may be there
	// Step does one round of work and reports whether more is waiting, in
	// which case it is called again at once.
	Step func(ctx context.Context) (more bool, err error)
	// Drain, when set, is called as Run ends, to wait for work that Step
	// started in the background.
	Drain func()
}

// Run calls Step when woken, every interval, and again while it reports
// more work, until ctx ends. Errors are logged and retried at the next round.
func (w Worker) Run(ctx context.Context) {
	if w.Drain != nil {
		defer w.Drain()
	}
	tick := time.NewTicker(w.Every)
	defer tick.Stop()
	for {
		more, err := w.Step(ctx)
		if err != nil && ctx.Err() == nil {
			slog.Error("worker step failed", "worker", w.Name, "err", err)
			more = false
		}
		if more && ctx.Err() == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-w.Wake:
		}
	}
}
