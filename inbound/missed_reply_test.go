package inbound_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
)

// visitorAfter is the notify.visitor_after of these tests, not the default,
// so the e-mail is seen to follow the setting.
const visitorAfter = 7 * time.Minute

// visit is a visitor who left their address and asked a question, and the
// member who answers.
type visit struct {
	l      *loop
	visit  *app.Visit
	convID string
	member *chat.Member
}

// newChat starts it with notify.visitor_after set to after; the visitor
// is identified as email by the site (a signed claim) unless it is "".
func newChat(t *testing.T, after time.Duration, email string) *visit {
	t.Helper()
	return startChat(t, after, email, true)
}

// startChat is newChat; unless signed, the site has no identity secret and
// the address is only what the visitor typed.
func startChat(t *testing.T, after time.Duration, email string, signed bool) *visit {
	t.Helper()
	l := newLoop(t, 0, func(l *loop) { l.visitorAfter = after })
	ctx := context.Background()
	site, err := l.svc.CreateSite(ctx, "Acme Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	claim := app.Identify{Email: app.Value(email), Name: app.Value("Ann Lee")}
	if signed {
		secret, err := l.svc.SetIdentitySecret(ctx, site.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		claim.UserHash = app.Value(app.UserHash(secret, email))
	}
	sess, err := l.svc.StartSession(ctx, app.SessionStart{SiteID: app.Value(site.ID),
		PageURL: app.Value("https://shop.example/help")})
	if err != nil {
		t.Fatal(err)
	}
	v, err := l.svc.Visit(ctx, sess.VisitorToken, app.Origin{})
	if err != nil {
		t.Fatal(err)
	}
	if email != "" {
		if _, err := l.svc.IdentifyVisitor(ctx, v, claim); err != nil {
			t.Fatal(err)
		}
	}
	ex, err := l.svc.PostVisitorMessage(ctx, v, app.VisitorMessage{Body: app.Value("Where is my parcel?")})
	if err != nil {
		t.Fatal(err)
	}
	m, err := l.svc.CreateMember(ctx, "bo@shop.example", "Bo", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	return &visit{l: l, visit: v, convID: ex.Message.ConversationID, member: m}
}

// answer posts an agent message and returns when it was written.
func (c *visit) answer(body string) time.Time {
	c.l.t.Helper()
	m, err := c.l.svc.PostAgentMessage(context.Background(), chat.Live, c.convID,
		app.AgentMessage{Body: app.Value(body), AuthorID: app.Value(c.member.ID)})
	if err != nil {
		c.l.t.Fatal(err)
	}
	return m.CreatedAt.Time()
}

// notifyAt moves the clock to at, runs the notify worker until it has
// nothing left, sends the outbox and returns the e-mails that left.
func (c *visit) notifyAt(at time.Time) []sentMail {
	c.l.t.Helper()
	c.l.clock.Set(at)
	for more := true; more; {
		var err error
		if more, err = c.l.svc.NotifyStep(context.Background()); err != nil {
			c.l.t.Fatal(err)
		}
	}
	before := len(c.l.sink.Received())
	c.l.send()
	var out []sentMail
	for _, m := range c.l.sink.Received()[before:] {
		out = append(out, parseSent(c.l.t, m.Data))
	}
	return out
}

// mailsAt is notifyAt, failing unless n e-mails left; what says when.
func (c *visit) mailsAt(at time.Time, n int, what string) []sentMail {
	c.l.t.Helper()
	got := c.notifyAt(at)
	if len(got) != n {
		c.l.t.Fatalf("%d e-mails %s, want %d", len(got), what, n)
	}
	return got
}

func (c *visit) messages() []*chat.Message {
	c.l.t.Helper()
	list, err := c.l.svc.Messages(context.Background(), chat.Live, c.convID, app.ListParams{})
	if err != nil {
		c.l.t.Fatal(err)
	}
	return list.Data
}

// sentMail is an e-mail the sink received: its header, plain text and HTML.
type sentMail struct {
	header     *mail.Header
	text, html string
}

func parseSent(t *testing.T, raw []byte) sentMail {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out := sentMail{header: &r.Header}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch ct, _, _ := p.Header.(*mail.InlineHeader).ContentType(); ct {
		case "text/plain":
			out.text = string(b)
		case "text/html":
			out.html = string(b)
		}
	}
}

// replyTo is the address an answer to e-mail m goes to.
func replyTo(t *testing.T, m sentMail) (addr, msgID string) {
	t.Helper()
	list, err := m.header.AddressList("Reply-To")
	if err != nil || len(list) != 1 {
		t.Fatalf("Reply-To %v (%v)", list, err)
	}
	id, err := m.header.MessageID()
	if err != nil {
		t.Fatal(err)
	}
	return list[0].Address, id
}

// The whole loop: an agent's answer the visitor never saw is e-mailed to
// the contact once, at the delay; the contact's reply comes back as their
// message in the conversation, and an auto-reply does not; a later answer
// makes a second e-mail with that answer alone, across a restart, and
// nothing is sent twice.
func TestMissedReplyIsMailedOnceAndTheReplyComesBack(t *testing.T) {
	t.Parallel()
	c := newChat(t, visitorAfter, "ann@example.com")
	sent := c.answer("It left our warehouse on Monday.")
	c.mailsAt(sent.Add(visitorAfter-time.Second), 0, "a second before the delay")
	m := c.mailsAt(sent.Add(visitorAfter), 1, "at the delay")[0]
	to, _ := m.header.AddressList("To")
	if len(to) != 1 || to[0].Address != "ann@example.com" || m.header.Get("Auto-Submitted") != "auto-generated" {
		t.Fatalf("To %v, Auto-Submitted %q", to, m.header.Get("Auto-Submitted"))
	}
	for _, part := range []string{m.text, m.html} {
		if !strings.Contains(part, "It left our warehouse on Monday.") || !strings.Contains(part, "Bo") {
			t.Fatalf("part %q lacks the answer or its author", part)
		}
	}
	c.mailsAt(sent.Add(visitorAfter+time.Hour), 0, "more an hour later")

	addr, msgID := replyTo(t, m)
	if err := c.l.deliver("ann@example.com", addr, reply(addr, msgID, "", "Great, thank you!")); err != nil {
		t.Fatal(err)
	}
	auto := reply(addr, msgID, "Auto-Submitted: auto-replied\r\n", "I am away until Monday.")
	if err := c.l.deliver("ann@example.com", addr, auto); err != nil {
		t.Fatal(err)
	}
	msgs := c.messages()
	last := msgs[len(msgs)-1]
	if len(msgs) != 3 || last.Author.Type != chat.AuthorContact || last.Body != "Great, thank you!" ||
		last.Author.ID == nil || *last.Author.ID != *c.visit.Visitor.ContactID || len(last.Attachments) != 1 {
		t.Fatalf("%d messages, the last %+v", len(msgs), last)
	}
	events, err := c.l.svc.Events(context.Background(), chat.Live, app.EventQuery{Type: chat.EventMessageCreated})
	if err != nil {
		t.Fatal(err)
	}
	if len(events.Data) != 3 || !bytes.Contains(events.Data[0].Data.Object, []byte(last.ID)) {
		t.Fatalf("%d message.created events, the newest not the reply", len(events.Data))
	}
	second := c.answer("Tracking number: 42.")
	c.l.restart()
	if m := c.mailsAt(second.Add(visitorAfter), 1, "after the restart")[0]; !strings.Contains(m.text, "Tracking number: 42.") ||
		strings.Contains(m.text, "warehouse") {
		t.Fatalf("second e-mail: %q, want the new answer alone", m.text)
	}
	c.mailsAt(second.Add(visitorAfter+time.Hour), 0, "more after the restart")

}

// A visitor who sees the answer gets no e-mail: through the widget
// fetching the messages, or through an open live stream.
func TestNoMissedReplyWhenTheVisitorSawIt(t *testing.T) {
	t.Parallel()
	c := newChat(t, visitorAfter, "ann@example.com")
	ctx := context.Background()
	sent := c.answer("It left our warehouse on Monday.")
	if _, err := c.l.svc.VisitorMessages(ctx, c.visit, ""); err != nil {
		t.Fatal(err)
	}
	c.mailsAt(sent.Add(visitorAfter), 0, "though the widget fetched the answer")
	feed := &app.VisitorFeed{}
	if _, _, err := c.l.svc.VisitorUpdates(ctx, c.visit, feed); err != nil {
		t.Fatal(err)
	}
	sent = c.answer("Tracking number: 42.")
	if msgs, _, err := c.l.svc.VisitorUpdates(ctx, c.visit, feed); err != nil || len(msgs) != 1 {
		t.Fatalf("the stream sent %d messages (%v)", len(msgs), err)
	}
	c.mailsAt(sent.Add(visitorAfter+time.Hour), 0, "though the stream showed the answer")
}

// A reply to the e-mail of a conversation closed meanwhile goes back to
// the team: the conversation leaves closed, as a ticket reopens.
func TestMissedReplyAnswerReopensClosedConversation(t *testing.T) {
	t.Parallel()
	c := newChat(t, visitorAfter, "ann@example.com")
	ctx := context.Background()
	sent := c.answer("It left our warehouse on Monday.")
	if _, err := c.l.svc.Close(ctx, chat.Live, c.convID); err != nil {
		t.Fatal(err)
	}
	addr, msgID := replyTo(t, c.mailsAt(sent.Add(visitorAfter), 1, "for the closed conversation")[0])
	if err := c.l.deliver("ann@example.com", addr, reply(addr, msgID, "", "It has not arrived yet.")); err != nil {
		t.Fatal(err)
	}
	conv, err := c.l.svc.Conversation(ctx, chat.Live, c.convID)
	if err != nil {
		t.Fatal(err)
	}
	if conv.Status != chat.StatusHandedOff || *conv.AssigneeID != c.member.ID || conv.MessageCount != 3 {
		t.Fatalf("conversation %s, assignee %v, %d messages after the reply", conv.Status, conv.AssigneeID, conv.MessageCount)
	}
}

// Without notify.visitor_after, or without an address, nothing is mailed.
func TestNoMissedReplyWhenOffOrNoAddress(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]*visit{"off": newChat(t, 0, "ann@example.com"), "no address": newChat(t, visitorAfter, "")} {
		sent := c.answer("Hello, how can I help?")
		c.mailsAt(sent.Add(visitorAfter+time.Hour), 0, name)
	}
}

// An address the visitor only typed (a site without an identity secret) is
// nobody's proof: no missed-reply e-mail goes to it. An answer to such an
// e-mail sent before (by an older version) is kept for the team as a
// ticket and never shown in the visitor's widget.
func TestMissedReplyOnlyToAVerifiedAddress(t *testing.T) {
	t.Parallel()
	c := startChat(t, visitorAfter, "realcustomer@example.com", false)
	ctx := context.Background()
	sent := c.answer("Your card ending 4242 is blocked.")
	c.mailsAt(sent.Add(visitorAfter+time.Hour), 0, "to an address the visitor typed")

	now := chat.At(c.l.clock.Now())
	old := &storage.Mail{ID: app.NewID("eml_"), Mode: chat.Live, Template: app.MailMissedReply,
		ToEmail: "realcustomer@example.com", ContactID: c.visit.Visitor.ContactID, ConversationID: &c.convID,
		Data: []byte(`{}`), Status: "sent", NextAttemptAt: now, CreatedAt: now}
	if err := c.l.db.Write(ctx, func(q *storage.Q) error { return q.InsertMail(ctx, old) }); err != nil {
		t.Fatal(err)
	}
	addr := app.ReplyAddressPrefix + old.ID + "@" + domain
	if err := c.l.deliver("realcustomer@example.com", addr, reply(addr, old.ID+"@"+domain, "", "Which card? Mine ends 4242.")); err != nil {
		t.Fatal(err)
	}
	if msgs := c.messages(); len(msgs) != 2 {
		t.Fatalf("%d messages: the reply reached the conversation", len(msgs))
	}
	seen, err := c.l.svc.VisitorMessages(ctx, c.visit, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range seen.Data {
		if strings.Contains(m.Body, "Mine ends") {
			t.Fatalf("the widget shows the address owner's reply: %+v", m)
		}
	}
	ts := c.l.tickets()
	if len(ts) != 1 || ts[0].Description == nil || !strings.Contains(*ts[0].Description, "Mine ends 4242") {
		t.Fatalf("the reply is not kept for the team: tickets %+v", ts)
	}
}
