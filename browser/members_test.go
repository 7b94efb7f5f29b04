package browser_test

import (
	"bytes"
	"context"
	"io"
	"mime/quotedprintable"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chatsvc/mailer"
	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

// mailbox is the SMTP sink e's mailer sends to, and how many of its
// e-mails the test has read.
type mailbox struct {
	sink *testenv.SMTPSink
	read int
}

// startMail serves a mail sink and runs e's mailer against it until the
// test ends.
func startMail(t *testing.T, e *webenv.Env) *mailbox {
	t.Helper()
	sink := testenv.NewSMTPSink(t)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	w := mailer.New(mailer.Config{Host: "127.0.0.1", Port: sink.Port(), TLS: "none", From: "team@example.com",
		PublicURL: webenv.PublicURL}, e.Svc).Worker()
	go func() { defer close(done); w.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	return &mailbox{sink: sink}
}

var mailedLink = regexp.MustCompile(`https?://[^\s"<>]+/app/password\?token=[0-9A-Za-z]+`)

// link waits for the next e-mail and returns the dashboard path of the
// one-time link in it.
func (m *mailbox) link(t *testing.T) string {
	t.Helper()
	testenv.Until(t, m.sink.Arrived(), "the next e-mail", func() bool { return len(m.sink.Received()) > m.read })
	raw := m.sink.Received()[m.read].Data
	m.read++
	text, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(raw)))
	found := mailedLink.Find(text)
	if found == nil {
		t.Fatalf("no link in the e-mail:\n%s", text)
	}
	u, _ := url.Parse(string(found))
	return u.RequestURI()
}

// TestBrowserTeam drives, in headless Chromium, an owner inviting a member
// from the Team page, the member choosing a password through the link in
// the e-mail the SMTP server received, and a password reset asked for on
// the sign-in page and done through its e-mailed link. The pages are saved
// (looks).
func TestBrowserTeam(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	if _, err := e.Svc.SetMemberPassword(context.Background(), "agent@example.com", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	sink := startMail(t, e)
	ctx := browserTab(t, 90*time.Second)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// usePasswordLink opens an e-mailed link, saves how its page looks and
	// chooses the password, which signs in.
	usePasswordLink := func(page, path, password string) {
		t.Helper()
		run("opening the "+page+" link", chromedp.Navigate(e.Server.URL+path), chromedp.WaitVisible(chromedp.ID("password")))
		labelled(t, ctx, page)
		looks(t, ctx, "dashboard-"+page)
		run("choosing a password on the "+page+" page", chromedp.SendKeys(chromedp.ID("password"), password),
			chromedp.Submit(chromedp.ID("password")), chromedp.WaitVisible(chromedp.ID("mode")))
	}
	// The button sits in the header's account menu: clicked as the menu's own click would.
	signOut := clickNow(`form[action="/app/sign-out"] button`)

	// The owner invites Nina from the Team page.
	signIn(t, ctx, e.Server.URL, "agent@example.com", webenv.DashPassword)
	run("opening the team page", chromedp.Click(chromedp.CSS(`nav a[href="/app/members"]`)))
	waitLoaded(t, ctx, "invite") // node lookups could otherwise reach into the page being left
	run("inviting",
		chromedp.SendKeys(chromedp.ID("i-email"), "nina@example.com"),
		chromedp.SendKeys(chromedp.ID("i-name"), "Nina New"),
		chromedp.Submit(chromedp.ID("i-name")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	labelled(t, ctx, "team")
	looks(t, ctx, "dashboard-members")

	// Nina follows the e-mailed link, chooses a password and is signed in.
	run("signing out", signOut, chromedp.WaitVisible(chromedp.ID("email")))
	usePasswordLink("invitation", sink.link(t), "nina's own password")
	who, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("header .who").textContent`))
	if err != nil || !strings.Contains(who, "Nina New") {
		t.Errorf("signed in as %q (%v), want Nina New", who, err)
	}
	teamLinks, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('nav a[href="/app/members"]').length`))
	if err != nil || teamLinks != 0 {
		t.Errorf("an agent is offered the Team page (%d links, %v)", teamLinks, err)
	}

	// Nina forgets her password and resets it from the sign-in page.
	run("asking for a reset", signOut, chromedp.WaitVisible(chromedp.ID("email")),
		chromedp.Click(chromedp.CSS(`a[href="/app/forgot-password"]`)),
		chromedp.WaitVisible(chromedp.ID("email")),
	)
	labelled(t, ctx, "forgot password")
	looks(t, ctx, "dashboard-forgot-password")
	run("sending the reset form",
		chromedp.SendKeys(chromedp.ID("email"), "nina@example.com"),
		chromedp.Submit(chromedp.ID("email")),
		chromedp.WaitVisible(chromedp.ID("reset-sent")),
	)
	looks(t, ctx, "dashboard-reset-sent")
	usePasswordLink("password-reset", sink.link(t), "a new one for nina")
	run("signing out", signOut, chromedp.WaitVisible(chromedp.ID("email")))
	signIn(t, ctx, e.Server.URL, "nina@example.com", "a new one for nina")
}
