package web_test

import (
	"context"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
)

// An agent's answer reaches a visitor whose widget stream is open: it is
// seen, so no e-mail is owed; the same answer to a visitor who is gone is
// e-mailed once notify.visitor_after has passed.
func TestMissedReplyFollowsTheWidgetStream(t *testing.T) {
	t.Parallel()
	const after = 5 * time.Minute
	e := webenv.New(t, func(o *app.Options) { o.Notify.VisitorAfter = after })
	ctx := context.Background()
	secret, err := e.Svc.SetIdentitySecret(ctx, e.Site, false)
	if err != nil {
		t.Fatal(err)
	}
	// chat is a visitor the site identified who asked for a person: their
	// token and conversation.
	chat := func(email string) (string, string) {
		tok := e.Session(false)
		e.WidgetDo("POST", "/widget/v1/identify", tok, map[string]any{"email": email,
			"user_hash": app.UserHash(secret, email)}).OK(t, 200)
		convID := e.Say(tok, "Where is my parcel?")["message"].(map[string]any)["conversation_id"].(string)
		e.WidgetDo("POST", "/widget/v1/handoff", tok, nil).OK(t, 200)
		return tok, convID
	}
	answer := func(convID string) {
		e.Live("POST", "/v1/conversations/"+convID+"/messages", map[string]any{"body": "It left on Monday.",
			"author_id": e.Member}).OK(t, 201)
	}
	mails := func() int {
		t.Helper()
		e.Clock.Advance(after + time.Second)
		for more := true; more; {
			var err error
			if more, err = e.Svc.NotifyStep(ctx); err != nil {
				t.Fatal(err)
			}
		}
		ms, err := e.DB.Read().OutboxByTemplate(ctx, app.MailMissedReply)
		if err != nil {
			t.Fatal(err)
		}
		return len(ms)
	}

	tok, here := chat("here@example.com")
	live := e.OpenStream(tok)
	answer(here)
	live.Message("It left on Monday.")
	if n := mails(); n != 0 {
		t.Fatalf("%d e-mails to a visitor whose stream showed the answer", n)
	}
	live.Cancel()

	_, gone := chat("gone@example.com")
	answer(gone)
	if n := mails(); n != 1 {
		t.Fatalf("%d e-mails to a visitor who was gone, want 1", n)
	}
}
