package app

import (
	"context"

	"chatsvc/chat"
	"chatsvc/storage"
)

// VisitorFeed is the position of a visitor's live event stream.
type VisitorFeed struct {
	ConversationID string
	LastMessageID  string
	// What the conversation looked like when last sent. Two changes can
	// share a millisecond of updated_at, so the count and status are
	// compared too.
	UpdatedAt    chat.Timestamp
	MessageCount int
	Status       chat.Status
}

// sent notes c as the visitor was last sent it.
func (feed *VisitorFeed) sent(c *chat.Conversation) {
	*feed = VisitorFeed{ConversationID: c.ID, LastMessageID: feed.LastMessageID, UpdatedAt: c.UpdatedAt,
		MessageCount: c.MessageCount, Status: c.Status}
}

// VisitorUpdates returns what the visitor has not been sent yet: messages
// of their current conversation after feed.LastMessageID (at most
// MaxVisitorPage; call again while more come), and the conversation when it
// changed. It advances feed. When the visitor starts a new conversation the
// feed follows it.
func (s *Service) VisitorUpdates(ctx context.Context, v *Visit, feed *VisitorFeed) ([]*chat.Message, *VisitorConversation, error) {
	var msgs []*chat.Message
	var conv *VisitorConversation
	var seen chat.Timestamp
	err := s.db.ReadTx(ctx, func(q *storage.Q) error {
		c, err := orNil(q.LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
		if err != nil || c == nil {
			return err
		}
		if c.ID == feed.ConversationID && c.UpdatedAt == feed.UpdatedAt && c.MessageCount == feed.MessageCount &&
			c.Status == feed.Status {
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
			if seen, err = q.VisitorSeenAt(ctx, c.ID); err != nil {
				return err
			}
		}
		if len(rows) < MaxVisitorPage { // caught up: the conversation's state is current
			feed.sent(c)
			conv = visitorConversation(c)
		}
		return nil
	})
	if err == nil && len(msgs) > 0 { // an open stream shows the visitor each message as it comes
		err = s.visitorSaw(ctx, msgs[0].ConversationID, seen, msgs)
	}
	if err == nil {
		err = s.present(ctx, msgs...)
	}
	return msgs, conv, err
}
