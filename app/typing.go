package app

import (
	"context"
	"sync"
	"time"

	"chatsvc/chat"
)

// Typing indicators are hints that last seconds: they are kept in memory,
// never in the database, and carried by the live streams both sides already
// follow (the widget's and the dashboard's).

// TypingFor is how long one typing signal shows; a side that keeps typing
// signals again before it ends.
const TypingFor = 5 * time.Second

// Who is typing.
const (
	TypingVisitor = "visitor"
	TypingAgent   = "agent"
)

type typingKey struct{ conv, side string }

// typingMarks holds when each side last typed in each conversation.
type typingMarks struct {
	mu sync.Mutex
	at map[typingKey]time.Time
}

// mark notes side typing in conv at now, dropping stale marks as the map grows.
func (t *typingMarks) mark(conv, side string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.at == nil {
		t.at = map[typingKey]time.Time{}
	}
	if len(t.at) >= 1024 {
		for k, at := range t.at {
			if now.Sub(at) > TypingFor {
				delete(t.at, k)
			}
		}
	}
	t.at[typingKey{conv, side}] = now
}

// TypingAt is when side last typed in the conversation (zero: not lately).
func (s *Service) TypingAt(convID, side string) time.Time {
	s.typing.mu.Lock()
	defer s.typing.mu.Unlock()
	return s.typing.at[typingKey{convID, side}]
}

// VisitorTyping notes that the visitor is typing in their conversation, and
// wakes the streams that follow it.
func (s *Service) VisitorTyping(ctx context.Context, v *Visit) error {
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
	if err != nil {
		return err
	}
	if c == nil || c.Status == chat.StatusClosed {
		return nil // nobody to tell yet: the first message opens the conversation
	}
	s.noteTyping(c.ID, TypingVisitor)
	return nil
}

// AgentTyping notes that a team member is typing in a conversation, and
// wakes the streams that follow it (the visitor's widget among them).
func (s *Service) AgentTyping(ctx context.Context, mode chat.Mode, convID string) error {
	if _, err := s.db.Read().Conversation(ctx, mode, convID); err != nil {
		return found(err, noSuch("conversation", convID))
	}
	s.noteTyping(convID, TypingAgent)
	return nil
}

func (s *Service) noteTyping(convID, side string) {
	s.typing.mark(convID, side, s.now())
	s.changes.signal([]string{convID})
}
