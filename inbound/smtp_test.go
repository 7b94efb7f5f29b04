package inbound_test

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/inbound"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// reply writes an answer to an e-mail as a mail client would: to its
// Reply-To, In-Reply-To its Message-ID, the history quoted below, and a
// file attached.
func reply(to, inReplyTo, extraHeaders, text string) string {
	return "From: Ann Lee <ann@example.com>\r\nTo: " + to + "\r\nSubject: Re: your ticket\r\n" +
		"Message-ID: <" + fmt.Sprintf("%x", sha256.Sum256([]byte(text))) + "@example.com>\r\n" +
		"In-Reply-To: <" + inReplyTo + ">\r\n" + extraHeaders +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n" +
		"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + text + "\r\n\r\n" +
		"On Mon, 2 Mar 2026 at 10:00, Support <support@help.example.com> wrote:\r\n> We got your ticket.\r\n> Thanks\r\n" +
		"--b1\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"receipt.pdf\"\r\n\r\n%PDF-1.4 receipt\r\n" +
		"--b1--\r\n"
}

// The whole loop over real SMTP: a ticket's confirmation carries a
// Reply-To and a Message-ID; the contact's answer to it becomes a public
// contact comment with the quote gone and the file kept; an auto-reply to
// the same mail creates nothing; a mail with no thread opens a ticket.
func TestReplyLoopOverSMTP(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	tkt := l.ticket("ann@example.com")
	sent := l.send()
	if len(sent) != 1 {
		t.Fatalf("%d e-mails sent", len(sent))
	}
	conf := sent[0]
	replyTo, _ := conf.AddressList("Reply-To")
	msgID, _ := conf.MessageID()
	if len(replyTo) != 1 || !strings.HasPrefix(replyTo[0].Address, "reply+") || !strings.HasSuffix(replyTo[0].Address, "@"+domain) ||
		msgID == "" || conf.Get("Auto-Submitted") != "auto-generated" {
		t.Fatalf("confirmation headers: Reply-To %v, Message-ID %q, Auto-Submitted %q", replyTo, msgID, conf.Get("Auto-Submitted"))
	}
	if err := l.deliver("ann@example.com", replyTo[0].Address, reply(replyTo[0].Address, msgID, "", "Thanks, the refund arrived.")); err != nil {
		t.Fatal(err)
	}
	cs := l.comments(tkt.ID)
	if len(cs) != 1 {
		t.Fatalf("%d comments", len(cs))
	}
	c := cs[0]
	if c.Author.Type != "contact" || *c.Author.ID != tkt.ContactID || !c.Public || c.Via != "email" ||
		c.Body != "Thanks, the refund arrived." || len(c.Attachments) != 1 || c.Attachments[0].Name != "receipt.pdf" {
		t.Fatalf("comment %+v", c)
	}
	// An out-of-office answer to the same e-mail is no comment.
	auto := reply(replyTo[0].Address, msgID, "Auto-Submitted: auto-replied\r\n", "I am away until Monday.")
	if err := l.deliver("ann@example.com", replyTo[0].Address, auto); err != nil {
		t.Fatal(err)
	}
	if n := len(l.comments(tkt.ID)); n != 1 {
		t.Fatalf("the auto-reply made a comment (%d comments)", n)
	}
	// New mail with no thread opens a ticket for its sender.
	fresh := "From: Bob <bob@example.org>\r\nTo: support@" + domain + "\r\nSubject: Cannot sign in\r\n" +
		"Message-ID: <new-1@example.org>\r\n\r\nMy password is refused.\r\n"
	if err := l.deliver("bob@example.org", "support@"+domain, fresh); err != nil {
		t.Fatal(err)
	}
	ts := l.tickets()
	if len(ts) != 2 || ts[0].Subject != "Cannot sign in" || *ts[0].Description != "My password is refused." {
		t.Fatalf("tickets %+v", ts)
	}
	// Its confirmation goes out, as for any ticket; the same mail delivered
	// again is taken once.
	if err := l.deliver("bob@example.org", "support@"+domain, fresh); err != nil {
		t.Fatal(err)
	}
	if n := len(l.tickets()); n != 2 {
		t.Fatalf("a repeated delivery opened a ticket (%d tickets)", n)
	}
}

