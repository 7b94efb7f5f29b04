package inbound_test

import (
	"bytes"
	"context"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"chatsvc/app"
	"chatsvc/inbound"
)

// mailbox is go-imap's in-memory server with one account, on loopback.
type mailbox struct {
	user *imapmemserver.User
	addr string
}

func newMailbox(t *testing.T) *mailbox {
	t.Helper()
	mem := imapmemserver.New()
	user := imapmemserver.NewUser("support", "secret")
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(user)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return &mailbox{user: user, addr: ln.Addr().String()}
}

func (mb *mailbox) add(t *testing.T, raw string) {
	t.Helper()
	if _, err := mb.user.Append("INBOX", bytes.NewReader([]byte(raw)), &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (mb *mailbox) poller(svc inbound.Mailbox) *inbound.IMAPPoller {
	host, port, _ := net.SplitHostPort(mb.addr)
	p, _ := strconv.Atoi(port)
	return inbound.NewIMAPPoller(inbound.IMAPConfig{Host: host, Port: p, Username: "support", Password: "secret",
		TLS: "none", Mailbox: "INBOX", MaxBytes: 64 << 10}, svc)
}

// stopAfter takes n messages, then ends the poll as a crash would.
type stopAfter struct {
	inbound.Mailbox
	n      int
	cancel context.CancelFunc
}

func (s *stopAfter) ReceiveMail(ctx context.Context, m app.InboundMail) (string, error) {
	out, err := s.Mailbox.ReceiveMail(ctx, m)
	if s.n--; s.n == 0 {
		s.cancel()
	}
	return out, err
}

// The loop through a polled mailbox: the reply lands on its ticket, the
// auto-reply is dropped, new mail opens a ticket; the service restarts
// after the first message and takes each of the others once.
func TestReplyLoopOverIMAP(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	mb := newMailbox(t)
	tkt := l.ticket("ann@example.com")
	conf := l.send()[0]
	replyTo, _ := conf.AddressList("Reply-To")
	msgID, _ := conf.MessageID()
	mb.add(t, reply(replyTo[0].Address, msgID, "", "Thanks, the refund arrived."))
	mb.add(t, reply(replyTo[0].Address, msgID, "Auto-Submitted: auto-replied\r\n", "I am away until Monday."))
	mb.add(t, "From: Bob <bob@example.org>\r\nTo: support@"+domain+"\r\nSubject: Cannot sign in\r\n"+
		"Message-ID: <new-1@example.org>\r\n\r\nMy password is refused.\r\n")

	ctx, cancel := context.WithCancel(context.Background())
	if _, err := mb.poller(&stopAfter{Mailbox: l.svc, n: 1, cancel: cancel}).Step(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(l.comments(tkt.ID)); n != 1 {
		t.Fatalf("%d comments after the first message", n)
	}
	if n := len(l.tickets()); n != 1 {
		t.Fatalf("%d tickets after the first message", n)
	}
	l.restart()
	for range 2 { // the second poll finds nothing new
		if _, err := mb.poller(l.svc).Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	cs := l.comments(tkt.ID)
	if len(cs) != 1 || cs[0].Via != "email" || cs[0].Body != "Thanks, the refund arrived." {
		t.Fatalf("comments %+v", cs)
	}
	ts := l.tickets()
	if len(ts) != 2 || ts[0].Subject != "Cannot sign in" {
		t.Fatalf("tickets %+v", ts)
	}
}

// seen lists the UIDs of the mailbox's messages flagged \Seen.
func (mb *mailbox) seen(t *testing.T) []imap.UID {
	t.Helper()
	c, err := imapclient.DialInsecure(mb.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("support", "secret").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return data.AllUIDs()
}

// A mail refused for its sender's hourly limit stays in the mailbox unread
// and is taken by a poll once the hour has passed, while the mail after it
// is taken at once: thirty forged mails in a customer's name cannot make
// the customer's own mail vanish.
func TestIMAPMailOverTheLimitIsTakenLater(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 2)
	mb := newMailbox(t)
	for i, text := range []string{"forged one", "forged two", "the real one"} {
		mb.add(t, "From: ann@example.com\r\nTo: support@"+domain+"\r\nSubject: s"+strconv.Itoa(i)+
			"\r\nMessage-ID: <ann-"+strconv.Itoa(i)+"@example.com>\r\n\r\n"+text+"\r\n")
	}
	mb.add(t, "From: bob@example.org\r\nTo: support@"+domain+"\r\nSubject: Bob\r\nMessage-ID: <bob-1@example.org>\r\n\r\nHi\r\n")
	poll := func() {
		t.Helper()
		if _, err := mb.poller(l.svc).Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	poll()
	if n, seen := len(l.tickets()), mb.seen(t); n != 3 || !slices.Equal(seen, []imap.UID{1, 2, 4}) {
		t.Fatalf("%d tickets, seen %v after the first poll", n, seen)
	}
	poll()
	if n := len(l.tickets()); n != 3 {
		t.Fatalf("%d tickets within the hour", n)
	}
	l.clock.Advance(time.Hour + time.Minute)
	poll()
	ts := l.tickets()
	if len(ts) != 4 || ts[0].Subject != "s2" || len(mb.seen(t)) != 4 {
		t.Fatalf("after the hour: %d tickets, newest %q, seen %v", len(ts), ts[0].Subject, mb.seen(t))
	}
	poll()
	if n := len(l.tickets()); n != 4 {
		t.Fatalf("%d tickets after one more poll", n)
	}
}

// A message the poller passes over for good (over inbound.max_bytes) is
// recorded with why, against its Message-ID, and the next is taken.
func TestIMAPRecordsWhyItPassesAMessageOver(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 0)
	mb := newMailbox(t)
	mb.add(t, "From: ann@example.com\r\nTo: support@"+domain+"\r\nSubject: Video\r\nMessage-ID: <huge@example.com>\r\n\r\n"+
		strings.Repeat(strings.Repeat("x", 70)+"\r\n", 1000))
	mb.add(t, "From: bob@example.org\r\nTo: support@"+domain+"\r\nSubject: Bob\r\nMessage-ID: <bob-2@example.org>\r\n\r\nHi\r\n")
	if _, err := mb.poller(l.svc).Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec, err := l.db.Read().InboundMail(context.Background(), "huge@example.com")
	if err != nil || rec.Outcome != app.InboundTooLarge || rec.Sender != "ann@example.com" {
		t.Fatalf("record %+v, %v", rec, err)
	}
	if ts := l.tickets(); len(ts) != 1 || ts[0].Subject != "Bob" {
		t.Fatalf("tickets %+v", ts)
	}
}
