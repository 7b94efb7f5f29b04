package inbound_test

import (
	"bytes"
	"cmp"
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/inbound"
	"chatsvc/mailer"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// domain is the inbound domain of the tests.
const domain = "help.example.com"

// loop is a service with its outgoing mail caught by an SMTP sink and its
// incoming mail taken by the built-in receiver, both on loopback.
type loop struct {
	t      *testing.T
	dir    string
	db     *storage.DB
	svc    *app.Service
	clock  *testenv.Clock
	sink   *testenv.SMTPSink
	mailer *mailer.Mailer
	inAddr string // the receiver's address

	perSender    int
	fileMax      int64 // attachments.max_bytes; 0: 1 MiB
	dkim         mailer.DKIM
	visitorAfter time.Duration // notify.visitor_after; 0: off
}

func newLoop(t *testing.T, perSender int, opts ...func(*loop)) *loop {
	t.Helper()
	l := &loop{t: t, dir: t.TempDir(), clock: testenv.NewClock(testenv.T0, time.Millisecond), sink: testenv.NewSMTPSink(t),
		perSender: perSender}
	for _, o := range opts {
		o(l)
	}
	l.open()
	t.Cleanup(func() { l.db.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.inAddr = ln.Addr().String()
	rx := inbound.NewSMTPServer(l.svc, domain, 64<<10)
	go rx.Serve(ln)
	t.Cleanup(func() { rx.Close(context.Background()) })
	return l
}

// from is the service's sender address, smtp.from.
const from = "Support <support@" + domain + ">"

// open starts the service over the data dir (again, after restart).
func (l *loop) open() {
	l.t.Helper()
	l.db = testenv.Reopen(l.t, l.dir)
	l.svc = app.New(l.db, app.Options{Now: l.clock.Now, PublicURL: "https://chat.example.com", InboundPerSender: l.perSender,
		MailFrom: from,
		Notify:   app.NotifyOptions{VisitorAfter: l.visitorAfter},
		Files:    files.New(files.Options{Dir: filepath.Join(l.dir, "files"), MaxBytes: cmp.Or(l.fileMax, 1<<20), Timeout: time.Second})})
	l.mailer = mailer.New(mailer.Config{Host: "127.0.0.1", Port: l.sink.Port(), TLS: "none", From: from,
		PublicURL: "https://chat.example.com", ReplyDomain: domain, DKIM: l.dkim}, l.svc)
}

// restart stops the service and starts it again on the same data dir, as
// a new process would.
func (l *loop) restart() {
	l.t.Helper()
	if err := l.db.Close(); err != nil {
		l.t.Fatal(err)
	}
	l.open()
}

// send delivers the outbox to the sink and returns what arrived, parsed.
func (l *loop) send() []*mail.Header {
	l.t.Helper()
	before := len(l.sink.Received())
	for more := true; more; {
		var err error
		if more, err = l.mailer.Step(context.Background()); err != nil {
			l.t.Fatal(err)
		}
	}
	var out []*mail.Header
	for _, m := range l.sink.Received()[before:] {
		r, err := mail.CreateReader(bytes.NewReader(m.Data))
		if err != nil {
			l.t.Fatal(err)
		}
		out = append(out, &r.Header)
	}
	return out
}

// deliver sends a raw message to the receiver as from to rcpt.
func (l *loop) deliver(from, rcpt, raw string) error {
	c, err := smtp.Dial(l.inAddr)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.SendMail(from, []string{rcpt}, bytes.NewReader([]byte(raw)))
}

// ticket opens a live ticket "Refund" for a contact, confirmation queued.
func (l *loop) ticket(email string) *chat.Ticket {
	l.t.Helper()
	tkt, err := l.svc.CreateTicket(context.Background(), chat.Live, app.TicketCreate{Subject: app.Value("Refund"),
		Contact: app.Value(app.ContactRef{Email: app.Value(email)})})
	if err != nil {
		l.t.Fatal(err)
	}
	return tkt
}

func (l *loop) comments(ticketID string) []*chat.TicketComment {
	l.t.Helper()
	list, err := l.svc.TicketComments(context.Background(), chat.Live, ticketID, app.ListParams{})
	if err != nil {
		l.t.Fatal(err)
	}
	return list.Data
}

func (l *loop) tickets() []*chat.Ticket {
	l.t.Helper()
	list, err := l.svc.Tickets(context.Background(), chat.Live, app.TicketQuery{})
	if err != nil {
		l.t.Fatal(err)
	}
	return list.Data
}
