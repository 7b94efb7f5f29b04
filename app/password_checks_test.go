package app

import (
	"errors"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// TestSignInWaitsForPasswordCheck checks that sign-ins beyond
// MaxConcurrentPasswordChecks wait for a free check, and are refused as
// rate_limited, without counting as a failure, when none frees in time.
func TestSignInWaitsForPasswordCheck(t *testing.T) {
	s, db := newTestService(t)
	var releases []func()
	for range MaxConcurrentPasswordChecks {
		release, err := s.passwordChecks.acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	s.passwordChecks.wait = time.Millisecond
	_, err := s.SignIn(t.Context(), "agent@example.com", "some password")
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != CodeRateLimited || ae.RetryAfter <= 0 {
		t.Fatalf("sign-in with every check taken: %v, want %s with a retry delay", err, CodeRateLimited)
	}
	if f, _ := db.Read().SignInFailures(t.Context(), "agent@example.com"); f.Count != 0 {
		t.Errorf("a refused sign-in counted as %d failures", f.Count)
	}

	s.passwordChecks.wait = time.Minute
	done := make(chan error, 1)
	go func() {
		_, err := s.SignIn(t.Context(), "agent@example.com", "some password")
		done <- err
	}()
	releases[0]()
	if err := <-done; !errors.As(err, &ae) || ae.Code != CodeSignInFailed {
		t.Fatalf("sign-in once a check was free: %v, want %s", err, CodeSignInFailed)
	}
}

// TestPasswordsAtBcryptsDefaultCost: a service made without a cost hashes
// passwords at bcrypt's default (tests lower it through Options).
func TestPasswordsAtBcryptsDefaultCost(t *testing.T) {
	s, db := newTestService(t)
	if _, err := s.CreateMemberAs(t.Context(), "", "owner@example.com", "Owner", "a long enough password"); err != nil {
		t.Fatal(err)
	}
	m, err := db.Read().MemberByEmail(t.Context(), "owner@example.com")
	if err != nil || m.PasswordHash == nil {
		t.Fatalf("member %+v, %v", m, err)
	}
	if cost, err := bcrypt.Cost([]byte(*m.PasswordHash)); err != nil || cost != bcrypt.DefaultCost {
		t.Errorf("cost %d (%v), want %d", cost, err, bcrypt.DefaultCost)
	}
}
