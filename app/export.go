package app

import (
	"context"

	"chatsvc/chat"
	"chatsvc/storage"
)

// ContactExport is everything held about one contact: the answer to an
// access request (GET /contacts/{id}/export).
type ContactExport struct {
	Object        string               `json:"object"`
	Contact       *chat.Contact        `json:"contact"`
	Conversations []ConversationExport `json:"conversations"`
	Tickets       []TicketExport       `json:"tickets"`
}

// ConversationExport is one of the contact's conversations, whole.
type ConversationExport struct {
	Conversation *chat.Conversation `json:"conversation"`
	Messages     []*chat.Message    `json:"messages"`
	Notes        []*chat.Note       `json:"notes"`
}

// TicketExport is one of the contact's tickets with its comments, oldest
// first, internal ones included.
type TicketExport struct {
	Ticket   *chat.Ticket          `json:"ticket"`
	Comments []*chat.TicketComment `json:"comments"`
}

// ExportContact gathers, from one snapshot, the contact and the
// conversations and tickets that erasing it would scrub (see heldAbout),
// oldest first, with their messages (attachment URLs signed) and notes.
// It returns a NotFound error for an unknown contact.
func (s *Service) ExportContact(ctx context.Context, mode chat.Mode, id string) (*ContactExport, error) {
	out := &ContactExport{Object: "contact_export", Conversations: []ConversationExport{}, Tickets: []TicketExport{}}
	err := s.db.ReadTx(ctx, func(q *storage.Q) error {
		c, err := q.Contact(ctx, mode, id)
		if err != nil {
			return found(err, noSuch("contact", id))
		}
		out.Contact = c
		convs, tickets, err := heldAbout(ctx, q, mode, id)
		if err != nil {
			return err
		}
		for _, conv := range convs {
			ce, err := exportConversation(ctx, q, conv)
			if err != nil {
				return err
			}
			out.Conversations = append(out.Conversations, ce)
		}
		for _, t := range tickets {
			cs, err := q.TicketComments(ctx, t.ID, storage.Page{Limit: -1})
			if err != nil {
				return err
			}
			out.Tickets = append(out.Tickets, TicketExport{Ticket: t, Comments: append([]*chat.TicketComment{}, cs...)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, ce := range out.Conversations {
		if err := s.present(ctx, ce.Messages...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func exportConversation(ctx context.Context, q *storage.Q, c *chat.Conversation) (ConversationExport, error) {
	msgs, err := q.AllMessages(ctx, c.ID)
	if err != nil {
		return ConversationExport{}, err
	}
	notes, err := q.Notes(ctx, c.ID)
	if err != nil {
		return ConversationExport{}, err
	}
	ce := ConversationExport{Conversation: c, Messages: msgs, Notes: notes}
	if ce.Messages == nil {
		ce.Messages = []*chat.Message{}
	}
	if ce.Notes == nil {
		ce.Notes = []*chat.Note{}
	}
	return ce, nil
}
