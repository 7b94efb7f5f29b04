package app

import (
	"context"
	"strings"

	"chatsvc/chat"
	"chatsvc/storage"
)

// NoteCreate is the body of POST /conversations/{id}/notes.
type NoteCreate struct {
	Body     Field[string]
	AuthorID Field[string]
}

// AddNote stores an internal note of a team member on a conversation, in
// any status. Notes never reach the visitor: not the widget, its event
// stream nor any e-mail.
func (s *Service) AddNote(ctx context.Context, mode chat.Mode, convID string, in NoteCreate) (*chat.Note, error) {
	if !in.Body.has() {
		return nil, missing("body")
	}
	if err := checkLen("body", strings.TrimSpace(in.Body.V), MaxMessageBody, true); err != nil {
		return nil, err
	}
	if !in.AuthorID.has() {
		return nil, missing("author_id")
	}
	return writeNamed(ctx, s, "add note to conversation "+convID, func(q *storage.Q) (*chat.Note, error) {
		if _, err := q.Conversation(ctx, mode, convID); err != nil {
			return nil, found(err, noSuch("conversation", convID))
		}
		if err := member(ctx, q, "author_id", in.AuthorID.V); err != nil {
			return nil, err
		}
		n := &chat.Note{ID: NewID(PrefixNote), Mode: mode, ConversationID: convID, AuthorID: in.AuthorID.ptr(),
			Body: in.Body.V, CreatedAt: s.stamp()}
		return n, q.InsertNote(ctx, n)
	})
}

// NoteList lists a conversation's notes oldest first, a page at a time.
func (s *Service) NoteList(ctx context.Context, mode chat.Mode, convID string, in ListParams) (List[*chat.Note], error) {
	pg, err := in.page()
	if err != nil {
		return List[*chat.Note]{}, err
	}
	all, err := s.Notes(ctx, mode, convID)
	if err != nil {
		return List[*chat.Note]{}, err
	}
	// A conversation holds few notes: they are paged after reading them all.
	rows := all[:0:0]
	for _, n := range all {
		if pg.After == nil || n.CreatedAt > chat.Timestamp(pg.After.Key) ||
			n.CreatedAt == chat.Timestamp(pg.After.Key) && n.ID > pg.After.ID {
			rows = append(rows, n)
		}
		if len(rows) == pg.Limit {
			break
		}
	}
	return makeList(rows, pg, func(n *chat.Note) chat.Cursor {
		return chat.Cursor{Key: int64(n.CreatedAt), ID: n.ID}
	}), nil
}

// Notes lists a conversation's internal notes, oldest first; the team sees
// them, the visitor never does.
func (s *Service) Notes(ctx context.Context, mode chat.Mode, conversationID string) ([]*chat.Note, error) {
	if _, err := s.Conversation(ctx, mode, conversationID); err != nil {
		return nil, err
	}
	return s.db.Read().Notes(ctx, conversationID)
}
