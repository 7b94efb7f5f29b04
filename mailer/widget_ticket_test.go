package mailer_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// visit starts a new widget visitor on the site, in test mode or live.
func (e *env) visit(site *chat.Site, test bool) *app.Visit {
	e.t.Helper()
	sess, err := e.svc.StartSession(e.ctx, app.SessionStart{SiteID: app.Value(site.ID),
		PageURL: app.Value("https://shop.example/help"), Test: app.Value(test)})
	if err != nil {
		e.t.Fatal(err)
	}
	v, err := e.svc.Visit(e.ctx, sess.VisitorToken, app.Origin{})
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (e *env) site(name string) *chat.Site {
	e.t.Helper()
	site, err := e.svc.CreateSite(e.ctx, name, "")
	if err != nil {
		e.t.Fatal(err)
	}
	return site
}

// widgetTicket opens a ticket from the widget to email.
func (e *env) widgetTicket(v *app.Visit, email string) (*chat.Ticket, error) {
	return e.svc.CreateVisitorTicket(e.ctx, v, app.VisitorTicket{Subject: app.Value("Help with my order"),
		Email: app.Value(email), Name: app.Value("Dee")})
}

func rateLimited(t *testing.T, err error) *app.Error {
	t.Helper()
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code != app.CodeRateLimited || ae.RetryAfter <= 0 {
		t.Fatalf("%v, want %s with a retry delay", err, app.CodeRateLimited)
	}
	return ae
}

// TestWidgetTicketMailCarriesNoVisitorText checks that the confirmation of
// a widget ticket holds nothing the visitor typed, so the widget cannot
// send the operator's mail with a stranger's words to a stranger's address.
func TestWidgetTicketMailCarriesNoVisitorText(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	site := e.site("Acme Shop")
	tk, err := e.svc.CreateVisitorTicket(e.ctx, e.visit(site, false), app.VisitorTicket{
		Subject:     app.Value("Your account is suspended"),
		Description: app.Value("Verify it at https://phish.example/login"),
		Email:       app.Value("victim@example.com"),
		Name:        app.Value("Bank Security Team")})
	if err != nil {
		t.Fatal(err)
	}
	e.step(e.mailer())
	got := e.smtp.Received()
	if len(got) != 1 || !slices.Equal(got[0].To, []string{"victim@example.com"}) {
		t.Fatalf("received %d e-mails (%v), want one to the ticket's address", len(got), got)
	}
	for _, typed := range []string{"suspended", "phish.example", "Bank Security", "Verify"} {
		if strings.Contains(string(got[0].Data), typed) {
			t.Errorf("the e-mail holds %q, typed by the visitor:\n%s", typed, got[0].Data)
		}
	}
	p := parse(t, got[0])
	if s := p.subject(t); s != "[T-1] We have received your request" {
		t.Errorf("subject %q", s)
	}
	contains(t, "text", p.text, "opened ticket T-1", "Acme Shop")
	contains(t, "html", p.html, "<strong>T-1</strong>", "Acme Shop")
	if id := p.header.Get("Message-Id"); id != "<ticket."+tk.ID+"@shop.example>" {
		t.Errorf("Message-ID %q: the confirmation is not the ticket's thread root", id)
	}
}

// TestWidgetTicketsLimited checks the limits on widget tickets: per visitor
// an hour, and per address a day, counted in the database across visitors
// and modes; a refused ticket is not opened and sends nothing.
func TestWidgetTicketsLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	site := e.site("Acme Shop")
	m := e.mailer()

	// One visitor, different addresses.
	v := e.visit(site, true)
	for i := range app.VisitorTicketsPerHour {
		if _, err := e.widgetTicket(v, "person"+string(rune('a'+i))+"@example.com"); err != nil {
			t.Fatal(err)
		}
	}
	rateLimited(t, func() error { _, err := e.widgetTicket(v, "another@example.com"); return err }())

	// Different visitors, one address (in any case, in either mode).
	for i := range app.VisitorTicketsPerAddressPerDay {
		email := "victim@example.com"
		if i == 1 {
			email = "VICTIM@example.com"
		}
		if _, err := e.widgetTicket(e.visit(site, i == 2), email); err != nil {
			t.Fatalf("ticket %d to the address: %v", i+1, err)
		}
		e.clock.Advance(time.Hour)
	}
	e.step(m)
	sent := len(e.smtp.Received())
	if sent != app.VisitorTicketsPerHour+app.VisitorTicketsPerAddressPerDay {
		t.Fatalf("%d e-mails sent", sent)
	}
	// A restart keeps the count: it is read from the outbox.
	e.svc = app.New(e.db, app.Options{Now: e.clock.Now})
	ae := rateLimited(t, func() error { _, err := e.widgetTicket(e.visit(site, false), "Victim@Example.com"); return err }())
	if want := 24*time.Hour - time.Duration(app.VisitorTicketsPerAddressPerDay)*time.Hour; ae.RetryAfter != want {
		t.Errorf("Retry-After %v, want %v (until the first ticket is a day old)", ae.RetryAfter, want)
	}
	e.step(m)
	if n := len(e.smtp.Received()); n != sent {
		t.Errorf("a refused ticket sent %d e-mails", n-sent)
	}
	// The team's own systems are not limited, and keep the full confirmation.
	e.ticket(chat.Live, "victim@example.com", "Victim", "Your order", true)

	e.clock.Advance(ae.RetryAfter)
	tk, err := e.widgetTicket(e.visit(site, false), "victim@example.com")
	if err != nil {
		t.Fatalf("a day after the first ticket: %v", err)
	}
	if tk.Number != 4 { // live: two widget tickets and the REST one; the refused one left no number behind
		t.Errorf("ticket number %d, want 4", tk.Number)
	}
}
