package inbound_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"chatsvc/app"
)

// prizeMail is a new mail whose From and Subject carry an attacker's text.
func prizeMail(sender string, n int) string {
	return "From: \"Claim your prize at http://evil.example/win\" <" + sender + ">\r\nTo: support@" + domain +
		"\r\nSubject: URGENT: verify at http://evil.example/login\r\n" +
		fmt.Sprintf("Message-ID: <prize-%d-%s>\r\n", n, sender) + "\r\nClick http://evil.example/now\r\n"
}

// A mail that opens a ticket is confirmed with the ticket's number only:
// nothing of its From, Subject or body reaches the address it names, and
// one address gets at most VisitorTicketsPerAddressPerDay confirmations a
// day. The tickets are opened all the same.
func TestNewMailConfirmationCarriesNoMailText(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	for i := range app.VisitorTicketsPerAddressPerDay + 2 {
		if err := l.deliver("victim@third.example", "support@"+domain, prizeMail("victim@third.example", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(l.tickets()); n != app.VisitorTicketsPerAddressPerDay+2 {
		t.Fatalf("%d tickets opened", n)
	}
	before := len(l.sink.Received())
	sent := l.send()
	if len(sent) != app.VisitorTicketsPerAddressPerDay {
		t.Fatalf("%d confirmations to one address, want %d", len(sent), app.VisitorTicketsPerAddressPerDay)
	}
	for _, m := range l.sink.Received()[before:] {
		if s := string(m.Data); strings.Contains(s, "evil") || strings.Contains(s, "prize") || strings.Contains(s, "URGENT") {
			t.Fatalf("the confirmation carries the mail's text:\n%s", s)
		}
	}
}

// Across addresses, at most InboundConfirmationsPerHour confirmations of
// tickets opened by mail are queued in an hour.
func TestNewMailConfirmationsAreLimitedOverall(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	ctx := context.Background()
	for i := range app.InboundConfirmationsPerHour + 3 {
		sender := fmt.Sprintf("victim%d@third.example", i)
		m := app.InboundMail{MessageID: fmt.Sprintf("p%d@x", i), From: sender, Subject: "Hello", Text: "Hi",
			Recipients: []string{"support@" + domain}}
		if out, err := l.svc.ReceiveMail(ctx, m); err != nil || out != app.InboundTicket {
			t.Fatalf("mail %d: %q, %v", i, out, err)
		}
	}
	if n := len(l.send()); n != app.InboundConfirmationsPerHour {
		t.Fatalf("%d confirmations, want %d", n, app.InboundConfirmationsPerHour)
	}
	l.clock.Advance(61 * time.Minute)
	m := app.InboundMail{MessageID: "later@x", From: "later@third.example", Subject: "Hello", Text: "Hi"}
	if _, err := l.svc.ReceiveMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	if n := len(l.send()); n != 1 {
		t.Fatalf("an hour later: %d confirmations", n)
	}
}

// The files of a mail that opens a ticket are kept on it: the ticket's
// first comment, from the contact, holds them.
func TestNewMailKeepsItsAttachments(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	raw := strings.Replace(reply("support@"+domain, "nothing@example.com", "", "My receipt is attached."),
		"Subject: Re: your ticket", "Subject: Refund please", 1)
	if err := l.deliver("ann@example.com", "support@"+domain, raw); err != nil {
		t.Fatal(err)
	}
	ts := l.tickets()
	if len(ts) != 1 || ts[0].Subject != "Refund please" {
		t.Fatalf("tickets %+v", ts)
	}
	cs := l.comments(ts[0].ID)
	if len(cs) != 1 || len(cs[0].Attachments) != 1 || cs[0].Attachments[0].Name != "receipt.pdf" ||
		cs[0].Author.Type != "contact" || *cs[0].Author.ID != ts[0].ContactID || cs[0].Via != "email" {
		t.Fatalf("comments %+v", cs)
	}
}

// storedFiles counts the files of the loop's file store.
func (l *loop) storedFiles() int {
	l.t.Helper()
	n := 0
	root := filepath.Join(l.dir, "files")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(p, filepath.Join(root, "tmp")) {
			n++
		}
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		l.t.Fatal(err)
	}
	return n
}

// Attachments are written for mail that is taken only: a repeated mail
// and a mail over its sender's hourly limit leave no file behind.
func TestRefusedMailLeavesNoFile(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 1)
	first := reply("support@"+domain, "nothing@example.com", "", "Here is the receipt.")
	if err := l.deliver("ann@example.com", "support@"+domain, first); err != nil {
		t.Fatal(err)
	}
	if n := l.storedFiles(); n != 1 {
		t.Fatalf("%d files after the first mail", n)
	}
	if err := l.deliver("ann@example.com", "support@"+domain, first); err != nil {
		t.Fatal(err)
	}
	second := strings.Replace(reply("support@"+domain, "nothing@example.com", "", "And another one."),
		"%PDF-1.4 receipt", "%PDF-1.4 another receipt, other bytes", 1)
	var se *smtp.SMTPError
	if err := l.deliver("ann@example.com", "support@"+domain, second); !errors.As(err, &se) || se.Code != 450 {
		t.Fatalf("over the limit: %v", err)
	}
	if n := l.storedFiles(); n != 1 {
		t.Fatalf("%d files after a repeated and a refused mail, want 1", n)
	}
}

// bigAttachment is a new mail with a 10 KB attachment.
func bigAttachment(id string) string {
	return "From: ann@example.com\r\nTo: support@" + domain + "\r\nSubject: Video\r\nMessage-ID: <" + id + ">\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n" +
		"--b1\r\nContent-Type: text/plain\r\n\r\nSee the file.\r\n" +
		"--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"big.bin\"\r\n\r\n" +
		strings.Repeat(strings.Repeat("x", 70)+"\r\n", 150) + "--b1--\r\n"
}

// A mail whose attachment is over attachments.max_bytes can never be
// taken: the receiver refuses it for good (5xx, not 4xx), and the poller
// records why and takes the next message.
func TestAttachmentOverTheLimitIsRefusedForGood(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0, func(l *loop) { l.fileMax = 1 << 10 })
	var se *smtp.SMTPError
	if err := l.deliver("ann@example.com", "support@"+domain, bigAttachment("big-1@example.com")); !errors.As(err, &se) || se.Code != 552 {
		t.Fatalf("over SMTP: %v", err)
	}
	mb := newMailbox(t)
	mb.add(t, bigAttachment("big-2@example.com"))
	mb.add(t, "From: bob@example.org\r\nTo: support@"+domain+"\r\nSubject: Bob\r\nMessage-ID: <bob-1@example.org>\r\n\r\nHi\r\n")
	for range 2 {
		if _, err := mb.poller(l.svc).Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if ts := l.tickets(); len(ts) != 1 || ts[0].Subject != "Bob" {
		t.Fatalf("tickets %+v", ts)
	}
	rec, err := l.db.Read().InboundMail(context.Background(), "big-2@example.com")
	if err != nil || rec.Outcome != app.InboundAttachmentTooLarge {
		t.Fatalf("record %+v, %v", rec, err)
	}
}
