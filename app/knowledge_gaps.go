package app

import (
	"context"

	"chatsvc/chat"
	"chatsvc/storage"
)

// UnansweredQuestion is an entry of GET /reports/unanswered: a visitor
// question the assistant could not answer, or answered unhelpfully.
type UnansweredQuestion struct {
	Question       string         `json:"question"`
	Count          int            `json:"count"`
	LastAskedAt    chat.Timestamp `json:"last_asked_at"`
	ConversationID string         `json:"conversation_id"`
}

// offsetCursor names the position of a list of groups, which have no id
// of their own to page after.
const offsetCursor = "offset"

// Unanswered lists the mode's knowledge gaps, most asked first, a page at
// a time. The groups change as visitors ask, so the cursor is a position.
func (s *Service) Unanswered(ctx context.Context, mode chat.Mode, in ListParams) (List[UnansweredQuestion], error) {
	pg, err := in.page()
	if err != nil {
		return List[UnansweredQuestion]{}, err
	}
	offset := 0
	if pg.After != nil {
		if pg.After.ID != offsetCursor || pg.After.Key < 0 {
			return List[UnansweredQuestion]{}, invalid("cursor", "cursor is not a next_cursor this API returned.")
		}
		offset = int(pg.After.Key)
	}
	rows, err := s.db.Read().UnansweredQuestions(ctx, mode, offset, pg.Limit)
	if err != nil {
		return List[UnansweredQuestion]{}, err
	}
	out := make([]UnansweredQuestion, len(rows))
	for i, r := range rows {
		out[i] = UnansweredQuestion(r)
	}
	return makeList(out, pg, func(UnansweredQuestion) chat.Cursor {
		return chat.Cursor{Key: int64(offset + pg.Limit - 1), ID: offsetCursor}
	}), nil
}

// ReplyFeedback is the body of POST /widget/v1/messages/{id}/feedback.
type ReplyFeedback struct {
	Helpful Field[bool]
}

// Feedback is the visitor's verdict on an assistant reply.
type Feedback struct {
	Object    string         `json:"object"`
	MessageID string         `json:"message_id"`
	Helpful   bool           `json:"helpful"`
	UpdatedAt chat.Timestamp `json:"updated_at"`
}

// GiveFeedback records whether an assistant reply in one of the visitor's
// conversations helped; giving it again replaces it. Any other message is
// NotFound, so a visitor learns nothing of others' messages.
func (s *Service) GiveFeedback(ctx context.Context, v *Visit, messageID string, in ReplyFeedback) (*Feedback, error) {
	if !in.Helpful.has() {
		return nil, missing("helpful")
	}
	return writeNamed(ctx, s, "record feedback on message "+messageID, func(q *storage.Q) (*Feedback, error) {
		now := s.stamp()
		if err := q.SetReplyFeedback(ctx, v.Mode, v.Visitor.ID, messageID, in.Helpful.V, now); err != nil {
			return nil, found(err, noSuch("assistant reply", messageID))
		}
		return &Feedback{Object: "feedback", MessageID: messageID, Helpful: in.Helpful.V, UpdatedAt: now}, nil
	})
}
