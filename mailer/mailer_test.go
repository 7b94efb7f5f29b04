package mailer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/mailer"
	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/testenv/apienv"
)

type env struct {
	t     *testing.T
	ctx   context.Context
	db    *storage.DB
	svc   *app.Service
	clock *testenv.Clock
	smtp  *testenv.SMTPSink
	dir   string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	a := apienv.NewService(t, apienv.Options{App: func(_ string, o *app.Options) { o.PublicURL = "" }})
	return &env{t: t, ctx: context.Background(), db: a.DB, svc: a.Svc, clock: a.Clock, smtp: testenv.NewSMTPSink(t), dir: a.Dir}
}

// mailer returns a mailer that sends to the test server with STARTTLS.
func (e *env) mailer(change ...func(*mailer.Config)) *mailer.Mailer {
	cfg := mailer.Config{Host: "127.0.0.1", Port: e.smtp.Port(), TLS: "starttls", TLSConfig: e.smtp.Client,
		From: "Support <support@shop.example>", PublicURL: "https://chat.shop.example",
		TemplateDir: filepath.Join(e.dir, mailer.TemplateDirName), Timeout: 5 * time.Second}
	for _, f := range change {
		f(&cfg)
	}
	return mailer.New(cfg, e.svc)
}

// step runs one round of the worker.
func (e *env) step(m *mailer.Mailer) {
	e.t.Helper()
	if _, err := m.Step(e.ctx); err != nil {
		e.t.Fatal(err)
	}
}

// ticket opens a ticket for a new contact by e-mail.
func (e *env) ticket(mode chat.Mode, email, name, subject string, notify bool) *chat.Ticket {
	e.t.Helper()
	in := app.TicketCreate{Subject: app.Value(subject), Contact: app.Value(app.ContactRef{Email: app.Value(email)}),
		NotifyContact: app.Value(notify)}
	if name != "" {
		in.Contact.V.Name = app.Value(name)
	}
	tk, err := e.svc.CreateTicket(e.ctx, mode, in)
	if err != nil {
		e.t.Fatal(err)
	}
	return tk
}

// override writes a template file of the data dir, which replaces the
// built-in one of the same name.
func (e *env) override(file, text string) {
	e.t.Helper()
	dir := filepath.Join(e.dir, mailer.TemplateDirName)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) setStatus(tk *chat.Ticket, status string) {
	e.t.Helper()
	if _, err := e.svc.UpdateTicket(e.ctx, tk.Mode, tk.ID, app.TicketUpdate{Status: app.Value(status)}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) outbox(ticketID string) []*storage.Mail {
	e.t.Helper()
	ms, err := e.db.Read().MailsOfTicket(e.ctx, ticketID)
	if err != nil {
		e.t.Fatal(err)
	}
	return ms
}

// onlyMail returns the one e-mail received, decoded.
func (e *env) onlyMail() parsed {
	e.t.Helper()
	got := e.smtp.Received()
	if len(got) != 1 {
		e.t.Fatalf("%d e-mails received, want 1", len(got))
	}
	return parse(e.t, got[0])
}

// parsed is a received e-mail, decoded.
type parsed struct {
	header mail.Header
	text   string
	html   string
}

func parse(t *testing.T, r testenv.Mail) parsed {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		t.Fatalf("unreadable e-mail: %v\n%s", err, r.Data)
	}
	p := parsed{header: m.Header}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q, want multipart/alternative", m.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		part, err := mr.NextRawPart()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		var body io.Reader = part
		if part.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
			body = quotedprintable.NewReader(part)
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		switch ct {
		case "text/plain":
			p.text = string(b)
		case "text/html":
			p.html = string(b)
		}
	}
	return p
}

