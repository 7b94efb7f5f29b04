package app

import (
	"context"
	"errors"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Message limits (docs/api.md, Limits).
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
	Files       []FileInput // uploaded with the request (the dashboard's reply box), named "files.N"
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
	if n := len(in.Attachments.V) + len(in.Files); n > MaxAttachments {
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
func (s *Service) PostAgentMessage(ctx context.Context, mode chat.Mode, convID string, in AgentMessage) (*chat.Message, error) {
	if err := in.validate(&s.att); err != nil {
		return nil, err
	}
	author, memberErr := s.author(ctx, in.AuthorID.V)
	var stored []chat.StoredFile
	if len(in.Attachments.V)+len(in.Files) > 0 {
		if err := s.noFiles("attachments"); err != nil {
			return nil, err
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
		saved, err := s.storeFiles(ctx, in.Files, s.fileRefusal("files", false))
		if err != nil {
			return nil, err
		}
		stored = append(stored, saved...)
	}
	return writeNamed(ctx, s, "post to conversation "+convID, func(q *storage.Q) (*chat.Message, error) {
		now := s.stamp()
		// One statement on the single writer in the usual case: count the
		// message on a conversation in which it changes nothing else. Only
		// when that finds nothing is the conversation read and the
		// lifecycle asked.
		err := memberErr
		if err == nil {
			err = q.CountAgentMessageIn(ctx, mode, convID, now, agentReplyCounts)
		}
		if errors.Is(err, storage.ErrNotFound) {
			c, why := agentMessageAllowed(ctx, q, mode, convID, in, memberErr)
			if why != nil {
				return nil, why
			}
			_, err = s.transition(ctx, q, c, chat.AgentReply, now, moveInput{member: author.ID, counted: true})
		}
		if err != nil {
			return nil, err
		}
		return s.insertMessage(ctx, q, mode, convID, author, in.Body.V, nil, stored, now)
	})
}

// author returns the team member id as a message author. Members are never
// deleted and never renamed, so each is read once.
func (s *Service) author(ctx context.Context, id string) (chat.Author, error) {
	if a, ok := s.authors.Load(id); ok {
		return a.(chat.Author), nil
	}
	m, err := s.db.Read().Member(ctx, id)
	if err != nil {
		return chat.Author{}, err
	}
	a := chat.Author{Type: chat.AuthorAgent, ID: &m.ID, Name: &m.Name}
	s.authors.Store(id, a)
	return a, nil
}

// agentMessageAllowed checks that the conversation exists and is not closed
// and that the author is a team member (memberErr is the error of looking
// the author up), and returns the conversation.
func agentMessageAllowed(ctx context.Context, q *storage.Q, mode chat.Mode, convID string, in AgentMessage, memberErr error) (*chat.Conversation, error) {
	c, err := q.Conversation(ctx, mode, convID)
	if err != nil {
		return nil, found(err, noSuch("conversation", convID))
	}
	if memberErr != nil {
		return nil, found(memberErr, noSuchRef("author_id", "team member", in.AuthorID.V))
	}
	if chat.NextStatus(c.Status, chat.AgentReply).Refused {
		return nil, closedErr(convID)
	}
	return c, nil
}

// addMessage stores a message, counts it on its conversation (whose other
// changes the caller made on c) and records message.created.
func (s *Service) addMessage(ctx context.Context, q *storage.Q, c *chat.Conversation, author chat.Author,
	body string, sources []chat.Source, now chat.Timestamp) (*chat.Message, error) {
	return s.addMessageSaving(ctx, q, c, author, body, sources, now, q.UpdateConversation)
}

// addMessageWith is addMessage for a message that holds files (already
// stored); the signing key must have been loaded.
func (s *Service) addMessageWith(ctx context.Context, q *storage.Q, c *chat.Conversation, author chat.Author,
	body string, stored []chat.StoredFile, now chat.Timestamp) (*chat.Message, error) {
	return s.countMessage(ctx, q, c, now, q.UpdateConversation, func() (*chat.Message, error) {
		return s.insertMessage(ctx, q, c.Mode, c.ID, author, body, nil, stored, now)
	})
}

// countMessage counts a message on its conversation, saved by save, then
// stores it with insert.
func (s *Service) countMessage(ctx context.Context, q *storage.Q, c *chat.Conversation, now chat.Timestamp,
	save func(context.Context, *chat.Conversation) error, insert func() (*chat.Message, error)) (*chat.Message, error) {
	c.MessageCount++
	c.LastMessageAt, c.UpdatedAt = now, now
	if err := save(ctx, c); err != nil {
		return nil, err
	}
	return insert()
}

// addMessageSaving is addMessage with the conversation written by save:
// q.UpdateConversationActivity when the caller changed at most its status.
func (s *Service) addMessageSaving(ctx context.Context, q *storage.Q, c *chat.Conversation, author chat.Author,
	body string, sources []chat.Source, now chat.Timestamp,
	save func(context.Context, *chat.Conversation) error) (*chat.Message, error) {
	return s.countMessage(ctx, q, c, now, save, func() (*chat.Message, error) {
		return s.insertMessage(ctx, q, c.Mode, c.ID, author, body, sources, nil, now)
	})
}

// insertMessage stores a message, with its attachments (already stored),
// records message.created and calls what a message of its author owes: the
// missed-reply e-mail of a team member's, the push to the assignee of a
// visitor's. The caller counts it on its conversation.
// With attachments, the signing key must have been loaded (signingKey)
// beforehand, since the event carries signed URLs.
func (s *Service) insertMessage(ctx context.Context, q *storage.Q, mode chat.Mode, convID string, author chat.Author,
	body string, sources []chat.Source, stored []chat.StoredFile, now chat.Timestamp) (*chat.Message, error) {
	m := &chat.Message{ID: NewID(PrefixMessage), Mode: mode, ConversationID: convID,
		Author: author, Body: body, Attachments: []chat.Attachment{}, Files: stored, Sources: sources, CreatedAt: now}
	if m.Sources == nil {
		m.Sources = []chat.Source{}
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
	if err := s.emit(ctx, q, mode, chat.EventMessageCreated, m.ID, m, now); err != nil {
		return nil, err
	}
	switch author.Type {
	case chat.AuthorAgent:
		return m, s.oweMissedReply(ctx, q, m)
	case chat.AuthorContact:
		return m, s.pushToAssignee(ctx, q, m)
	}
	return m, nil
}

// Message returns a message, or a NotFound error.
func (s *Service) Message(ctx context.Context, mode chat.Mode, id string) (*chat.Message, error) {
	m, err := s.db.Read().Message(ctx, mode, id)
	if err != nil {
		return nil, found(err, noSuch("message", id))
	}
	return m, s.present(ctx, m)
}

// Messages lists a conversation's messages oldest first.
func (s *Service) Messages(ctx context.Context, mode chat.Mode, convID string, lp ListParams) (List[*chat.Message], error) {
	pg, err := lp.page()
	if err != nil {
		return List[*chat.Message]{}, err
	}
	var rows []*chat.Message
	err = s.db.ReadTx(ctx, func(q *storage.Q) error {
		if _, err := q.Conversation(ctx, mode, convID); err != nil {
			return found(err, noSuch("conversation", convID))
		}
		rows, err = q.Messages(ctx, convID, pg)
		return err
	})
	if err != nil {
		return List[*chat.Message]{}, err
	}
	if err := s.present(ctx, rows...); err != nil {
		return List[*chat.Message]{}, err
	}
	return makeList(rows, pg, func(m *chat.Message) chat.Cursor {
		return chat.Cursor{Key: int64(m.CreatedAt), ID: m.ID}
	}), nil
}
