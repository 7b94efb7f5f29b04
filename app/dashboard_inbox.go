package app

import (
	"strconv"

	"context"

	"chatsvc/storage"
)

// InboxStatuses is the order the inbox shows conversations in: those
// waiting for a person first, closed ones last.
var InboxStatuses = []string{"waiting", "handed_off", "open", "closed"}

// InboxRow is a conversation in the inbox with the messages the member has not seen.
type InboxRow struct {
	*storage.Conversation
	Unread int
}

// InboxGroup is one status of the inbox.
type InboxGroup struct {
	Status  string
	Rows    []InboxRow
	HasMore bool
}

// inboxPerStatus is how many conversations of each status the inbox shows.
const inboxPerStatus = 50

// Inbox returns the newest conversations of each status, in InboxStatuses
// order, with the member's unread counts.
func (s *Service) Inbox(ctx context.Context, mode storage.Mode, memberID string) ([]InboxGroup, error) {
	groups := make([]InboxGroup, 0, len(InboxStatuses))
	for _, st := range InboxStatuses {
		l, err := s.Conversations(ctx, mode, ConversationQuery{Status: st,
			ListParams: ListParams{Limit: strconv.Itoa(inboxPerStatus)}})
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(l.Data))
		for i, c := range l.Data {
			ids[i] = c.ID
		}
		seen, err := s.db.Read().SeenCounts(ctx, memberID, ids)
		if err != nil {
			return nil, err
		}
		g := InboxGroup{Status: st, HasMore: l.HasMore}
		for _, c := range l.Data {
			g.Rows = append(g.Rows, InboxRow{Conversation: c, Unread: max(c.MessageCount-seen[c.ID], 0)})
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// MarkConversationRead records that the member has seen every message of
// the conversation as it is now.
func (s *Service) MarkConversationRead(ctx context.Context, memberID string, c *storage.Conversation) error {
	return s.write(ctx, func(q *storage.Q) error {
		return q.MarkConversationRead(ctx, memberID, c.ID, c.MessageCount)
	})
}

// Member returns the team member with id.
func (s *Service) Member(ctx context.Context, id string) (*storage.Member, error) {
	m, err := s.db.Read().Member(ctx, id)
	return m, found(err, noSuch("team member", id))
}
