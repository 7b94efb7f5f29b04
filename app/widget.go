package app

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"chatsvc/storage"
)

// Error codes of the widget API.
const (
	CodeVisitorTokenMissing = "visitor_token_missing"
	CodeVisitorTokenInvalid = "visitor_token_invalid"
	CodeOriginNotAllowed    = "origin_not_allowed"
	CodeUserHashInvalid     = "user_hash_invalid"
)

// PrefixVisitor starts visitor ids, which appear only inside visitor tokens.
const PrefixVisitor = "vis_"

// MaxPageURL bounds page_url; browsers rarely send longer addresses.
const MaxPageURL = 2048

// widgetState is what the Service keeps in memory for visitors.
type widgetState struct {
	changes   changes
	keyMu     sync.Mutex
	key       []byte // signs visitor tokens; loaded or made on first use
	responder Responder
	replyWait time.Duration
	claims    sync.Map // message id -> struct{}: replies being worked out now
}

func newWidgetState(o Options) *widgetState {
	w := &widgetState{responder: o.Assistant, replyWait: o.ReplyWait}
	if w.replyWait == 0 {
		w.replyWait = DefaultReplyWait
	}
	return w
}

// Origin is where a widget request comes from: its Origin header (empty
// when the browser sent none) and the Host it was sent to.
type Origin struct {
	Origin string
	Host   string
}

// allowedFrom refuses a browser request from a page the site does not own.
// Pages on the site's domain or its subdomains may call the widget API, and
// so may pages of this server itself (the demo page). A site without a
// domain accepts every origin. Requests without an Origin header (not from
// a browser page) carry no ambient credential, so they are let through.
func allowedFrom(site *storage.Site, o Origin) error {
	if o.Origin == "" {
		return nil
	}
	u, err := url.Parse(o.Origin)
	if err == nil && u.Host != "" && strings.EqualFold(u.Host, o.Host) {
		return nil
	}
	if site.Domain == nil || *site.Domain == "" {
		return nil
	}
	if err == nil {
		host, domain := strings.ToLower(u.Hostname()), siteDomain(*site.Domain)
		if host == domain || strings.HasSuffix(host, "."+domain) {
			return nil
		}
	}
	return &Error{Kind: Forbidden, Code: CodeOriginNotAllowed,
		Message: "This site's widget cannot be used from " + o.Origin + "."}
}

// siteDomain reduces a site's domain as entered ("https://Example.com/") to
// its host name ("example.com").
func siteDomain(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	if i := strings.Index(d, "://"); i >= 0 {
		d = d[i+3:]
	}
	d, _, _ = strings.Cut(d, "/")
	if h, _, ok := strings.Cut(d, ":"); ok {
		d = h
	}
	return d
}

// Visit is a visitor authenticated by their token.
type Visit struct {
	Mode    storage.Mode
	Site    *storage.Site
	Visitor *storage.Visitor
}

// Visit authenticates a visitor token and checks the request's origin
// against the token's site.
func (s *Service) Visit(ctx context.Context, token string, from Origin) (*Visit, error) {
	c, err := s.verifyToken(ctx, token)
	if err != nil {
		return nil, err
	}
	bad := &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid,
		Message: "This visitor token is no longer valid. Start a new session without it."}
	q := s.db.Read()
	site, err := q.Site(ctx, c.SiteID)
	if err != nil {
		return nil, found(err, bad)
	}
	if err := allowedFrom(site, from); err != nil {
		return nil, err
	}
	v, err := q.Visitor(ctx, c.Mode, c.VisitorID)
	if err != nil {
		return nil, found(err, bad)
	}
	return &Visit{Mode: c.Mode, Site: site, Visitor: v}, nil
}

// SessionStart is the body of POST /widget/v1/sessions.
type SessionStart struct {
	SiteID       Field[string]
	PageURL      Field[string]
	VisitorToken Field[string]
	Test         Field[bool]
	From         Origin
}

// Session is what a visitor gets when the widget starts.
type Session struct {
	VisitorToken string               `json:"visitor_token"`
	Conversation *VisitorConversation `json:"conversation"`
}