func (p parsed) subject(t *testing.T) string {
	t.Helper()
	s, err := new(mime.WordDecoder).DecodeHeader(p.header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

func TestTicketMailsAreSentThreaded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.mailer()
	tk := e.ticket(chat.Live, "ada@example.com", "Ada Lovelace", "Refund for order 42", true)
	e.clock.Advance(time.Minute)
	e.setStatus(tk, app.TicketPending)
	e.clock.Advance(time.Minute)
	e.setStatus(tk, app.TicketSolved)
	quiet := e.ticket(chat.Live, "quiet@example.com", "", "No mail please", false)
	if _, err := e.svc.UpdateTicket(e.ctx, chat.Live, quiet.ID, app.TicketUpdate{Status: app.Value(app.TicketClosed),
		NotifyContact: app.Value(false)}); err != nil {
		t.Fatal(err)
	}
	e.ticket(chat.Test, "tester@example.com", "", "Trying things", true)

	e.step(m)
	got := e.smtp.Received()
	if len(got) != 4 {
		t.Fatalf("%d e-mails received, want 4 (three about the ticket, one in test mode)", len(got))
	}
	for i, r := range got {
		if !r.TLS {
			t.Errorf("e-mail %d was sent without STARTTLS", i)
		}
		if r.From != "support@shop.example" {
			t.Errorf("envelope sender %q", r.From)
		}
	}
	for i, r := range got[:3] {
		if !slices.Equal(r.To, []string{"ada@example.com"}) {
			t.Errorf("e-mail %d went to %v", i, r.To)
		}
	}
	if !slices.Equal(got[3].To, []string{"tester@example.com"}) {
		t.Errorf("test-mode e-mail went to %v", got[3].To)
	}
	created, updated, solved, test := parse(t, got[0]), parse(t, got[1]), parse(t, got[2]), parse(t, got[3])

	cases := []struct {
		name    string
		p       parsed
		subject string
		body    []string
	}{
		{"created", created, "[T-1] Refund for order 42", []string{"Hello Ada Lovelace,", "opened ticket T-1", "Refund for order 42"}},
		{"updated", updated, "[T-1] Refund for order 42: waiting for your reply", []string{"T-1 (Refund for order 42) is now waiting for your reply", "waiting for a reply from you"}},
		{"solved", solved, "[T-1] Solved: Refund for order 42", []string{"T-1 (Refund for order 42) has been solved"}},
		{"test mode", test, "[TEST] [T-1] Trying things", []string{"Hello,", "opened ticket T-1"}},
	}
	for _, c := range cases {
		if s := c.p.subject(t); s != c.subject {
			t.Errorf("%s: subject %q, want %q", c.name, s, c.subject)
		}
		contains(t, c.name+" text", c.p.text, c.body...)
		contains(t, c.name+" html", c.p.html, "<strong>T-1</strong>")
		if c.p.header.Get("From") != "\"Support\" <support@shop.example>" && c.p.header.Get("From") != "Support <support@shop.example>" {
			t.Errorf("%s: From %q", c.name, c.p.header.Get("From"))
		}
	}
	to, err := created.header.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Name != "Ada Lovelace" || to[0].Address != "ada@example.com" {
		t.Errorf("To %v (%v)", to, err)
	}

	// Threading: the confirmation is the thread's root, the others refer to it.
	root := "<ticket." + tk.ID + "@shop.example>"
	if id := created.header.Get("Message-Id"); id != root {
		t.Errorf("confirmation Message-ID %q, want %q", id, root)
	}
	rows := e.outbox(tk.ID)
	for i, p := range []parsed{updated, solved} {
		if id := p.header.Get("Message-Id"); id != "<"+rows[i+1].ID+"@shop.example>" {
			t.Errorf("Message-ID %q, want the outbox id", id)
		}
		if p.header.Get("In-Reply-To") != root || p.header.Get("References") != root {
			t.Errorf("In-Reply-To %q, References %q, want %s", p.header.Get("In-Reply-To"), p.header.Get("References"), root)
		}
	}
	// Date: when each e-mail was promised.
	for i, p := range []parsed{created, updated, solved} {
		d, err := p.header.Date()
		if err != nil || !d.Equal(rows[i].CreatedAt.Time()) {
			t.Errorf("Date %v (%v), want %v", d, err, rows[i].CreatedAt.Time())
		}
	}
	// The outbox records what was done; nothing is sent twice.
	for _, r := range rows {
		if r.Status != chat.MailSent || r.Attempts != 1 || r.SentAt == nil || r.LastError != nil {
			t.Errorf("outbox row after sending: %+v", r)
		}
	}
	if n := len(e.outbox(quiet.ID)); n != 0 {
		t.Errorf("notify_contact false queued %d e-mails", n)
	}
	e.clock.Advance(time.Hour)
	e.step(m)
	if n := len(e.smtp.Received()); n != 4 {
		t.Errorf("%d e-mails after a second round, want still 4", n)
	}
}

func TestOutboxWaitsWhileServerIsDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.smtp.Stop()
	m := e.mailer()
	tk := e.ticket(chat.Live, "ada@example.com", "", "Where is my parcel?", true)
	created := e.clock.Now()

	e.step(m)
	row := e.outbox(tk.ID)[0]
	if row.Status != chat.MailPending || row.Attempts != 1 || row.LastError == nil ||
		row.NextAttemptAt.Time() != created.Add(app.MailRetry.Delays[0]) {
		t.Fatalf("after a failed connection: %+v", row)
	}
	// Not due yet: no attempt.
	e.step(m)
	if row := e.outbox(tk.ID)[0]; row.Attempts != 1 {
		t.Fatalf("attempted again before the delay: %+v", row)
	}
	// Due: a second attempt, then a doubled delay.
	e.clock.Advance(app.MailRetry.Delays[0])
	e.step(m)
	row = e.outbox(tk.ID)[0]
	if row.Attempts != 2 || row.NextAttemptAt.Time() != e.clock.Now().Add(2*app.MailRetry.Delays[0]) {
		t.Fatalf("after the second attempt: %+v", row)
	}

	// The server comes back; a new mailer (a restart) picks the e-mail up
	// when it is due, and sends it once.
	e.smtp.Start()
	m = e.mailer()
	e.clock.Advance(2 * app.MailRetry.Delays[0])
	e.step(m)
	got := e.smtp.Received()
	if len(got) != 1 || !slices.Equal(got[0].To, []string{"ada@example.com"}) {
		t.Fatalf("received %d e-mails after the server came back", len(got))
	}
	if row := e.outbox(tk.ID)[0]; row.Status != chat.MailSent || row.Attempts != 3 {
		t.Fatalf("after delivery: %+v", row)
	}
	if s := parse(t, got[0]).subject(t); s != "[T-1] Where is my parcel?" {
		t.Errorf("subject %q", s)
	}
}

