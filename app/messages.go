package app

import (
	"context"
	"strconv"
	"strings"

	"chatsvc/storage"
)

// Message limits of SPEC.md.
const (
	MaxMessageBody = 4000
	MaxAttachments = 5
)

// AttachmentInput is one attachment of an agent message, by URL.
type AttachmentInput struct {
	URL  Field[string]
	Name Field[string]
}

// AgentMessage is the body of POST /conversations/{id}/messages.
type AgentMessage struct {
	Body        Field[string]
	AuthorID    Field[string]
	Attachments Field[[]AttachmentInput]
}

func (in AgentMessage) validate() error {
	if !in.Body.has() {
		return missing("body")
	}
	if err := checkLen("body", in.Body.V, MaxMessageBody, true); err != nil {
		return err
	}
	if !in.AuthorID.has() || in.AuthorID.V == "" {
		return missing("author_id")
	}
	if n := len(in.Attachments.V); n > MaxAttachments {
		return invalid("attachments", "A message can carry at most %d attachments (got %d).", MaxAttachments, n)
	}
	for i, a := range in.Attachments.V {
		p := "attachments." + strconv.Itoa(i)
		if !a.URL.has() || a.URL.V == "" {
			return missing(p + ".url")
		}
		if !strings.HasPrefix(a.URL.V, "https://") {
			return invalid(p+".url", "Attachment URLs must be public HTTPS URLs (got '%s').", a.URL.V)
		}
	}
	return nil
}

// PostAgentMessage sends a team member's message to the visitor. A
// conversation in `waiting` moves to `handed_off`; a closed one refuses.
func (s *Service) PostAgentMessage(ctx context.Context, mode storage.Mode, convID string, in AgentMessage) (*storage.Message, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if len(in.Attachments.V) > 0 {
		return nil, &Error{Kind: Invalid, Code: CodeFeatureUnavailable, Param: "attachments",
			Message: "This server cannot fetch attachments; send the message without them."}
	}
	var msg *storage.Message
	err := s.write(ctx, func(q *storage.Q) error {
		c, err := q.Conversation(ctx, mode, convID)
		if err != nil {
			return found(err, noSuch("conversation", convID))
		}
		m, err := q.Member(ctx, in.AuthorID.V)
		if err != nil {
			return found(err, noSuchRef("author_id", "team member", in.AuthorID.V))
		}
		if c.Status == StatusClosed {
			return closedErr(convID)
		}
		if c.Status == StatusWaiting {
			c.Status = StatusHandedOff
		}
		author := storage.Author{Type: storage.AuthorAgent, ID: &m.ID, Name: &m.Name}
		msg, err = s.addMessage(ctx, q, c, author, in.Body.V, nil, s.stamp())
		return err
	})
	return msg, err
}

// addMessage stores a message, counts it on its conversation (whose other
// changes the caller made on c) and records message.created.
func (s *Service) addMessage(ctx context.Context, q *storage.Q, c *storage.Conversation, author storage.Author,
	body string, sources []storage.Source, now storage.Timestamp) (*storage.Message, error) {
	m := &storage.Message{ID: NewID(PrefixMessage), Object: "message", Mode: c.Mode, ConversationID: c.ID,
		Author: author, Body: body, Attachments: []storage.Attachment{}, Sources: sources, CreatedAt: now}
	if m.Sources == nil {
		m.Sources = []storage.Source{}
	}
	if err := q.InsertMessage(ctx, m); err != nil {
		return nil, err
	}
	c.MessageCount++
	c.LastMessageAt, c.UpdatedAt = now, now
	if err := q.UpdateConversation(ctx, c); err != nil {
		return nil, err
	}
	return m, s.emit(ctx, q, c.Mode, EventMessageCreated, m.ID, m, now)
}

// Message returns a message, or a NotFound error.
func (s *Service) Message(ctx context.Context, mode storage.Mode, id string) (*storage.Message, error) {
	m, err := s.db.Read().Message(ctx, mode, id)
	return m, found(err, noSuch("message", id))
}

// Messages lists a conversation's messages oldest first.
func (s *Service) Messages(ctx context.Context, mode storage.Mode, convID string, lp ListParams) (List[*storage.Message], error) {
	pg, err := lp.page()
	if err != nil {
		return List[*storage.Message]{}, err
	}
	var rows []*storage.Message
	err = s.db.ReadTx(ctx, func(q *storage.Q) error {
		if _, err := q.Conversation(ctx, mode, convID); err != nil {
			return found(err, noSuch("conversation", convID))
		}
		rows, err = q.Messages(ctx, convID, pg)
		return err
	})
	if err != nil {
		return List[*storage.Message]{}, err
	}
	return makeList(rows, pg, func(m *storage.Message) storage.Cursor {
		return storage.Cursor{Key: int64(m.CreatedAt), ID: m.ID}
	}), nil
}
