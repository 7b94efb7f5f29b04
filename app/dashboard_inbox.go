package app

import (
	"strconv"

	"context"

	"chatsvc/storage"
	"chatsvc/support"
)

// InboxStatuses is the order the inbox shows conversations in: those
// waiting for a person first, closed ones last.
var InboxStatuses = []string{StatusWaiting, StatusHandedOff, StatusOpen, StatusClosed}

// InboxRow is a conversation in the inbox with the messages the member has not seen.
type InboxRow struct {
	*support.Conversation
	Unread int
}

// InboxGroup is one status of the inbox; NextCursor pages on through it.
type InboxGroup struct {
	Status     string
	Rows       []InboxRow
	HasMore    bool
	NextCursor string
}

// inboxPerStatus is how many conversations of each status the inbox shows.
const inboxPerStatus = 50

// Inbox returns the newest conversations of each status, in InboxStatuses
// order, with the member's unread counts.
func (s *Service) Inbox(ctx context.Context, mode support.Mode, memberID string) ([]InboxGroup, error) {
	groups := make([]InboxGroup, 0, len(InboxStatuses))
	for _, st := range InboxStatuses {
		g, err := s.InboxPage(ctx, mode, memberID, st, "")
		if err != nil {
			return nil, err
		}
		groups = append(groups, *g)
	}
	return groups, nil
}

// InboxPage returns one page of the inbox's conversations of a status,
// after cursor ("" for the newest).
func (s *Service) InboxPage(ctx context.Context, mode support.Mode, memberID, status, cursor string) (*InboxGroup, error) {
	if status == "" {
		return nil, missing("status")
	}
	l, err := s.Conversations(ctx, mode, ConversationQuery{Status: status,
		ListParams: ListParams{Limit: strconv.Itoa(inboxPerStatus), Cursor: cursor}})
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
	g := &InboxGroup{Status: status, HasMore: l.HasMore}
	if l.NextCursor != nil {
		g.NextCursor = *l.NextCursor
	}
	for _, c := range l.Data {
		g.Rows = append(g.Rows, InboxRow{Conversation: c, Unread: max(c.MessageCount-seen[c.ID], 0)})
	}
	return g, nil
}

// MarkConversationRead records that the member has seen every message of
// the conversation as it is now.
func (s *Service) MarkConversationRead(ctx context.Context, memberID string, c *support.Conversation) error {
	return s.write(ctx, func(q *storage.Q) error {
		return q.MarkConversationRead(ctx, memberID, c.ID, c.MessageCount)
	})
}

// Member returns the team member with id.
func (s *Service) Member(ctx context.Context, id string) (*support.Member, error) {
	m, err := s.db.Read().Member(ctx, id)
	return m, found(err, noSuch("team member", id))
}
