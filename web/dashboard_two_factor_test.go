package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
)

var twoFactorSecret = regexp.MustCompile(`id="two-factor-secret">([A-Z2-7]+)<`)

// enrolTwoFactor sets up two-factor sign-in for d's member and returns the
// secret and the recovery codes.
func enrolTwoFactor(t *testing.T, e *webenv.Env, d *dash) (string, []string) {
	t.Helper()
	page := d.get("/app/two-factor").must(t, http.StatusOK)
	m := twoFactorSecret.FindStringSubmatch(page)
	if m == nil || !strings.Contains(page, `src="data:image/png;base64,`) {
		t.Fatalf("no secret or QR code on the set-up page:\n%.3000s", page)
	}
	d.post("/app/two-factor", url.Values{"code": {"000000"}}).must(t, http.StatusBadRequest)
	done := d.post("/app/two-factor", url.Values{"code": {totp(t, e, m[1])}}).must(t, http.StatusOK)
	codes := regexp.MustCompile(`<li><code>([a-z2-7]{5}-[a-z2-7]{5})</code></li>`).FindAllStringSubmatch(done, -1)
	if len(codes) != app.RecoveryCodes {
		t.Fatalf("%d recovery codes shown:\n%.3000s", len(codes), done)
	}
	var out []string
	for _, c := range codes {
		out = append(out, c[1])
	}
	return m[1], out
}

// ownerSignedIn is an Env, its dashboard's address, and the owner signed in.
func ownerSignedIn(t *testing.T) (*webenv.Env, string, *dash) {
	t.Helper()
	e := webenv.New(t)
	base := dashServer(t, e)
	d := newDash(t, base)
	d.signIn("agent@example.com", webenv.DashPassword)
	return e, base, d
}

func totp(t *testing.T, e *webenv.Env, secret string) string {
	t.Helper()
	c, err := app.TOTPCode(secret, e.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A member turns two-factor sign-in on; from then on a right password
// alone is refused and asks for the code, a wrong code is refused, the
// app's code or a recovery code signs in.
func TestDashboardTwoFactorSignIn(t *testing.T) {
	t.Parallel()
	e, base, d := ownerSignedIn(t)
	secret, recovery := enrolTwoFactor(t, e, d)
	if page := d.get("/app/two-factor").must(t, http.StatusOK); !strings.Contains(page, "Two-factor sign-in is on") ||
		strings.Contains(page, recovery[0]) {
		t.Fatalf("the page after set-up:\n%.2000s", page)
	}

	form := url.Values{"email": {"agent@example.com"}, "password": {webenv.DashPassword}}
	if body := newDash(t, base).signInWith(form).must(t, http.StatusUnauthorized); !strings.Contains(body, "authenticator app") {
		t.Fatalf("a password alone:\n%.2000s", body)
	}
	form.Set("code", "123456")
	newDash(t, base).signInWith(form).must(t, http.StatusUnauthorized)
	e.Clock.Advance(30 * time.Second) // the set-up's code is used
	form.Set("code", totp(t, e, secret))
	newDash(t, base).signInWith(form).must(t, http.StatusSeeOther)
	form.Set("code", recovery[0])
	newDash(t, base).signInWith(form).must(t, http.StatusSeeOther)
	newDash(t, base).signInWith(form).must(t, http.StatusUnauthorized) // used up
}

// An owner requires two-factor sign-in: a member without it sees only the
// set-up until done. An owner resets a member's two-factor sign-in (a lost
// phone), which ends their sessions.
func TestDashboardTwoFactorRequiredAndReset(t *testing.T) {
	t.Parallel()
	e, base, owner := ownerSignedIn(t)
	ctx := context.Background()
	other, err := e.Svc.SetMemberPassword(ctx, "other@example.com", webenv.DashPassword)
	if err != nil {
		t.Fatal(err)
	}
	enrolTwoFactor(t, e, owner) // the owner too would see only the set-up otherwise
	owner.post("/app/two-factor/required", url.Values{"required": {"true"}}).must(t, http.StatusSeeOther)

	agent := newDash(t, base)
	agent.signIn("other@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	if r := agent.get("/app/tickets"); r.status != http.StatusSeeOther || r.header.Get("Location") != "/app/two-factor" {
		t.Fatalf("a page before the set-up: %d %q", r.status, r.header.Get("Location"))
	}
	agent.post("/app/mode", url.Values{"mode": {"live"}}).must(t, http.StatusForbidden)
	enrolTwoFactor(t, e, agent)
	if r := agent.get("/app/tickets"); r.status != http.StatusOK {
		t.Fatalf("after the set-up: %d %q", r.status, r.header.Get("Location"))
	}
	if page := owner.get("/app/members").must(t, http.StatusOK); !strings.Contains(page, `id="two-factor-`+other.ID+`">on<`) {
		t.Fatalf("the team page does not show the member's two-factor sign-in:\n%.3000s", page)
	}

	owner.post("/app/members/"+other.ID+"/two-factor/reset", nil).must(t, http.StatusSeeOther)
	if r := agent.get("/app/tickets"); r.status != http.StatusSeeOther || !strings.Contains(r.header.Get("Location"), "sign-in") {
		t.Fatalf("the member's session after the reset: %d %q", r.status, r.header.Get("Location"))
	}
	agent = newDash(t, base)
	agent.signIn("other@example.com", webenv.DashPassword).must(t, http.StatusSeeOther) // no code asked; the set-up again
	if r := agent.get("/app/"); r.header.Get("Location") != "/app/two-factor" {
		t.Fatalf("after the reset, with the team requirement: %d %q", r.status, r.header.Get("Location"))
	}
	// Only an owner resets or requires.
	agent.post("/app/two-factor/required", url.Values{"required": {"false"}}).must(t, http.StatusForbidden)
}

// A password reset link sets the password of a member with two-factor
// sign-in, but does not sign them in: whoever reads their mail still needs
// the code.
func TestPasswordLinkDoesNotSkipTheSecondFactor(t *testing.T) {
	t.Parallel()
	e, base, d := ownerSignedIn(t)
	ctx := context.Background()
	enrolTwoFactor(t, e, d)
	newDash(t, base).do("POST", "/app/forgot-password", url.Values{"email": {"agent@example.com"}}).must(t, http.StatusOK)
	mails, err := e.DB.Read().OutboxByTemplate(ctx, app.MailPasswordReset)
	if err != nil || len(mails) != 1 {
		t.Fatalf("%d reset e-mails (%v)", len(mails), err)
	}
	token := regexp.MustCompile(`token=([A-Za-z0-9]+)`).FindStringSubmatch(string(mails[0].Data))
	if token == nil {
		t.Fatalf("no token in %s", mails[0].Data)
	}
	r := newDash(t, base).do("POST", "/app/password", url.Values{"token": {token[1]}, "password": {"a new password 42"}})
	if r.status != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), "/app/sign-in") || r.header.Get("Set-Cookie") != "" {
		t.Fatalf("after the link: %d %q, cookie %q", r.status, r.header.Get("Location"), r.header.Get("Set-Cookie"))
	}
	newDash(t, base).signInWith(url.Values{"email": {"agent@example.com"}, "password": {"a new password 42"}}).
		must(t, http.StatusUnauthorized)
}