func TestMailRetryDelays(t *testing.T) {
	t.Parallel()
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute,
		32 * time.Minute, time.Hour, time.Hour}
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for i, w := range want {
		if next, ok := app.MailRetry.Next(i+1, start, start); !ok || next.Sub(start) != w {
			t.Errorf("after %d failures: %s (%v), want %s", i+1, next.Sub(start), ok, w)
		}
	}
	if _, ok := app.MailRetry.Next(99, start, start.Add(app.MailRetry.GiveUpAfter)); ok {
		t.Error("retried past the give-up time")
	}
}

func TestPermanentAndTemporaryRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.mailer()
	e.smtp.Refuse("gone@example.com", 550, "No such mailbox")
	e.smtp.Refuse("full@example.com", 452, "Mailbox full, try later")
	gone := e.ticket(chat.Live, "gone@example.com", "", "A", true)
	full := e.ticket(chat.Live, "full@example.com", "", "B", true)
	fine := e.ticket(chat.Live, "fine@example.com", "", "C", true)
	e.step(m)

	g, f, ok := e.outbox(gone.ID)[0], e.outbox(full.ID)[0], e.outbox(fine.ID)[0]
	if g.Status != chat.MailFailed || g.LastError == nil || !strings.Contains(*g.LastError, "550") ||
		!strings.Contains(*g.LastError, "No such mailbox") {
		t.Errorf("5xx: %+v (%v)", g, deref(g.LastError))
	}
	if f.Status != chat.MailPending || f.Attempts != 1 || f.LastError == nil || !strings.Contains(*f.LastError, "452") {
		t.Errorf("4xx: %+v (%v)", f, deref(f.LastError))
	}
	if ok.Status != chat.MailSent {
		t.Errorf("the good address: %+v", ok)
	}
	// The permanent failure is never tried again; the temporary one is, and
	// goes through once the mailbox accepts.
	e.smtp.Refuse("full@example.com", 0, "")
	e.smtp.Refuse("gone@example.com", 0, "")
	e.clock.Advance(app.MailRetry.Delays[0])
	e.step(m)
	if f := e.outbox(full.ID)[0]; f.Status != chat.MailSent || f.Attempts != 2 {
		t.Errorf("4xx after recovery: %+v", f)
	}
	if g := e.outbox(gone.ID)[0]; g.Status != chat.MailFailed || g.Attempts != 1 {
		t.Errorf("5xx was retried: %+v", g)
	}
	var to []string
	for _, r := range e.smtp.Received() {
		to = append(to, r.To...)
	}
	slices.Sort(to)
	if !slices.Equal(to, []string{"fine@example.com", "full@example.com"}) {
		t.Errorf("delivered to %v", to)
	}
}

