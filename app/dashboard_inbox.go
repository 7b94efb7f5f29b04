package app

import (
	"context"
	"slices"
	"strconv"

	"chatsvc/chat"
	"chatsvc/storage"
)

// InboxStatuses is the order the inbox shows conversations in: those
// waiting for a person first, closed ones last.
var InboxStatuses = []chat.Status{chat.StatusWaiting, chat.StatusHandedOff, chat.StatusOpen, chat.StatusClosed}

// InboxRow is a conversation in the inbox with the messages the member has
// not seen and the work it asks for.
type InboxRow struct {
	*chat.Conversation
	Unread int
	*storage.InboxWork
	// NeedsReply marks a conversation the team holds whose visitor spoke last.
	NeedsReply bool
}

// InboxGroup is one status of the inbox; NextCursor pages on through it.
type InboxGroup struct {
	Status     chat.Status
	Rows       []InboxRow
	HasMore    bool
	NextCursor string
}

// inboxPerStatus is how many conversations of each status the inbox shows.
const inboxPerStatus = 50

// Inbox returns the newest conversations of each status, in InboxStatuses
// order, with the member's unread counts; assignee keeps one member's ("none":
// the unassigned), "" all.
func (s *Service) Inbox(ctx context.Context, mode chat.Mode, memberID, assignee string) ([]InboxGroup, error) {
	groups := make([]InboxGroup, 0, len(InboxStatuses))
	for _, st := range InboxStatuses {
		g, err := s.InboxPage(ctx, mode, memberID, assignee, string(st), "")
		if err != nil {
			return nil, err
		}
		groups = append(groups, *g)
	}
	return groups, nil
}

// InboxPage returns one page of the inbox's conversations of a status,
// after cursor ("" for the newest), assigned as Inbox says.
func (s *Service) InboxPage(ctx context.Context, mode chat.Mode, memberID, assignee, status, cursor string) (*InboxGroup, error) {
	if status == "" {
		return nil, missing("status")
	}
	l, err := s.Conversations(ctx, mode, ConversationQuery{Status: status, AssigneeID: assignee,
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
	work, err := s.db.Read().InboxWorkOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	g := &InboxGroup{Status: chat.Status(status), HasMore: l.HasMore}
	if l.NextCursor != nil {
		g.NextCursor = *l.NextCursor
	}
	for _, c := range l.Data {
		w := work[c.ID]
		if w == nil {
			w = &storage.InboxWork{}
		}
		needs := (c.Status == chat.StatusWaiting || c.Status == chat.StatusHandedOff) && w.WaitingSince != nil
		g.Rows = append(g.Rows, InboxRow{Conversation: c, Unread: max(c.MessageCount-seen[c.ID], 0), InboxWork: w, NeedsReply: needs})
	}
	if g.Status == chat.StatusWaiting {
		longestWaitFirst(g.Rows)
	}
	return g, nil
}

// longestWaitFirst orders waiting conversations by how long their visitor
// has waited, the longest first, so the oldest question is not buried under
// new ones; a conversation with no waiting visitor comes last. It orders
// one page: a page holds the newest conversations, older ones are on the next.
func longestWaitFirst(rows []InboxRow) {
	since := func(r InboxRow) chat.Timestamp {
		if r.WaitingSince != nil {
			return *r.WaitingSince
		}
		return r.CreatedAt
	}
	slices.SortStableFunc(rows, func(a, b InboxRow) int {
		if (a.WaitingSince == nil) != (b.WaitingSince == nil) {
			if a.WaitingSince == nil {
				return 1
			}
			return -1
		}
		return since(a).Time().Compare(since(b).Time())
	})
}

// InboxCounts is how many conversations not yet closed each inbox view holds.
type InboxCounts struct{ All, Mine, Unassigned int }

// InboxViewCounts counts the conversations not closed of the inbox's views
// "All", "Mine" (assigned to memberID) and "Unassigned".
func (s *Service) InboxViewCounts(ctx context.Context, mode chat.Mode, memberID string) (InboxCounts, error) {
	var c InboxCounts
	var err error
	c.All, c.Mine, c.Unassigned, err = s.db.Read().InboxViewCounts(ctx, mode, memberID, chat.OpenStatuses())
	return c, err
}

// MarkConversationRead records that the member has seen every message of
// the conversation as it is now.
func (s *Service) MarkConversationRead(ctx context.Context, memberID string, c *chat.Conversation) error {
	return s.writeNamed(ctx, "mark conversation "+c.ID+" read", func(q *storage.Q) error {
		return q.MarkConversationRead(ctx, memberID, c.ID, c.MessageCount)
	})
}

// Member returns the team member with id.
func (s *Service) Member(ctx context.Context, id string) (*chat.Member, error) {
	m, err := s.db.Read().Member(ctx, id)
	return m, found(err, noSuch("team member", id))
}