// StartSession starts or resumes a visitor's session. A token from an
// earlier session resumes it (same visitor, same conversation); without
// one a new visitor is made. An identified visitor's contact is marked seen.
func (s *Service) StartSession(ctx context.Context, in SessionStart) (*Session, error) {
	if !in.SiteID.has() || in.SiteID.V == "" {
		return nil, missing("site_id")
	}
	if !in.PageURL.has() {
		return nil, missing("page_url")
	}
	if err := checkPageURL(in.PageURL.V); err != nil {
		return nil, err
	}
	mode := storage.Live
	if in.Test.has() && in.Test.V {
		mode = storage.Test
	}
	site, err := s.db.Read().Site(ctx, in.SiteID.V)
	if err != nil {
		return nil, found(err, noSuchRef("site_id", "site", in.SiteID.V))
	}
	if err := allowedFrom(site, in.From); err != nil {
		return nil, err
	}
	var v *storage.Visitor
	if in.VisitorToken.has() {
		c, err := s.verifyToken(ctx, in.VisitorToken.V)
		if err != nil {
			return nil, err
		}
		if c.SiteID != site.ID || c.Mode != mode {
			return nil, &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid, Param: "visitor_token",
				Message: "This visitor token belongs to another site or mode. Start a new session without it."}
		}
		v = &storage.Visitor{ID: c.VisitorID}
	}
	err = s.write(ctx, func(q *storage.Q) error {
		now := s.stamp()
		if v == nil {
			v = &storage.Visitor{ID: NewID(PrefixVisitor), Mode: mode, SiteID: site.ID, PageURL: in.PageURL.V,
				CreatedAt: now, LastSeenAt: now}
			return q.InsertVisitor(ctx, v)
		}
		cur, err := q.Visitor(ctx, mode, v.ID)
		if err != nil {
			return found(err, &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid, Param: "visitor_token",
				Message: "This visitor token is no longer valid. Start a new session without it."})
		}
		v = cur
		v.PageURL, v.LastSeenAt = in.PageURL.V, now
		if err := q.UpdateVisitor(ctx, v); err != nil {
			return err
		}
		return s.markSeen(ctx, q, mode, v.ContactID, now)
	})
	if err != nil {
		return nil, err
	}
	token, err := s.signToken(ctx, visitorClaims{Mode: mode, SiteID: site.ID, VisitorID: v.ID})
	if err != nil {
		return nil, err
	}
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, mode, v.ID))
	if err != nil {
		return nil, err
	}
	return &Session{VisitorToken: token, Conversation: visitorConversation(c)}, nil
}

// checkPageURL accepts an absolute http(s) URL of reasonable length.
func checkPageURL(v string) error {
	if err := checkLen("page_url", v, MaxPageURL, true); err != nil {
		return err
	}
	if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalid("page_url", "page_url must be an absolute http or https URL (got '%s').", v)
	}
	return nil
}

// markSeen sets last_seen_at of an identified visitor's contact.
func (s *Service) markSeen(ctx context.Context, q *storage.Q, mode storage.Mode, contactID *string, now storage.Timestamp) error {
	if contactID == nil {
		return nil
	}
	c, err := orNil(q.Contact(ctx, mode, *contactID))
	if err != nil || c == nil {
		return err
	}
	c.LastSeenAt = &now
	return q.UpdateContact(ctx, c, emailNorm(c))
}

// VisitorConversation is a conversation as its visitor sees it: the team's
// assignment and metadata are left out.
type VisitorConversation struct {
	ID            string            `json:"id"`
	Object        string            `json:"object"`
	SiteID        string            `json:"site_id"`
	Status        string            `json:"status"`
	Subject       *string           `json:"subject"`
	MessageCount  int               `json:"message_count"`
	PageURL       string            `json:"page_url"`
	LastMessageAt storage.Timestamp `json:"last_message_at"`
	CreatedAt     storage.Timestamp `json:"created_at"`
	UpdatedAt     storage.Timestamp `json:"updated_at"`
}

func visitorConversation(c *storage.Conversation) *VisitorConversation {
	if c == nil {
		return nil
	}
	return &VisitorConversation{ID: c.ID, Object: c.Object, SiteID: c.SiteID, Status: c.Status, Subject: c.Subject,
		MessageCount: c.MessageCount, PageURL: c.PageURL, LastMessageAt: c.LastMessageAt, CreatedAt: c.CreatedAt,
		UpdatedAt: c.UpdatedAt}
}

