package web_test

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
)

// signInFrom posts the sign-in form as a client at ip (the test server's
// peer is loopback, taken for a local proxy) and returns the status.
func signInFrom(t *testing.T, base, ip, email, password string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/app/sign-in", strings.NewReader(url.Values{
		"email": {email}, "password": {password}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", ip)
	res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}).Do(req)
	if err != nil {
		t.Error(err)
		return nil
	}
	res.Body.Close()
	return res
}

// signInBurst sends the passwords in parallel, each from its own address,
// and counts the answers by status.
func signInBurst(t *testing.T, base string, passwords []string) map[int]int {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	got := map[int]int{}
	start := make(chan struct{})
	for i, pw := range passwords {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if res := signInFrom(t, base, "198.51.100."+strconv.Itoa(i+1), "agent@example.com", pw); res != nil {
				mu.Lock()
				got[res.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	return got
}

// TestDashboardSignInBurst checks that parallel attempts are counted before
// their passwords are checked: a burst of wrong passwords counts exactly
// MaxSignInFailures failures, and the right password sent in a later burst
// or alone within the lock-out is refused.
func TestDashboardSignInBurst(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	base := dashServer(t, e)
	wrong := make([]string, 30)
	for i := range wrong {
		wrong[i] = "wrong password " + strconv.Itoa(i)
	}
	got := signInBurst(t, base, wrong)
	want := map[int]int{http.StatusUnauthorized: app.MaxSignInFailures,
		http.StatusTooManyRequests: len(wrong) - app.MaxSignInFailures}
	if got[http.StatusUnauthorized] != want[http.StatusUnauthorized] || got[http.StatusTooManyRequests] != want[http.StatusTooManyRequests] {
		t.Errorf("answers by status %v, want %v", got, want)
	}
	f, err := e.DB.Read().SignInFailures(t.Context(), "agent@example.com")
	if err != nil || f.Count != app.MaxSignInFailures || f.LockedUntil == nil {
		t.Fatalf("failures %+v (%v), want %d and a lock-out", f, err, app.MaxSignInFailures)
	}

	// The right password among more wrong ones, then alone: still locked.
	got = signInBurst(t, base, append(wrong, webenv.DashPassword))
	if got[http.StatusSeeOther] != 0 || got[http.StatusTooManyRequests] != len(wrong)+1 {
		t.Errorf("burst with the right password: answers by status %v, want all 429", got)
	}
	_, err = e.Svc.SignIn(t.Context(), "agent@example.com", webenv.DashPassword)
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code != app.CodeSignInLocked {
		t.Fatalf("right password within the lock-out: %v, want %s", err, app.CodeSignInLocked)
	}
	if f, _ := e.DB.Read().SignInFailures(t.Context(), "agent@example.com"); f.Count != app.MaxSignInFailures {
		t.Errorf("refused attempts were counted: %d failures", f.Count)
	}

	e.Clock.Advance(app.SignInLockout)
	if _, err := e.Svc.SignIn(t.Context(), "agent@example.com", webenv.DashPassword); err != nil {
		t.Fatalf("after the lock-out: %v", err)
	}
	if f, _ := e.DB.Read().SignInFailures(t.Context(), "agent@example.com"); f.Count != 0 {
		t.Errorf("a sign-in left %d failures", f.Count)
	}
}

// TestSignInFailuresPruned checks that failures stop counting, and their
// rows are deleted, a lock-out window after the latest attempt.
func TestSignInFailuresPruned(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	dashServer(t, e)
	fail := func(email string, n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			if _, err := e.Svc.SignIn(t.Context(), email, "wrong password"); err == nil {
				t.Fatal("a wrong password signed in")
			}
		}
	}
	fail("agent@example.com", app.MaxSignInFailures-1)
	fail("nobody@example.com", app.MaxSignInFailures) // locked
	e.Clock.Advance(10 * time.Minute)
	fail("later@example.com", 1)
	e.Clock.Advance(app.SignInLockout - 10*time.Minute + time.Second)

	n, err := e.Svc.PruneSignInFailures(t.Context())
	if err != nil || n != 2 {
		t.Fatalf("pruned %d rows (%v), want 2", n, err)
	}
	for email, want := range map[string]int{"agent@example.com": 0, "nobody@example.com": 0, "later@example.com": 1} {
		if f, _ := e.DB.Read().SignInFailures(t.Context(), email); f.Count != want {
			t.Errorf("%s: %d failures left, want %d", email, f.Count, want)
		}
	}
	// Old failures no longer count towards a lock-out.
	fail("agent@example.com", 1)
	if _, err := e.Svc.SignIn(t.Context(), "agent@example.com", webenv.DashPassword); err != nil {
		t.Fatalf("sign-in after old failures: %v", err)
	}
}

// TestDashboardSignInLimitPerAddress checks that one client address gets
// a burst of sign-in attempts, then 429 with Retry-After before any
// password is checked, while other addresses sign in as usual.
func TestDashboardSignInLimitPerAddress(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	base := dashServer(t, e)
	const burst = 10 // the documented per-address burst
	for i := range burst {
		email := "stranger" + strconv.Itoa(i) + "@example.com"
		if res := signInFrom(t, base, "203.0.113.7", email, "wrong password"); res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: status %d, want 401", i+1, res.StatusCode)
		}
	}
	res := signInFrom(t, base, "203.0.113.7", "agent@example.com", webenv.DashPassword)
	if res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("attempt %d: status %d, want 429", burst+1, res.StatusCode)
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
		t.Errorf("Retry-After %q, want 1 to 60 seconds", res.Header.Get("Retry-After"))
	}
	if f, _ := e.DB.Read().SignInFailures(t.Context(), "agent@example.com"); f.Count != 0 {
		t.Errorf("a refused attempt was counted against the member: %d failures", f.Count)
	}
	if res := signInFrom(t, base, "198.51.100.9", "agent@example.com", webenv.DashPassword); res.StatusCode != http.StatusSeeOther {
		t.Errorf("another address: status %d, want 303", res.StatusCode)
	}
}