func TestGivesUpAfterThreeDays(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.mailer()
	e.smtp.Refuse("busy@example.com", 421, "Busy")
	tk := e.ticket(chat.Live, "busy@example.com", "", "A", true)
	for i := 0; i < 200; i++ {
		e.step(m)
		if e.outbox(tk.ID)[0].Status != chat.MailPending {
			break
		}
		e.clock.Advance(time.Hour)
	}
	row := e.outbox(tk.ID)[0]
	if row.Status != chat.MailFailed || !strings.Contains(deref(row.LastError), "gave up after") {
		t.Fatalf("after three days of 4xx: %+v (%s)", row, deref(row.LastError))
	}
	if elapsed := e.clock.Now().Sub(row.CreatedAt.Time()); elapsed > app.MailRetry.GiveUpAfter || elapsed < app.MailRetry.GiveUpAfter-2*time.Hour {
		t.Fatalf("gave up after %s", elapsed)
	}
}

func TestNoSMTPHostKeepsMail(t *testing.T) {
	e := newEnv(t)
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	off := e.mailer(func(c *mailer.Config) { c.Host = "" })
	tk := e.ticket(chat.Live, "ada@example.com", "", "A", true)
	for i := 0; i < 3; i++ {
		e.step(off)
		e.ticket(chat.Live, "more@example.com", "", "B", true)
		e.clock.Advance(time.Hour)
	}
	if row := e.outbox(tk.ID)[0]; row.Status != chat.MailPending || row.Attempts != 0 {
		t.Fatalf("without a host: %+v", row)
	}
	if n := strings.Count(logs.String(), "smtp.host is not set"); n != 1 {
		t.Fatalf("logged %d times, want once:\n%s", n, logs.String())
	}
	// Once a host is configured (a restart with the setting), it is sent.
	e.step(e.mailer())
	if row := e.outbox(tk.ID)[0]; row.Status != chat.MailSent || len(e.smtp.Received()) != 4 {
		t.Fatalf("with a host: %+v, %d received", row, len(e.smtp.Received()))
	}
}

