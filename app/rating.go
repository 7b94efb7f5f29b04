package app

import (
	"context"
	"strings"

	"chatsvc/chat"
	"chatsvc/storage"
)

// CodeConversationOpen refuses a rating before the conversation is closed.
const CodeConversationOpen = "conversation_open"

// MaxRatingComment bounds a rating's comment.
const MaxRatingComment = 1000

// VisitorRating is the body of POST /widget/v1/rating.
type VisitorRating struct {
	Score   Field[int]
	Comment Field[string]
}

// RateConversation records the visitor's rating (1 to 5, with an optional
// comment) of their latest conversation once it is closed; rating again
// replaces the first rating. Before it is closed: a Conflict error. Beyond
// VisitorRatingsPerHour for the visitor: a RateLimited error.
func (s *Service) RateConversation(ctx context.Context, v *Visit, in VisitorRating) (*VisitorConversation, error) {
	if !in.Score.has() {
		return nil, missing("score")
	}
	if in.Score.V < 1 || in.Score.V > 5 {
		return nil, invalid("score", "score must be a whole number from 1 to 5 (got %d).", in.Score.V)
	}
	if err := checkLen("comment", in.Comment.V, MaxRatingComment, false); err != nil {
		return nil, err
	}
	if err := s.visitorAllowed(s.visitors.ratings, v, "Too many ratings; please try again later."); err != nil {
		return nil, err
	}
	var comment *string
	if c := strings.TrimSpace(in.Comment.V); c != "" {
		comment = &c
	}
	c, err := writeResult(ctx, s, func(q *storage.Q) (*chat.Conversation, error) {
		c, err := orNil(q.LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, &Error{Kind: NotFound, Code: CodeResourceMissing,
				Message: "There is no conversation to rate yet."}
		}
		if c.Status != chat.StatusClosed {
			return nil, &Error{Kind: Conflict, Code: CodeConversationOpen,
				Message: "The conversation is still open; it can be rated once it is closed."}
		}
		now := s.stamp()
		c.Rating = &chat.Rating{Score: in.Score.V, Comment: comment, RatedAt: now}
		c.UpdatedAt = now
		if err := q.RateConversation(ctx, c); err != nil {
			return nil, err
		}
		return c, s.emit(ctx, q, v.Mode, chat.EventConversationRated, c.ID, c, now)
	})
	return visitorConversation(c), err
}
