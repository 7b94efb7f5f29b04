package app

import (
	"context"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Render turns an API object into the bytes of a response; what it returns
// may be kept and given out again, so it must not depend on the request.
type Render func(v any) ([]byte, error)

// The GET by id of conversations, tickets and contacts is answered from
// memory: the rendered object is kept (storage.DB.Keep) until the writer
// changes its row, which it does before that write returns, so a read that
// follows an acknowledged write, from any client, sees it. A miss reads
// the row and renders it as before.

// ConversationRendered returns the conversation rendered by render, or a
// NotFound error.
func (s *Service) ConversationRendered(ctx context.Context, mode chat.Mode, id string, render Render) ([]byte, error) {
	return rendered(s.db, storage.TableConversations, mode, id, render, func() (any, error) {
		return s.Conversation(ctx, mode, id)
	})
}

// TicketRendered returns the ticket by id or number rendered by render, or
// a NotFound error. Only a reference by id is kept.
func (s *Service) TicketRendered(ctx context.Context, mode chat.Mode, ref string, render Render) ([]byte, error) {
	read := func() (any, error) { return s.Ticket(ctx, mode, ref) }
	if _, isNumber := ticketNumber(ref); isNumber {
		v, err := read()
		if err != nil {
			return nil, err
		}
		return render(v)
	}
	return rendered(s.db, storage.TableTickets, mode, ref, render, read)
}

// ContactRendered returns the contact rendered by render, or a NotFound error.
func (s *Service) ContactRendered(ctx context.Context, mode chat.Mode, id string, render Render) ([]byte, error) {
	return rendered(s.db, storage.TableContacts, mode, id, render, func() (any, error) {
		return s.Contact(ctx, mode, id)
	})
}

// rendered returns what is kept for the row of t with id in mode, or
// reads and renders it and keeps the result. The generation is taken
// before the read, so a read that a write overtakes is not kept.
func rendered(db *storage.DB, t storage.Table, mode chat.Mode, id string, render Render, read func() (any, error)) ([]byte, error) {
	if b, ok := db.Kept(t, id, string(mode)); ok {
		return b, nil
	}
	readAt := db.Generation()
	v, err := read()
	if err != nil {
		return nil, err
	}
	b, err := render(v)
	if err != nil {
		return nil, err
	}
	db.Keep(t, id, string(mode), b, readAt)
	return b, nil
}
