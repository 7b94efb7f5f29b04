package app

import (
	"context"
	"time"
)

// slots bounds how many of one kind of work run at once (a semaphore): the
// rest wait up to wait for a free slot, then are refused as rate_limited
// with busy as the message.
type slots struct {
	c    chan struct{}
	wait time.Duration
	busy string
}

func newSlots(n int, wait time.Duration, busy string) slots {
	return slots{c: make(chan struct{}, n), wait: wait, busy: busy}
}

// acquire takes a slot, waiting up to p.wait, and returns its release.
func (p slots) acquire(ctx context.Context) (release func(), err error) {
	select {
	case p.c <- struct{}{}: // free at once: no timer
		return func() { <-p.c }, nil
	default:
	}
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case p.c <- struct{}{}:
		return func() { <-p.c }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timer.C:
		return nil, &Error{Kind: RateLimited, Code: CodeRateLimited, RetryAfter: time.Second, Message: p.busy}
	}
}
