package app

import (
	"context"
	"encoding/json"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// VisitorTicketsPerAddressPerDay bounds the widget tickets confirmed to one
// e-mail address in 24 hours, whatever visitor or mode they come from: the
// widget is public, and without it anyone could make the operator's server
// mail anyone. Counted from the outbox, so a restart does not reset it.
const VisitorTicketsPerAddressPerDay = 3

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
// visitor not yet linked to a contact becomes linked to it. Returns a
// RateLimited error beyond VisitorTicketsPerHour for the visitor or
// VisitorTicketsPerAddressPerDay for the address.
func (s *Service) CreateVisitorTicket(ctx context.Context, v *Visit, in VisitorTicket) (*chat.Ticket, error) {
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
	if err := tc.validate(); err != nil {
		return nil, err
	}
	if err := s.checkVisitorTicketRate(v); err != nil {
		return nil, err
	}
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, v.Mode, v.Visitor.ID))
	if err != nil {
		return nil, err
	}
	if c != nil {
		tc.ConversationID = Value(c.ID)
	}
	t, err := s.createTicket(ctx, v.Mode, tc, s.mailTicketReceived(v.Site))
	if err != nil {
		return nil, err
	}
	if v.Visitor.ContactID == nil {
		err = s.write(ctx, func(q *storage.Q) error { return s.linkVisitor(ctx, q, v, t.ContactID, false, s.stamp()) })
		if err == nil {
			v.Visitor.ContactID = &t.ContactID
		}
	}
	return t, err
}

// mailTicketReceived is the confirmation of a widget ticket. Nothing the
// visitor typed goes into it (no subject, description or name, not even in
// the To header): the sender's address is unverified, so the e-mail says
// only that ticket T-n was opened on the operator's site.
func (s *Service) mailTicketReceived(site *chat.Site) ticketConfirmation {
	return func(ctx context.Context, q *storage.Q, c *chat.Contact, t *chat.Ticket, _ int64, now chat.Timestamp) error {
		if c.Email == nil {
			return nil
		}
		wait, err := addressConfirmationsWait(ctx, q, *c.Email, now)
		if err != nil {
			return err
		}
		if wait > 0 {
			return &Error{Kind: RateLimited, Code: CodeRateLimited, RetryAfter: wait,
				Message: "Too many requests for this e-mail address today; please try again later."}
		}
		return queueTicketReceived(ctx, q, c, t, site.Name, now)
	}
}

// mailTicketReceivedByMail is the confirmation of a ticket a new e-mail
// opened. Its From is as unverified as a widget visitor's address, so the
// confirmation is the widget's (the ticket number only), and it counts
// against the same limit per address; across addresses at most
// InboundConfirmationsPerHour are queued. Over a limit the ticket is opened
// all the same and no confirmation is queued: the mail is not refused,
// since a customer's real mail must not be lost to a forger's.
func (s *Service) mailTicketReceivedByMail(ctx context.Context, q *storage.Q, c *chat.Contact, t *chat.Ticket, _ int64, now chat.Timestamp) error {
	if c.Email == nil {
		return nil
	}
	wait, err := addressConfirmationsWait(ctx, q, *c.Email, now)
	if err != nil || wait > 0 {
		return err
	}
	n, err := q.ConfirmationsAfter(ctx, chat.At(now.Time().Add(-time.Hour)))
	if err != nil || n >= InboundConfirmationsPerHour {
		return err
	}
	return queueTicketReceived(ctx, q, c, t, "", now)
}

// addressConfirmationsWait is how long until one more ticket confirmation
// may go to email (VisitorTicketsPerAddressPerDay), 0 when it may now.
func addressConfirmationsWait(ctx context.Context, q *storage.Q, email string, now chat.Timestamp) (time.Duration, error) {
	day := now.Time().Add(-24 * time.Hour)
	n, first, err := q.ConfirmationsToAfter(ctx, email, chat.At(day))
	if err != nil || n < VisitorTicketsPerAddressPerDay {
		return 0, err
	}
	return max(first.Time().Sub(day), time.Second), nil
}

// queueTicketReceived queues the ticket_received e-mail: the ticket's
// number and the site's name ("" for none), nothing else.
func queueTicketReceived(ctx context.Context, q *storage.Q, c *chat.Contact, t *chat.Ticket, siteName string, now chat.Timestamp) error {
	fields := map[string]any{"ticket": map[string]any{"number": t.Number}}
	if siteName != "" {
		fields["site"] = map[string]any{"name": siteName}
	}
	data, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: t.Mode, Template: MailTicketReceived,
		ToEmail: *c.Email, ContactID: &c.ID, TicketID: &t.ID, Data: data, NextAttemptAt: now, CreatedAt: now})
}

// InboundConfirmationsPerHour bounds the confirmations of tickets opened by
// e-mail, across all addresses, in any hour.
const InboundConfirmationsPerHour = 60
