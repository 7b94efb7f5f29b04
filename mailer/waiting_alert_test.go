package mailer_test

import (
	"slices"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/testenv"
)

// waitingAfter is the notify.waiting_after of these tests, not the default,
// so the alert is seen to follow the setting.
const waitingAfter = 3 * time.Minute

// notifyEnv is an env whose service alerts after waitingAfter, with two
// members on the team.
func notifyEnv(t *testing.T) (*env, []*chat.Member) {
	e := newEnv(t)
	e.svc = app.New(e.db, app.Options{Now: e.clock.Now, PublicURL: "https://chat.shop.example",
		Notify: app.NotifyOptions{WaitingAfter: waitingAfter}})
	var team []*chat.Member
	for _, who := range []string{"ana", "bo"} {
		m, err := e.svc.CreateMember(e.ctx, who+"@shop.example", who, "correct horse battery")
		if err != nil {
			t.Fatal(err)
		}
		team = append(team, m)
	}
	return e, team
}

// waitingConversation has a visitor write and ask for a person.
func (e *env) waitingConversation() *app.VisitorConversation {
	e.t.Helper()
	v := e.visit(e.site("Acme Shop"), false)
	if _, err := e.svc.PostVisitorMessage(e.ctx, v, app.VisitorMessage{Body: app.Value("Do you ship to Canada?")}); err != nil {
		e.t.Fatal(err)
	}
	c, err := e.svc.VisitorHandOff(e.ctx, v)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// notifyAt moves the clock to at and runs the notify and mail workers once.
func (e *env) notifyAt(at time.Time) []testenv.Mail {
	e.t.Helper()
	e.clock.Set(at)
	if _, err := e.svc.NotifyStep(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	e.step(e.mailer())
	return e.smtp.Received()
}

func recipientsOf(got []testenv.Mail) []string {
	var to []string
	for _, r := range got {
		to = append(to, r.To...)
	}
	slices.Sort(to)
	return to
}

// TestWaitingAlertArrivesOnceAtTheDelay checks that an unassigned waiting
// conversation is e-mailed to every member when notify.waiting_after has
// passed, not a second before, and never again.
func TestWaitingAlertArrivesOnceAtTheDelay(t *testing.T) {
	t.Parallel()
	e, _ := notifyEnv(t)
	start := e.clock.Now()
	c := e.waitingConversation()
	if got := e.notifyAt(start.Add(waitingAfter - time.Second)); len(got) != 0 {
		t.Fatalf("%d e-mails a second before the delay", len(got))
	}
	got := e.notifyAt(start.Add(waitingAfter))
	if to := recipientsOf(got); !slices.Equal(to, []string{"ana@shop.example", "bo@shop.example"}) {
		t.Fatalf("alert went to %v, want every member once", to)
	}
	p := parse(t, got[0])
	if s := p.subject(t); s != "A visitor is waiting: Do you ship to Canada?" {
		t.Errorf("subject %q", s)
	}
	link := "https://chat.shop.example/app/conversations/" + c.ID + "?mode=live"
	contains(t, "text", p.text, link, "3 minute(s)")
	contains(t, "html", p.html, `href="`+link+`"`)
	if got := e.notifyAt(start.Add(waitingAfter + time.Hour)); len(got) != 2 {
		t.Fatalf("%d e-mails an hour later, want still the 2 of the alert", len(got))
	}
}

// TestWaitingAlertGoesToTheAssignee checks that an assigned conversation is
// e-mailed to its assignee alone.
func TestWaitingAlertGoesToTheAssignee(t *testing.T) {
	t.Parallel()
	e, team := notifyEnv(t)
	start := e.clock.Now()
	c := e.waitingConversation()
	if _, err := e.svc.UpdateConversation(e.ctx, chat.Live, c.ID,
		app.ConversationUpdate{AssigneeID: app.Value(team[1].ID)}); err != nil {
		t.Fatal(err)
	}
	if to := recipientsOf(e.notifyAt(start.Add(waitingAfter))); !slices.Equal(to, []string{"bo@shop.example"}) {
		t.Fatalf("alert went to %v, want the assignee only", to)
	}
}

// TestNoWaitingAlertWhenAnAgentAnswered checks that an agent's message
// before the delay cancels the alert for good.
func TestNoWaitingAlertWhenAnAgentAnswered(t *testing.T) {
	t.Parallel()
	e, team := notifyEnv(t)
	start := e.clock.Now()
	c := e.waitingConversation()
	e.clock.Set(start.Add(time.Minute))
	if _, err := e.svc.PostAgentMessage(e.ctx, chat.Live, c.ID, app.AgentMessage{
		Body: app.Value("Yes, we do."), AuthorID: app.Value(team[0].ID)}); err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Duration{waitingAfter, waitingAfter + time.Hour} {
		if got := e.notifyAt(start.Add(at)); len(got) != 0 {
			t.Fatalf("%d e-mails after %s, though an agent answered", len(got), at)
		}
	}
}
