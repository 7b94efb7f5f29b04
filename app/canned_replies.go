package app

import (
	"context"
	"errors"
	"regexp"
	"strconv"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Canned reply limits (docs/api.md, Canned replies).
const (
	MaxCannedTitle = 100
	MaxCannedBody  = 4000
)

var shortcutPattern = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)

// CannedReplyInput is the body of POST and PATCH /canned-replies.
type CannedReplyInput struct {
	Shortcut Field[string]
	Title    Field[string]
	Body     Field[string]
}

// validate checks the fields present; create also requires all three.
func (in CannedReplyInput) validate(create bool) error {
	for _, f := range []struct {
		name string
		v    Field[string]
	}{{"shortcut", in.Shortcut}, {"title", in.Title}, {"body", in.Body}} {
		if create && !f.v.has() {
			return missing(f.name)
		}
		if f.v.Null {
			return invalid(f.name, "%s cannot be null.", f.name)
		}
	}
	if in.Shortcut.Set && !shortcutPattern.MatchString(in.Shortcut.V) {
		return invalid("shortcut", "shortcut must be 1 to 32 lowercase letters, digits or hyphens (got '%s').", in.Shortcut.V)
	}
	if err := checkLen("title", in.Title.V, MaxCannedTitle, in.Title.Set); err != nil {
		return err
	}
	return checkLen("body", in.Body.V, MaxCannedBody, in.Body.Set)
}

// apply copies the fields present onto c.
func (in CannedReplyInput) apply(c *chat.CannedReply) {
	if in.Shortcut.Set {
		c.Shortcut = in.Shortcut.V
	}
	if in.Title.Set {
		c.Title = in.Title.V
	}
	if in.Body.Set {
		c.Body = in.Body.V
	}
}

// shortcutTaken turns a unique-shortcut failure into 409 resource_conflict.
func shortcutTaken(err error, shortcut string) error {
	if errors.Is(err, storage.ErrConflict) {
		return conflictErr("shortcut", "A canned reply with the shortcut '%s' already exists.", shortcut)
	}
	return err
}

// CreateCannedReply stores a new canned reply.
func (s *Service) CreateCannedReply(ctx context.Context, mode chat.Mode, in CannedReplyInput) (*chat.CannedReply, error) {
	if err := in.validate(true); err != nil {
		return nil, err
	}
	return writeNamed(ctx, s, "create canned reply", func(q *storage.Q) (*chat.CannedReply, error) {
		now := s.stamp()
		c := &chat.CannedReply{ID: NewID(PrefixCannedReply), Mode: mode, CreatedAt: now, UpdatedAt: now}
		in.apply(c)
		return c, shortcutTaken(q.InsertCannedReply(ctx, c), c.Shortcut)
	})
}

// UpdateCannedReply changes the fields present in the request.
func (s *Service) UpdateCannedReply(ctx context.Context, mode chat.Mode, id string, in CannedReplyInput) (*chat.CannedReply, error) {
	if err := in.validate(false); err != nil {
		return nil, err
	}
	return writeNamed(ctx, s, "update canned reply "+id, func(q *storage.Q) (*chat.CannedReply, error) {
		c, err := q.CannedReply(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("canned reply", id))
		}
		in.apply(c)
		c.UpdatedAt = s.stamp()
		return c, shortcutTaken(q.UpdateCannedReply(ctx, c), c.Shortcut)
	})
}

// DeleteCannedReply removes a canned reply.
func (s *Service) DeleteCannedReply(ctx context.Context, mode chat.Mode, id string) (*Deleted, error) {
	return writeNamed(ctx, s, "delete canned reply "+id, func(q *storage.Q) (*Deleted, error) {
		err := q.DeleteCannedReply(ctx, mode, id)
		return &Deleted{ID: id, Object: "canned_reply", Deleted: true}, found(err, noSuch("canned reply", id))
	})
}

// CannedReply reads one canned reply.
func (s *Service) CannedReply(ctx context.Context, mode chat.Mode, id string) (*chat.CannedReply, error) {
	c, err := s.db.Read().CannedReply(ctx, mode, id)
	return c, found(err, noSuch("canned reply", id))
}

// CannedReplies lists a mode's canned replies, newest first.
func (s *Service) CannedReplies(ctx context.Context, mode chat.Mode, in ListParams) (List[*chat.CannedReply], error) {
	pg, err := in.page()
	if err != nil {
		return List[*chat.CannedReply]{}, err
	}
	rows, err := s.db.Read().CannedReplies(ctx, mode, pg)
	if err != nil {
		return List[*chat.CannedReply]{}, err
	}
	return makeList(rows, pg, func(c *chat.CannedReply) chat.Cursor {
		return chat.Cursor{Key: int64(c.CreatedAt), ID: c.ID}
	}), nil
}

// CannedTicketNumber is the {{ticket.number}} of canned replies inserted in
// a conversation: its newest ticket's number, "" when it has none.
func (s *Service) CannedTicketNumber(ctx context.Context, mode chat.Mode, conversationID string) (string, error) {
	n, err := s.db.Read().TicketNumberOfConversation(ctx, mode, conversationID)
	if errors.Is(err, storage.ErrNotFound) {
		return "", nil
	}
	return strconv.FormatInt(n, 10), err
}
