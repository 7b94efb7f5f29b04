package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chatsvc/app"
	"chatsvc/testenv"
	"chatsvc/web"
)

var twoFactorSecret = regexp.MustCompile(`id="two-factor-secret">([A-Z2-7]+)<`)

// enrolTwoFactor sets up two-factor sign-in for d's member and returns the
// secret and the recovery codes.
func enrolTwoFactor(t *testing.T, e *Env, d *dash) (string, []string) {
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

// ownerSignedIn is an env, its dashboard's address, and the owner signed in.
func ownerSignedIn(t *testing.T) (*Env, string, *dash) {
	t.Helper()
	e := New(t)
	base := dashServer(t, e)
	d := newDash(t, base)
	d.signIn("agent@example.com", DashPassword)
	return e, base, d
}

func totp(t *testing.T, e *Env, secret string) string {
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

	form := url.Values{"email": {"agent@example.com"}, "password": {DashPassword}}
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
	other, err := e.Svc.SetMemberPassword(ctx, "other@example.com", DashPassword)
	if err != nil {
		t.Fatal(err)
	}
	enrolTwoFactor(t, e, owner) // the owner too would see only the set-up otherwise
	owner.post("/app/two-factor/required", url.Values{"required": {"true"}}).must(t, http.StatusSeeOther)

	agent := newDash(t, base)
	agent.signIn("other@example.com", DashPassword).must(t, http.StatusSeeOther)
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
	agent.signIn("other@example.com", DashPassword).must(t, http.StatusSeeOther) // no code asked; the set-up again
	if r := agent.get("/app/"); r.header.Get("Location") != "/app/two-factor" {
		t.Fatalf("after the reset, with the team requirement: %d %q", r.status, r.header.Get("Location"))
	}
	// Only an owner resets or requires.
	agent.post("/app/two-factor/required", url.Values{"required": {"false"}}).must(t, http.StatusForbidden)
}

// TestBrowserTwoFactorSignIn drives headless Chromium: a member sets up
// two-factor sign-in from the page's secret, signs out, is refused with
// the password alone, and signs in with a code computed from the secret.
func TestBrowserTwoFactorSignIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := testenv.NewClock(testenv.T0, 0)
	svc := app.New(testenv.OpenDB(t, ""), app.Options{Now: clock.Now})
	srv := httptest.NewServer(web.Handler(svc))
	t.Cleanup(srv.Close)
	if _, err := svc.CreateMember(ctx, "agent@example.com", "Agent Smith", DashPassword); err != nil {
		t.Fatal(err)
	}
	tab := browserTab(t, 60*time.Second)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(tab, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(tab, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	signIn(t, tab, srv.URL, "agent@example.com", DashPassword)
	run("opening the set-up", chromedp.Navigate(srv.URL+"/app/two-factor"), chromedp.WaitVisible(chromedp.ID("two-factor-qr")))
	labelled(t, tab, "the two-factor set-up")
	secret := text(`document.getElementById("two-factor-secret").textContent`)
	code, err := app.TOTPCode(secret, clock.Now())
	if err != nil {
		t.Fatalf("secret %q: %v", secret, err)
	}
	run("confirming the set-up", chromedp.SendKeys(chromedp.ID("code"), code), chromedp.Submit(chromedp.ID("code")),
		chromedp.WaitVisible(chromedp.ID("recovery-codes")))
	if n := text(`String(document.querySelectorAll("#recovery-codes li").length)`); n != "10" {
		t.Fatalf("%s recovery codes shown", n)
	}
	run("signing out", chromedp.Evaluate[chromedp.Void](`document.querySelector('form[action="/app/sign-out"]').submit()`),
		chromedp.WaitVisible(chromedp.ID("email")))

	signInForm := func(code string) []chromedp.Action[chromedp.Void] {
		return []chromedp.Action[chromedp.Void]{chromedp.Navigate(srv.URL + "/app/sign-in"), chromedp.WaitVisible(chromedp.ID("email")),
			chromedp.SendKeys(chromedp.ID("email"), "agent@example.com"), chromedp.SendKeys(chromedp.ID("password"), DashPassword),
			chromedp.SendKeys(chromedp.ID("code"), code), chromedp.Submit(chromedp.ID("password"))}
	}
	run("signing in without a code", append(signInForm(""), chromedp.WaitVisible(chromedp.ID("sign-in-error")))...)
	if msg := text(`document.getElementById("sign-in-error").textContent`); !strings.Contains(msg, "authenticator app") {
		t.Fatalf("refusal without a code: %q", msg)
	}
	clock.Advance(30 * time.Second) // the set-up's code is used
	code, _ = app.TOTPCode(secret, clock.Now())
	run("signing in with the code", append(signInForm(code), chromedp.WaitVisible(chromedp.ID("mode")))...)
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
