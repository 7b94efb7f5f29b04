package app

import "time"

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

// newPasswordChecks is the semaphore over password checks.
func newPasswordChecks(wait time.Duration) slots {
	if wait <= 0 {
		wait = PasswordCheckWait
	}
	return newSlots(MaxConcurrentPasswordChecks, wait, "Too many sign-ins at this moment. Try again in a few seconds.")
}
