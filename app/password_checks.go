package app

import (
	"context"
	"time"
)

// Limits on the bcrypt work sign-ins cause, which is what makes a flood
// of sign-in attempts costly for the server.
const (
	// MaxConcurrentPasswordChecks bounds the password checks that run at once.
	MaxConcurrentPasswordChecks = 4
	// PasswordCheckWait is how long a sign-in waits for a free check before
	// it is refused as rate_limited: long enough that a person signing in
	// during a burst never notices, short enough not to pile up requests.
	PasswordCheckWait = 2 * time.Second
)

// passwordChecks is a semaphore over password checks.
type passwordChecks struct {
	slots chan struct{}
	wait  time.Duration
}

func newPasswordChecks(wait time.Duration) passwordChecks {
	if wait <= 0 {
		wait = PasswordCheckWait
	}
	return passwordChecks{slots: make(chan struct{}, MaxConcurrentPasswordChecks), wait: wait}
}

// acquire takes a slot, waiting up to p.wait, and returns its release.
func (p passwordChecks) acquire(ctx context.Context) (release func(), err error) {
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case p.slots <- struct{}{}:
		return func() { <-p.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timer.C:
		return nil, &Error{Kind: RateLimited, Code: CodeRateLimited, RetryAfter: time.Second,
			Message: "Too many sign-ins at this moment. Try again in a few seconds."}
	}
}
