package app

import (
	"context"
	"errors"

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

func (in AgentMessage) validate(a *attachments) error {
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
	for i, att := range in.Attachments.V {
		if err := a.check(i, att); err != nil {
			return err
		}
	}
	return nil
}

// PostAgentMessage sends a team member's message to the visitor. A
// conversation in `waiting` moves to `handed_off`; a closed one refuses.
// Attachments are downloaded first: if one fails, nothing is written.
func (s *Service) PostAgentMessage(ctx context.Context, mode storage.Mode, convID string, in AgentMessage) (*storage.Message, error) {
	if err := in.validate(&s.att); err != nil {
		return nil, err
	}
	// Team members are never deleted, so the author is looked up on a
	// reader: the single writer, which every write waits for, does one read
	// less. Its error is reported after the conversation's, as before.
	m, memberErr := s.db.Read().Member(ctx, in.AuthorID.V)
	var stored []storage.StoredFile
	if len(in.Attachments.V) > 0 {
		if s.att.store == nil {
			return nil, &Error{Kind: Invalid, Code: CodeFeatureUnavailable, Param: "attachments",
				Message: "This server cannot fetch attachments; send the message without them."}
		}
		// Refuse what the write would refuse before spending time on downloads.
		err := s.db.ReadTx(ctx, func(q *storage.Q) error {
			_, err := agentMessageAllowed(ctx, q, mode, convID, in, memberErr)
			return err
		})
		if err != nil {
			return nil, err
		}
		if _, err := s.signingKey(ctx); err != nil {
			return nil, err
		}
		if stored, err = s.fetchAttachments(ctx, in.Attachments.V); err != nil {
			return nil, err
		}
	}
	var msg *storage.Message
	err := s.write(ctx, func(q *storage.Q) error {
		c, err := agentMessageAllowed(ctx, q, mode, convID, in, memberErr)
		if err != nil {
			return err
		}
		if c.Status == StatusWaiting {
			c.Status = StatusHandedOff
		}
		author := storage.Author{Type: storage.AuthorAgent, ID: &m.ID, Name: &m.Name}
		// Only the status may have changed: the narrow update will do.
		msg, err = s.addMessageSaving(ctx, q, c, author, in.Body.V, nil, stored, s.stamp(), q.UpdateConversationActivity)
		return err
	})
	return msg, err
}

// agentMessageAllowed checks that the conversation exists and is not closed
// and that the author is a team member (memberErr is the error of looking
// the author up), and returns the conversation.
func agentMessageAllowed(ctx context.Context, q *storage.Q, mode storage.Mode, convID string, in AgentMessage, memberErr error) (*storage.Conversation, error) {
	c, err := q.Conversation(ctx, mode, convID)
	if err != nil {
		return nil, found(err, noSuch("conversation", convID))
	}
	if memberErr != nil {
		return nil, found(memberErr, noSuchRef("author_id", "team member", in.AuthorID.V))
	}
	if c.Status == StatusClosed {
		return nil, closedErr(convID)
	}
	return c, nil
}

// addMessage stores a message, counts it on its conversation (whose other
// changes the caller made on c) and records message.created.
func (s *Service) addMessage(ctx context.Context, q *storage.Q, c *storage.Conversation, author storage.Author,
	body string, sources []storage.Source, now storage.Timestamp) (*storage.Message, error) {
	return s.addMessageWith(ctx, q, c, author, body, sources, nil, now)
}

// addMessageWith is addMessage for a message with attachments, already
// stored; the signing key must have been loaded (signingKey) beforehand,
// since the event carries signed URLs.
func (s *Service) addMessageWith(ctx context.Context, q *storage.Q, c *storage.Conversation, author storage.Author,
	body string, sources []storage.Source, stored []storage.StoredFile, now storage.Timestamp) (*storage.Message, error) {
	return s.addMessageSaving(ctx, q, c, author, body, sources, stored, now, q.UpdateConversation)
}

// addMessageSaving is addMessageWith with the conversation written by save:
// q.UpdateConversationActivity when the caller changed at most its status.
func (s *Service) addMessageSaving(ctx context.Context, q *storage.Q, c *storage.Conversation, author storage.Author,
	body string, sources []storage.Source, stored []storage.StoredFile, now storage.Timestamp,
	save func(context.Context, *storage.Conversation) error) (*storage.Message, error) {
	m := &storage.Message{ID: NewID(PrefixMessage), Object: "message", Mode: c.Mode, ConversationID: c.ID,
		Author: author, Body: body, Attachments: []storage.Attachment{}, Files: stored, Sources: sources, CreatedAt: now}
	if m.Sources == nil {
		m.Sources = []storage.Source{}
	}
	if err := q.InsertMessage(ctx, m); err != nil {
		return nil, err
	}
	if len(stored) > 0 {
		key := s.cachedKey()
		if key == nil {
			return nil, errors.New("attachments: signing key not loaded")
		}
		if err := q.InsertAttachments(ctx, m); err != nil {
			return nil, err
		}
		s.sign(key, m)
	}
	c.MessageCount++
	c.LastMessageAt, c.UpdatedAt = now, now
	if err := save(ctx, c); err != nil {
		return nil, err
	}
	return m, s.emit(ctx, q, c.Mode, EventMessageCreated, m.ID, m, now)
}

// Message returns a message, or a NotFound error.
func (s *Service) Message(ctx context.Context, mode storage.Mode, id string) (*storage.Message, error) {
	m, err := s.db.Read().Message(ctx, mode, id)
	if err != nil {
		return nil, found(err, noSuch("message", id))
	}
	return m, s.present(ctx, m)
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
	if err := s.present(ctx, rows...); err != nil {
		return List[*storage.Message]{}, err
	}
	return makeList(rows, pg, func(m *storage.Message) storage.Cursor {
		return storage.Cursor{Key: int64(m.CreatedAt), ID: m.ID}
	}), nil
}
