package app

import (
	"context"
	"strings"

	"chatsvc/chat"
	"chatsvc/storage"
)

// VisitorConversation is a conversation as its visitor sees it: the team's
// assignment and metadata are left out.
type VisitorConversation struct {
	ID            string         `json:"id"`
	Object        string         `json:"object"`
	SiteID        string         `json:"site_id"`
	Status        chat.Status    `json:"status"`
	Subject       *string        `json:"subject"`
	MessageCount  int            `json:"message_count"`
	PageURL       string         `json:"page_url"`
	LastMessageAt chat.Timestamp `json:"last_message_at"`
	Rating        *chat.Rating   `json:"rating"`
	CreatedAt     chat.Timestamp `json:"created_at"`
	UpdatedAt     chat.Timestamp `json:"updated_at"`
}

func visitorConversation(c *chat.Conversation) *VisitorConversation {
	if c == nil {
		return nil
	}
	return &VisitorConversation{ID: c.ID, Object: "conversation", SiteID: c.SiteID, Status: c.Status, Subject: c.Subject,
		MessageCount: c.MessageCount, PageURL: c.PageURL, LastMessageAt: c.LastMessageAt, Rating: c.Rating,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// visitorMessage is a message as the visitor sees it: a team member is
// shown by name, not by id.
func visitorMessage(m *chat.Message) *chat.Message {
	if m == nil || m.Author.Type != chat.AuthorAgent {
		return m
	}
	c := *m
	c.Author.ID = nil
	return &c
}

// VisitorMessage is the body of POST /widget/v1/messages.
type VisitorMessage struct {
	Body        Field[string]
	PageURL     Field[string]
	Attachments Field[[]string] // ids of the visitor's uploads (POST /widget/v1/attachments)
}

// validate checks the fields on their own: a message with files may have
// no text.
func (in VisitorMessage) validate() error {
	if err := checkUploadRefs(in.Attachments.V); err != nil {
		return err
	}
	if len(in.Attachments.V) > 0 && (!in.Body.Set || in.Body.Null) {
		return nil
	}
	if !in.Body.has() {
		return missing("body")
	}
	return checkLen("body", in.Body.V, MaxMessageBody, len(in.Attachments.V) == 0)
}

// VisitorExchange is a visitor's message with the assistant's reply, when
// it came in time.
type VisitorExchange struct {
	Message *chat.Message `json:"message"`
	Reply   *chat.Message `json:"reply"`
}

// PostVisitorMessage adds a visitor's message to their conversation, opening
// a new one when they have none or theirs is closed. In an `open`
// conversation the message is queued for the assistant in the same
// transaction; the call then waits a little for the reply.
func (s *Service) PostVisitorMessage(ctx context.Context, v *Visit, in VisitorMessage) (*VisitorExchange, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if in.PageURL.has() {
		if err := checkPageURL(in.PageURL.V); err != nil {
			return nil, err
		}
		if err := pageOnSite(v.Site, in.PageURL.V, hostOf(v.Visitor.PageURL), s.publicHost()); err != nil {
			return nil, err
		}
	}
	if err := s.checkVisitorRate(v); err != nil {
		return nil, err
	}
	if err := s.checkPreChat(ctx, v); err != nil {
		return nil, err
	}
	if len(in.Attachments.V) > 0 {
		if err := s.noFiles("attachments"); err != nil {
			return nil, err
		}
		if _, err := s.signingKey(ctx); err != nil { // the message's event carries signed URLs
			return nil, err
		}
	}
	// queued: the message waits for the assistant's answer.
	type posted struct {
		msg    *chat.Message
		queued bool
	}
	p, err := writeResult(ctx, s, func(q *storage.Q) (posted, error) {
		now := s.stamp()
		c, err := orNil(q.LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
		if err != nil {
			return posted{}, err
		}
		visitor, err := q.Visitor(ctx, v.Mode, v.Visitor.ID)
		if err != nil {
			return posted{}, err
		}
		sent, err := takeUploads(ctx, q, v, in.Attachments.V)
		if err != nil {
			return posted{}, err
		}
		var msg *chat.Message
		if c == nil || c.Status == chat.StatusClosed {
			start := VisitorStart{SiteID: v.Site.ID, VisitorID: visitor.ID, PageURL: visitor.PageURL, Body: in.Body.V,
				Files: sent}
			if in.PageURL.has() {
				start.PageURL = in.PageURL.V
			}
			if visitor.ContactID != nil {
				start.ContactID = *visitor.ContactID
			}
			if c, msg, err = s.startConversation(ctx, q, v.Mode, start, now); err != nil {
				return posted{}, err
			}
		} else {
			id := c.ContactID
			if visitor.ContactID != nil {
				id = visitor.ContactID
			}
			author, err := contactAuthor(ctx, q, v.Mode, id)
			if err != nil {
				return posted{}, err
			}
			if msg, err = s.addMessageWith(ctx, q, c, author, in.Body.V, sent, now); err != nil {
				return posted{}, err
			}
		}
		// Files alone ask the assistant nothing.
		if c.Status != chat.StatusOpen || s.assistant.responder == nil || strings.TrimSpace(in.Body.V) == "" {
			return posted{msg: msg}, nil
		}
		return posted{msg, true}, q.InsertAssistantJob(ctx, &storage.AssistantJob{MessageID: msg.ID, Mode: v.Mode,
			ConversationID: c.ID, NextAttemptAt: now, CreatedAt: now})
	})
	if err != nil {
		return nil, err
	}
	out := &VisitorExchange{Message: p.msg}
	if p.queued && s.assistant.replyWait > 0 {
		if out.Reply, err = s.waitReply(ctx, v.Mode, p.msg); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// MaxVisitorPage is how many messages one GET /widget/v1/messages returns.
const MaxVisitorPage = 100

// VisitorMessages lists the messages of the visitor's current conversation
// (their most recent one), oldest first, after the message id given.
func (s *Service) VisitorMessages(ctx context.Context, v *Visit, after string) (List[*chat.Message], error) {
	l := List[*chat.Message]{Object: "list", Data: []*chat.Message{}}
	var seen chat.Timestamp
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
		seen, err = q.VisitorSeenAt(ctx, c.ID)
		return err
	})
	if err == nil && len(l.Data) > 0 { // the widget fetched them to show them
		err = s.visitorSaw(ctx, l.Data[0].ConversationID, seen, l.Data)
	}
	if err == nil { // files reach the visitor through signed URLs
		err = s.present(ctx, l.Data...)
	}
	return l, err
}

// VisitorHandOff is the visitor asking for a person: their conversation
// moves to `waiting` and the assistant stops answering. Outside business
// hours the assistant says when the team is back and that the answer will
// come by e-mail.
func (s *Service) VisitorHandOff(ctx context.Context, v *Visit) (*VisitorConversation, error) {
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, &Error{Kind: NotFound, Code: CodeResourceMissing,
			Message: "There is no conversation to hand off yet; send a message first."}
	}
	c, err = writeResult(ctx, s, func(q *storage.Q) (*chat.Conversation, error) {
		cur, err := q.Conversation(ctx, v.Mode, c.ID)
		if err != nil {
			return nil, err
		}
		from := cur.Status
		step, err := s.transition(ctx, q, cur, chat.VisitorAsks, s.stamp(), moveInput{})
		if err != nil || step.Stays(from) {
			return cur, err // asked again: already with the team, nothing to say twice
		}
		if away, ok, err := s.awayReply(ctx, q, cur); err != nil || !ok {
			return cur, err
		} else if _, err := s.addMessage(ctx, q, cur, chat.Author{Type: chat.AuthorBot}, away, nil, s.stamp()); err != nil {
			return nil, err
		}
		return cur, nil
	})
	return visitorConversation(c), err
}

// checkPreChat refuses a message while the site requires an e-mail address
// first (widget.require_email) and the visitor has not left one.
func (s *Service) checkPreChat(ctx context.Context, v *Visit) error {
	site, err := siteView(v.Site)
	if err != nil || !site.Widget.RequireEmail {
		return err
	}
	q := s.db.Read()
	visitor, err := q.Visitor(ctx, v.Mode, v.Visitor.ID)
	if err != nil {
		return err
	}
	if visitor.ContactID != nil {
		c, err := orNil(q.Contact(ctx, v.Mode, *visitor.ContactID))
		if err != nil || c != nil && c.Email != nil {
			return err
		}
	}
	return &Error{Kind: Invalid, Code: CodeParameterMissing, Param: "email",
		Message: "This site asks for your e-mail address before the first message: send it with POST /widget/v1/identify."}
}
