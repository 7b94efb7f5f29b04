package app

import (
	"context"

	"chatsvc/storage"
)

// VisitorTicket is the body of POST /widget/v1/tickets.
type VisitorTicket struct {
	Subject     Field[string]
	Description Field[string]
	Email       Field[string]
	Name        Field[string]
}

// CreateVisitorTicket opens a ticket for the visitor, linked to their
// current conversation. The contact is the one found or created by the
// e-mail given, or the visitor's identified contact when none is given; a
// visitor not yet linked to a contact becomes linked to it.
func (s *Service) CreateVisitorTicket(ctx context.Context, v *Visit, in VisitorTicket) (*storage.Ticket, error) {
	if !in.Subject.has() {
		return nil, missing("subject")
	}
	tc := TicketCreate{Subject: in.Subject, Description: in.Description}
	switch {
	case in.Email.has():
		if _, _, err := normalizeEmail("email", in.Email.V); err != nil {
			return nil, err
		}
		tc.Contact = Value(ContactRef{Email: in.Email, Name: in.Name})
	case v.Visitor.ContactID != nil:
		tc.ContactID = Value(*v.Visitor.ContactID)
	default:
		return nil, missing("email")
	}
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
	if err != nil {
		return nil, err
	}
	if c != nil {
		tc.ConversationID = Value(c.ID)
	}
	t, err := s.CreateTicket(ctx, v.Mode, tc)
	if err != nil {
		return nil, err
	}
	if v.Visitor.ContactID == nil {
		err = s.write(ctx, func(q *storage.Q) error { return s.linkVisitor(ctx, q, v, t.ContactID, s.stamp()) })
		if err == nil {
			v.Visitor.ContactID = &t.ContactID
		}
	}
	return t, err
}