func TestWebhookEndpointDisabledMail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	data, _ := json.Marshal(map[string]any{
		"endpoint": map[string]any{"id": "whe_123", "object": "webhook_endpoint", "url": "https://hooks.shop.example/in",
			"events": []string{"*"}, "enabled": false, "description": "Order sync", "created_at": "2026-10-01T12:00:00.000Z"},
		"reason": "HTTP 503 from the receiver",
	})
	now := chat.At(e.clock.Now())
	err := e.db.Write(e.ctx, func(q *storage.Q) error {
		return q.InsertMail(e.ctx, &storage.Mail{ID: app.NewID(app.PrefixMail), Mode: chat.Live,
			Template: "webhook_endpoint_disabled", ToEmail: "owner@shop.example", Data: data, NextAttemptAt: now, CreatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	e.step(e.mailer())
	got := e.smtp.Received()
	if len(got) != 1 || !slices.Equal(got[0].To, []string{"owner@shop.example"}) {
		t.Fatalf("received %v", got)
	}
	p := parse(t, got[0])
	if s := p.subject(t); s != "Webhook endpoint disabled: https://hooks.shop.example/in" {
		t.Errorf("subject %q", s)
	}
	contains(t, "text", p.text, "whe_123", "https://hooks.shop.example/in", "Order sync", "HTTP 503 from the receiver",
		"PATCH /v1/webhook-endpoints/whe_123")
	contains(t, "html", p.html, "<code>whe_123</code>", "HTTP 503 from the receiver")
	if p.header.Get("In-Reply-To") != "" {
		t.Errorf("an operational e-mail has In-Reply-To %q", p.header.Get("In-Reply-To"))
	}
}

func TestTemplatesOverriddenFromDataDir(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.override("ticket_created.txt", "{{define \"subject\"}}Ticket {{.ticket.number}} is in{{end}}Hi {{.recipient.email}}: {{.ticket.subject}}\n")
	e.ticket(chat.Live, "ada@example.com", "", "Broken <b>zip</b>", true)
	e.step(e.mailer())
	p := e.onlyMail()
	if s := p.subject(t); s != "Ticket 1 is in" {
		t.Errorf("subject %q", s)
	}
	contains(t, "text", p.text, "Hi ada@example.com: Broken <b>zip</b>")
	// The HTML part was not overridden: the built-in one, with the subject escaped.
	contains(t, "html", p.html, "Broken &lt;b&gt;zip&lt;/b&gt;", "opened ticket")
}

func TestUnknownTemplateFailsForGood(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := chat.At(e.clock.Now())
	id := app.NewID(app.PrefixMail)
	err := e.db.Write(e.ctx, func(q *storage.Q) error {
		return q.InsertMail(e.ctx, &storage.Mail{ID: id, Mode: chat.Live, Template: "no_such_mail",
			ToEmail: "a@example.com", Data: json.RawMessage(`{}`), NextAttemptAt: now, CreatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	e.step(e.mailer())
	row, err := e.db.Read().Mail(e.ctx, id)
	if err != nil || row.Status != chat.MailFailed || !strings.Contains(deref(row.LastError), "no_such_mail") {
		t.Fatalf("%+v %v", row, err)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func TestImplicitTLS(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.smtp.Stop()
	e.smtp.Implicit = true
	e.smtp.Start()
	tk := e.ticket(chat.Live, "ada@example.com", "", "A", true)
	// A client expecting STARTTLS cannot talk to it (it waits for a greeting
	// that never comes); one set to tls can.
	e.step(e.mailer(func(c *mailer.Config) { c.Timeout = 300 * time.Millisecond }))
	if row := e.outbox(tk.ID)[0]; row.Status != chat.MailPending || row.LastError == nil {
		t.Fatalf("starttls against implicit TLS: %+v", row)
	}
	e.clock.Advance(app.MailRetry.Delays[0])
	e.step(e.mailer(func(c *mailer.Config) { c.TLS = "tls" }))
	got := e.smtp.Received()
	if len(got) != 1 || !got[0].TLS {
		t.Fatalf("received %d e-mails (TLS %v)", len(got), len(got) == 1 && got[0].TLS)
	}
}

func TestErasureScrubsSentMail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tk := e.ticket(chat.Live, "ada@example.com", "Ada Lovelace", "Refund for Ada Lovelace", true)
	e.step(e.mailer())
	e.setStatus(tk, app.TicketPending) // queued, not sent
	if _, err := e.svc.DeleteContact(e.ctx, chat.Live, tk.ContactID); err != nil {
		t.Fatal(err)
	}
	rows := e.outbox(tk.ID)
	if len(rows) != 1 {
		t.Fatalf("%d outbox rows after erasure, want the sent one only", len(rows))
	}
	r := rows[0]
	if r.Status != chat.MailSent || r.ToEmail != "" || r.ToName != nil || string(r.Data) != "{}" || r.ContactID != nil {
		t.Fatalf("sent e-mail after erasure: %+v (%s)", r, r.Data)
	}
	e.step(e.mailer())
	if n := len(e.smtp.Received()); n != 1 {
		t.Fatalf("%d e-mails sent, want only the one before erasure", n)
	}
}

func TestReplicaFailingMail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	err := e.svc.MailReplicaFailing(e.ctx, "owner@shop.example", app.ReplicaBehind{Replica: "s3://backups/chat",
		Lag: 11 * time.Minute, LastSync: time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC), Reason: "connection refused"})
	if err != nil {
		t.Fatal(err)
	}
	e.step(e.mailer())
	got := e.smtp.Received()
	if len(got) != 1 || !slices.Equal(got[0].To, []string{"owner@shop.example"}) {
		t.Fatalf("received %v", got)
	}
	p := parse(t, got[0])
	if s := p.subject(t); s != "The replica of chatsvc is 11m0s behind" {
		t.Errorf("subject %q", s)
	}
	contains(t, "text", p.text, "s3://backups/chat", "2026-10-01 12:00:00 UTC", "connection refused")
	contains(t, "html", p.html, "<code>s3://backups/chat</code>", "connection refused")
	if err := e.svc.MailReplicaFailing(e.ctx, "", app.ReplicaBehind{}); err != nil {
		t.Fatal(err)
	}
	if e.step(e.mailer()); len(e.smtp.Received()) != 1 {
		t.Fatal("no owner_email must send nothing")
	}
}

// TestTicketMailShowsTheTicketAsWritten: an e-mail about a ticket keeps no
// copy of it in its row but points at the event its write recorded, so the
// e-mail sent later (after a restart, here a new mailer on the same
// database) says what was true when it was promised, with every field of
// the ticket as the API shows it, and goes once.
func TestTicketMailShowsTheTicketAsWritten(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.override("ticket_created.txt", "{{define \"subject\"}}{{.ticket.subject}}{{end}}{{.ticket.id}} {{.ticket.status}} {{.ticket.priority}}\n")
	tk := e.ticket(chat.Live, "ada@example.com", "Ada", "Refund for order 42", true)
	if _, err := e.svc.UpdateTicket(e.ctx, chat.Live, tk.ID, app.TicketUpdate{Subject: app.Value("Renamed later"),
		Priority: app.Value("urgent")}); err != nil {
		t.Fatal(err)
	}
	rows := e.outbox(tk.ID)
	if len(rows) != 1 || string(rows[0].Data) != "{}" || rows[0].TicketEvent == nil {
		t.Fatalf("outbox rows %+v, want one with no copy of the ticket and its event's seq", rows)
	}
	e.step(e.mailer())
	e.step(e.mailer())
	p := e.onlyMail()
	if s := p.subject(t); s != "Refund for order 42" {
		t.Errorf("subject %q, want the ticket's subject when the e-mail was queued", s)
	}
	contains(t, "text", p.text, tk.ID+" open normal")
}
