package browser_test

import (
	"chatsvc/testenv/webenv"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTicketThread drives a ticket's page in headless Chromium: the
// member reads the thread, replies to the contact (the reply is e-mailed)
// and adds an internal comment (it is not), and both show in the thread.
func TestBrowserTicketThread(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	if _, err := e.Svc.SetMemberPassword(context.Background(), "agent@example.com", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Refund", "notify_contact": false,
		"contact": map[string]any{"email": "ann@example.com"}}).OK(t, 201)
	id := tkt["id"].(string)
	e.Test("POST", "/v1/tickets/"+id+"/comments", map[string]any{"body": "Looking into it.", "author_id": e.Member2}).OK(t, 201)

	ctx := browserTab(t, 60*time.Second)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	thread := func() []string {
		t.Helper()
		texts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll("#ticket-thread .comment")].map(li => (li.classList.contains("internal") ? "internal: " : "public: ") + li.querySelector(".body").textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		return texts
	}
	signIn(t, ctx, e.Server.URL, "agent@example.com", webenv.DashPassword)
	run("opening the ticket", chromedp.Navigate(e.Server.URL+"/app/tickets/"+id), chromedp.WaitVisible(chromedp.ID("ticket-thread")))
	if got := thread(); !slices.Equal(got, []string{"public: Looking into it."}) {
		t.Fatalf("thread %q", got)
	}
	labelled(t, ctx, "ticket")
	run("replying",
		chromedp.SendKeys(chromedp.ID("comment-body"), "Your refund is on its way."),
		chromedp.Submit(chromedp.ID("comment-body")),
		chromedp.WaitVisible(chromedp.CSS("#ticket-thread .comment:nth-child(2)")),
	)
	run("adding an internal comment",
		// Loaded anew: the page the reply's submit led to can still be
		// settling, and its nodes be replaced under the browser driver.
		chromedp.Navigate(e.Server.URL+"/app/tickets/"+id),
		chromedp.WaitVisible(chromedp.CSS("#ticket-thread .comment:nth-child(2)")),
		chromedp.SendKeys(chromedp.ID("comment-body"), "Refund approved by finance."),
		chromedp.Click(chromedp.ID("comment-internal")),
		chromedp.Submit(chromedp.ID("comment-body")),
		chromedp.WaitVisible(chromedp.CSS("#ticket-thread .comment.internal")),
	)
	looks(t, ctx, "dashboard-ticket-thread")
	want := []string{"public: Looking into it.", "public: Your refund is on its way.", "internal: Refund approved by finance."}
	if got := thread(); !slices.Equal(got, want) {
		t.Fatalf("thread %q, want %q", got, want)
	}
	if got := e.Mails(id); !slices.Equal(got, []string{"ticket_comment:ann@example.com", "ticket_comment:ann@example.com"}) {
		t.Fatalf("mails %v: the reply and the first comment only", got)
	}
}