// A reply to a solved ticket reopens it; a reply found by References alone
// (no reply address) lands on the same ticket.
func TestReplyReopensSolvedTicket(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	ctx := context.Background()
	tkt := l.ticket("ann@example.com")
	if _, err := l.svc.UpdateTicket(ctx, chat.Live, tkt.ID, app.TicketUpdate{Status: app.Value("solved")}); err != nil {
		t.Fatal(err)
	}
	sent := l.send()
	root, _ := sent[0].MessageID()
	if err := l.deliver("ann@example.com", "support@"+domain, reply("support@"+domain, root, "", "It broke again, sorry.")); err != nil {
		t.Fatal(err)
	}
	got, err := l.svc.Ticket(ctx, chat.Live, tkt.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != "open" || got.SolvedAt != nil || len(l.comments(tkt.ID)) != 1 {
		t.Fatalf("ticket %+v after the reply", got)
	}
}

// Junk never becomes a comment or a ticket: bounces, bulk mail and the
// service's own e-mails coming back.
func TestJunkMailIsDropped(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	l.ticket("ann@example.com")
	sent := l.send()
	own, _ := sent[0].MessageID()
	to := "support@" + domain
	// An alert to the team, which a member answers by mistake.
	alert := &storage.Mail{ID: app.NewID("eml_"), Mode: chat.Live, Template: "conversation_waiting", ToEmail: "agent@example.com",
		Data: []byte(`{}`), Status: "sent", NextAttemptAt: chat.At(l.clock.Now()), CreatedAt: chat.At(l.clock.Now())}
	if err := l.db.Write(context.Background(), func(q *storage.Q) error { return q.InsertMail(context.Background(), alert) }); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ from, raw, rcpt string }{
		"bounce": {"", "From: Mail Delivery System <MAILER-DAEMON@mx.example.com>\r\nTo: " + to +
			"\r\nSubject: Undelivered\r\nMessage-ID: <b1@mx.example.com>\r\n\r\nDelivery failed.\r\n", ""},
		"bulk": {"news@example.net", "From: news@example.net\r\nTo: " + to + "\r\nPrecedence: bulk\r\n" +
			"Subject: Our offers\r\nMessage-ID: <n1@example.net>\r\n\r\nBuy now.\r\n", ""},
		"a member's answer to an alert": {"agent@example.com", "From: agent@example.com\r\nTo: reply+" + alert.ID + "@" + domain +
			"\r\nSubject: Re: A visitor is waiting\r\nMessage-ID: <a1@example.com>\r\n\r\nOn it.\r\n", "reply+" + alert.ID + "@" + domain},
		"own": {"support@" + domain, "From: Support <support@" + domain + ">\r\nTo: " + to + "\r\nSubject: Refund\r\n" +
			"Message-ID: <" + own + ">\r\n\r\nWe got your ticket.\r\n", ""},
		// From the service's own address, with a Message-ID it never made.
		"own address": {"Support@" + domain, "From: Support <Support@" + domain + ">\r\nTo: " + to + "\r\nSubject: loop\r\n" +
			"Message-ID: <x1@elsewhere.example>\r\n\r\nA loop.\r\n", ""},
	} {
		if err := l.deliver(c.from, cmp.Or(c.rcpt, to), c.raw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if n := len(l.tickets()); n != 1 {
		t.Fatalf("junk opened tickets: %d tickets", n)
	}
}

// The receiver refuses, with a clear SMTP reply, mail for other domains,
// messages over the size limit, and senders over their hourly count.
func TestReceiverRefusals(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 2)
	var se *smtp.SMTPError
	err := l.deliver("ann@example.com", "someone@elsewhere.example", "Subject: x\r\n\r\nx\r\n")
	if !errors.As(err, &se) || se.Code != 550 {
		t.Fatalf("relay: %v", err)
	}
	big := "From: ann@example.com\r\nSubject: big\r\n\r\n" + strings.Repeat(strings.Repeat("x", 70)+"\r\n", 1000) + "\r\n"
	if err := l.deliver("ann@example.com", "support@"+domain, big); !errors.As(err, &se) || se.Code != 552 {
		t.Fatalf("too large: %v", err)
	}
	for i, want := range []int{0, 0, 450} {
		raw := "From: ann@example.com\r\nSubject: n" + string(rune('0'+i)) + "\r\nMessage-ID: <r" + string(rune('0'+i)) +
			"@example.com>\r\n\r\nHello\r\n"
		err := l.deliver("ann@example.com", "support@"+domain, raw)
		if want == 0 && err != nil || want != 0 && (!errors.As(err, &se) || se.Code != want) {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if n := len(l.tickets()); n != 2 {
		t.Fatalf("%d tickets", n)
	}
}

// The receiver holds at most inbound.MaxSMTPSessions sessions: one more is
// told 421 (a real server comes back later), and a closed one frees its
// place.
func TestReceiverBoundsSessions(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	hello := func() (*smtp.Client, error) {
		c, err := smtp.Dial(l.inAddr)
		if err != nil {
			return nil, err
		}
		if err := c.Hello("client.example"); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
	var open []*smtp.Client
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	for range inbound.MaxSMTPSessions {
		c, err := hello()
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
	}
	var se *smtp.SMTPError
	if _, err := hello(); !errors.As(err, &se) || se.Code != 421 {
		t.Fatalf("one session too many: %v", err)
	}
	open[0].Quit()
	open = open[1:]
	var c *smtp.Client
	testenv.Eventually(t, "a closed session frees its place", func() bool {
		var err error
		c, err = hello()
		return err == nil
	})
	c.Close()
}
