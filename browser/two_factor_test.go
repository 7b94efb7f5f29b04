package browser_test

import (
	"chatsvc/app"
	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

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
	if _, err := svc.CreateMember(ctx, "agent@example.com", "Agent Smith", webenv.DashPassword); err != nil {
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
	signIn(t, tab, srv.URL, "agent@example.com", webenv.DashPassword)
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
			chromedp.SendKeys(chromedp.ID("email"), "agent@example.com"), chromedp.SendKeys(chromedp.ID("password"), webenv.DashPassword),
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