// visitorMessage is a message as the visitor sees it: a team member is
// shown by name, not by id.
func visitorMessage(m *storage.Message) *storage.Message {
	if m == nil || m.Author.Type != storage.AuthorAgent {
		return m
	}
	c := *m
	c.Author.ID = nil
	return &c
}

// VisitorMessage is the body of POST /widget/v1/messages.
type VisitorMessage struct {
	Body    Field[string]
	PageURL Field[string]
}

// VisitorExchange is a visitor's message with the assistant's reply, when
// it came in time.
type VisitorExchange struct {
	Message *storage.Message `json:"message"`
	Reply   *storage.Message `json:"reply"`
}

// PostVisitorMessage adds a visitor's message to their conversation, opening
// a new one when they have none or theirs is closed. In an `open`
// conversation the message is queued for the assistant in the same
// transaction; the call then waits a little for the reply.
func (s *Service) PostVisitorMessage(ctx context.Context, v *Visit, in VisitorMessage) (*VisitorExchange, error) {
	if !in.Body.has() {
		return nil, missing("body")
	}
	if err := checkLen("body", in.Body.V, MaxMessageBody, true); err != nil {
		return nil, err
	}
	if in.PageURL.has() {
		if err := checkPageURL(in.PageURL.V); err != nil {
			return nil, err
		}
	}
	var msg *storage.Message
	queued := false
	err := s.write(ctx, func(q *storage.Q) error {
		now := s.stamp()
		queued = false
		c, err := orNil(q.LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
		if err != nil {
			return err
		}
		visitor, err := q.Visitor(ctx, v.Mode, v.Visitor.ID)
		if err != nil {
			return err
		}
		if c == nil || c.Status == StatusClosed {
			start := VisitorStart{SiteID: v.Site.ID, VisitorID: visitor.ID, PageURL: visitor.PageURL, Body: in.Body.V}
			if in.PageURL.has() {
				start.PageURL = in.PageURL.V
			}
			if visitor.ContactID != nil {
				start.ContactID = *visitor.ContactID
			}
			if c, msg, err = s.startConversation(ctx, q, v.Mode, start, now); err != nil {
				return err
			}
		} else {
			author := storage.Author{Type: storage.AuthorContact, ID: c.ContactID}
			if visitor.ContactID != nil {
				author.ID = visitor.ContactID
			}
			if msg, err = s.addMessage(ctx, q, c, author, in.Body.V, nil, now); err != nil {
				return err
			}
		}
		if c.Status != StatusOpen || s.widget.responder == nil {
			return nil
		}
		queued = true
		return q.InsertAssistantJob(ctx, &storage.AssistantJob{MessageID: msg.ID, Mode: v.Mode,
			ConversationID: c.ID, NextAttemptAt: now, CreatedAt: now})
	})
	if err != nil {
		return nil, err
	}
	out := &VisitorExchange{Message: msg}
	if queued && s.widget.replyWait > 0 {
		if out.Reply, err = s.waitReply(ctx, v.Mode, msg); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// MaxVisitorPage is how many messages one GET /widget/v1/messages returns.
const MaxVisitorPage = 100

// VisitorMessages lists the messages of the visitor's current conversation
// (their most recent one), oldest first, after the message id given.
func (s *Service) VisitorMessages(ctx context.Context, v *Visit, after string) (List[*storage.Message], error) {
	l := List[*storage.Message]{Object: "list", Data: []*storage.Message{}}
	err := s.db.ReadTx(ctx, func(q *storage.Q) error {
		c, err := orNil(q.LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
		if err != nil || c == nil {
			if err == nil && after != "" {
				return noSuchRef("after", "message", after)
			}
			return err
		}
		rows, err := q.MessagesAfter(ctx, c.ID, after, MaxVisitorPage+1)
		if err != nil {
			return found(err, noSuchRef("after", "message", after))
		}
		if len(rows) > MaxVisitorPage {
			rows, l.HasMore = rows[:MaxVisitorPage], true
			last := rows[len(rows)-1].ID
			l.NextCursor = &last
		}
		for _, m := range rows {
			l.Data = append(l.Data, visitorMessage(m))
		}
		return nil
	})
	return l, err
}

// VisitorHandOff is the visitor asking for a person: their conversation
// moves to `waiting` and the assistant stops answering.
func (s *Service) VisitorHandOff(ctx context.Context, v *Visit) (*VisitorConversation, error) {
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, &Error{Kind: NotFound, Code: CodeResourceMissing,
			Message: "There is no conversation to hand off yet; send a message first."}
	}
	c, err = s.HandOff(ctx, v.Mode, c.ID, Handoff{})
	return visitorConversation(c), err
}

// VisitorFeed is the position of a visitor's live event stream.
type VisitorFeed struct {
	ConversationID string
	LastMessageID  string
	UpdatedAt      storage.Timestamp
}

// VisitorUpdates returns what the visitor has not been sent yet: messages
// of their current conversation after feed.LastMessageID (at most
// MaxVisitorPage; call again while more come), and the conversation when it
// changed. It advances feed. When the visitor starts a new conversation the
// feed follows it.
func (s *Service) VisitorUpdates(ctx context.Context, v *Visit, feed *VisitorFeed) ([]*storage.Message, *VisitorConversation, error) {
	var msgs []*storage.Message
	var conv *VisitorConversation
	err := s.db.ReadTx(ctx, func(q *storage.Q) error {
		c, err := orNil(q.LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
		if err != nil || c == nil {
			return err
		}
		if c.ID == feed.ConversationID && c.UpdatedAt == feed.UpdatedAt {
			return nil
		}
		rows, err := q.MessagesAfter(ctx, c.ID, feed.LastMessageID, MaxVisitorPage)
		if isNotFound(err) { // a message of another conversation: send this one whole
			rows, err = q.MessagesAfter(ctx, c.ID, "", MaxVisitorPage)
		}
		if err != nil {
			return err
		}
		for _, m := range rows {
			msgs = append(msgs, visitorMessage(m))
		}
		if len(rows) > 0 {
			feed.LastMessageID = rows[len(rows)-1].ID
		}
		if len(rows) < MaxVisitorPage { // caught up: the conversation's state is current
			feed.ConversationID, feed.UpdatedAt = c.ID, c.UpdatedAt
			conv = visitorConversation(c)
		}
		return nil
	})
	return msgs, conv, err
}

// VisitorTicket is the body of POST /widget/v1/tickets.
type VisitorTicket struct {
	Subject     Field[string]
	Description Field[string]
	Email       Field[string]
	Name        Field[string]
}

// CreateVisitorTicket opens a ticket for the visitor, linked to their
// current conversation. The contact is the one found or created by the
// e-mail given, or the visitor's identified contact when none is given; a
// visitor not yet linked to a contact becomes linked to it.
func (s *Service) CreateVisitorTicket(ctx context.Context, v *Visit, in VisitorTicket) (*storage.Ticket, error) {
	if !in.Subject.has() {
		return nil, missing("subject")
	}
	tc := TicketCreate{Subject: in.Subject, Description: in.Description}
	switch {
	case in.Email.has():
		if _, _, err := normalizeEmail("email", in.Email.V); err != nil {
			return nil, err
		}
		tc.Contact = Value(ContactRef{Email: in.Email, Name: in.Name})
	case v.Visitor.ContactID != nil:
		tc.ContactID = Value(*v.Visitor.ContactID)
	default:
		return nil, missing("email")
	}
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
	if err != nil {
		return nil, err
	}
	if c != nil {
		tc.ConversationID = Value(c.ID)
	}
	t, err := s.CreateTicket(ctx, v.Mode, tc)
	if err != nil {
		return nil, err
	}
	if v.Visitor.ContactID == nil {
		err = s.write(ctx, func(q *storage.Q) error { return s.linkVisitor(ctx, q, v, t.ContactID, s.stamp()) })
	}
	return t, err
}

// linkVisitor records that the visitor is the given contact, from now on
// and in their conversations that have no contact yet.
func (s *Service) linkVisitor(ctx context.Context, q *storage.Q, v *Visit, contactID string, now storage.Timestamp) error {
	cur, err := q.Visitor(ctx, v.Mode, v.Visitor.ID)
	if err != nil {
		return err
	}
	cur.ContactID, cur.LastSeenAt = &contactID, now
	if err := q.UpdateVisitor(ctx, cur); err != nil {
		return err
	}
	v.Visitor = cur
	return q.LinkVisitorConversations(ctx, v.Mode, cur.ID, contactID, now)
}
