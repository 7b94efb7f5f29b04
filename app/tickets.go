package app

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Ticket statuses and priorities.
const (
	TicketOpen    = "open"
	TicketPending = "pending"
	TicketSolved  = "solved"
	TicketClosed  = "closed"

	PriorityNormal = "normal"
)

var (
	// TicketStatuses lists the ticket statuses in the order they usually go.
	TicketStatuses = []string{TicketOpen, TicketPending, TicketSolved, TicketClosed}
	// Priorities lists the ticket priorities, lowest first.
	Priorities = []string{"low", PriorityNormal, "high", "urgent"}
)

// Ticket limits (docs/api.md, Limits).
const (
	MaxTicketSubject     = 200
	MaxTicketDescription = 10000
	MaxTicketTags        = 10
)

// E-mail templates the ticket rules queue.
const (
	MailTicketCreated = "ticket_created"
	MailTicketUpdated = "ticket_updated"
	MailTicketSolved  = "ticket_solved"
	// MailTicketReceived confirms a ticket opened from the widget.
	MailTicketReceived = "ticket_received"
)

// ContactRef finds or creates a contact by e-mail.
type ContactRef struct {
	Email Field[string]
	Name  Field[string]
}

// TicketCreate is the body of POST /tickets.
type TicketCreate struct {
	Subject        Field[string]
	Description    Field[string]
	ContactID      Field[string]
	Contact        Field[ContactRef]
	Priority       Field[string]
	ConversationID Field[string]
	AssigneeID     Field[string]
	Tags           Field[[]string]
	NotifyContact  Field[bool]
	Metadata       Field[map[string]*string]
}

func (in TicketCreate) validate() error {
	if !in.Subject.has() {
		return missing("subject")
	}
	if err := checkLen("subject", in.Subject.V, MaxTicketSubject, true); err != nil {
		return err
	}
	if err := checkLen("description", in.Description.V, MaxTicketDescription, false); err != nil {
		return err
	}
	switch {
	case in.ContactID.has() && in.Contact.has():
		return invalid("contact", "Pass either contact_id or contact, not both.")
	case !in.ContactID.has() && !in.Contact.has():
		return missing("contact_id")
	case in.Contact.has() && !in.Contact.V.Email.has():
		return missing("contact.email")
	}
	if in.Priority.has() {
		if err := oneOf("priority", in.Priority.V, Priorities...); err != nil {
			return err
		}
	}
	if n := len(in.Tags.V); n > MaxTicketTags {
		return invalid("tags", "A ticket can be created with at most %d tags (got %d).", MaxTicketTags, n)
	}
	return checkTags(in.Tags.V)
}

func checkTags(tags []string) error {
	for i, t := range tags {
		if strings.TrimSpace(t) == "" {
			return invalid("tags."+strconv.Itoa(i), "Tags must not be empty.")
		}
	}
	return nil
}

// CreateTicket opens a ticket for an existing contact or one found or created
// by e-mail, records ticket.created (and contact.created for a new contact)
// and queues the confirmation e-mail unless notify_contact is false.
func (s *Service) CreateTicket(ctx context.Context, mode chat.Mode, in TicketCreate) (*chat.Ticket, error) {
	confirm := s.mailTicketCreated
	if in.NotifyContact.has() && !in.NotifyContact.V {
		confirm = nil
	}
	return s.createTicket(ctx, mode, in, confirm)
}

// ticketConfirmation queues the e-mail confirming a new ticket to its
// contact, in the ticket's transaction: its error undoes the ticket.
// created is the seq of the ticket.created event the write recorded.
type ticketConfirmation func(ctx context.Context, q *storage.Q, c *chat.Contact, t *chat.Ticket, created int64, now chat.Timestamp) error

// mailTicketCreated is the confirmation of tickets the team's own systems
// open: it repeats the subject and greets the contact by name.
func (s *Service) mailTicketCreated(ctx context.Context, q *storage.Q, c *chat.Contact, t *chat.Ticket, created int64, now chat.Timestamp) error {
	return mailContact(ctx, q, c, t, MailTicketCreated, created, now)
}

// createTicket is CreateTicket with the confirmation to send (nil: none).
func (s *Service) createTicket(ctx context.Context, mode chat.Mode, in TicketCreate, confirm ticketConfirmation) (*chat.Ticket, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	return writeResult(ctx, s, func(q *storage.Q) (*chat.Ticket, error) {
		return s.openTicket(ctx, q, mode, in, confirm)
	})
}

// openTicket writes a new ticket checked by in.validate, in q's transaction.
func (s *Service) openTicket(ctx context.Context, q *storage.Q, mode chat.Mode, in TicketCreate, confirm ticketConfirmation) (*chat.Ticket, error) {
	now := s.stamp()
	contact, err := s.ticketContact(ctx, q, mode, in, now)
	if err != nil {
		return nil, err
	}
	t := &chat.Ticket{ID: NewID(PrefixTicket), Mode: mode, Subject: in.Subject.V,
		Description: in.Description.ptr(), Status: TicketOpen, Priority: PriorityNormal, ContactID: contact.ID,
		Tags: dedupe(in.Tags.V), CreatedAt: now, UpdatedAt: now}
	if in.Priority.has() {
		t.Priority = in.Priority.V
	}
	if in.ConversationID.has() {
		if _, err := q.Conversation(ctx, mode, in.ConversationID.V); err != nil {
			return nil, found(err, noSuchRef("conversation_id", "conversation", in.ConversationID.V))
		}
		t.ConversationID = in.ConversationID.ptr()
	}
	if in.AssigneeID.has() {
		if err := member(ctx, q, "assignee_id", in.AssigneeID.V); err != nil {
			return nil, err
		}
		t.AssigneeID = in.AssigneeID.ptr()
	}
	if t.Metadata, err = mergeMetadata("metadata", nil, in.Metadata.V); err != nil {
		return nil, err
	}
	if t.Number, err = q.NextTicketNumber(ctx, mode); err != nil {
		return nil, err
	}
	if err := q.InsertTicket(ctx, t); err != nil {
		return nil, err
	}
	created, err := s.emitSeq(ctx, q, mode, chat.EventTicketCreated, t.ID, t, now)
	if err != nil {
		return nil, err
	}
	if confirm == nil {
		return t, nil
	}
	return t, confirm(ctx, q, contact, t, created, now)
}

// ticketContact resolves the contact of a new ticket. A contact named by
// id is read with its id, e-mail and name only, all a ticket and its
// confirmation use.
func (s *Service) ticketContact(ctx context.Context, q *storage.Q, mode chat.Mode, in TicketCreate, now chat.Timestamp) (*chat.Contact, error) {
	if in.ContactID.has() {
		c, err := q.ContactAddressee(ctx, mode, in.ContactID.V)
		return c, found(err, noSuchRef("contact_id", "contact", in.ContactID.V))
	}
	email, norm, err := normalizeEmail("contact.email", in.Contact.V.Email.V)
	if err != nil {
		return nil, err
	}
	c, err := q.ContactByEmail(ctx, mode, norm)
	if err == nil || !isNotFound(err) {
		return c, err
	}
	c = &chat.Contact{ID: NewID(PrefixContact), Mode: mode, Email: &email,
		Name: in.Contact.V.Name.ptr(), Attributes: map[string]json.RawMessage{}, CreatedAt: now, UpdatedAt: now}
	if err := q.InsertContact(ctx, c, &norm); err != nil {
		return nil, err
	}
	return c, s.emit(ctx, q, mode, chat.EventContactCreated, c.ID, c, now)
}

// mailContact queues an e-mail about ticket t to its contact, when the
// contact has an address. The e-mail shows the ticket as event (the seq of
// an event of the same write) holds it: the ticket is written out once per
// write, and the e-mail's row stays small.
func mailContact(ctx context.Context, q *storage.Q, c *chat.Contact, t *chat.Ticket, template string, event int64, now chat.Timestamp) error {
	if c == nil || c.Email == nil {
		return nil
	}
	return q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: t.Mode, Template: template, ToEmail: *c.Email,
		ToName: c.Name, ContactID: &c.ID, TicketID: &t.ID, Data: json.RawMessage(`{}`), TicketEvent: &event,
		NextAttemptAt: now, CreatedAt: now})
}

// Ticket returns a ticket by id (tkt_…) or number (42 or T-42).
func (s *Service) Ticket(ctx context.Context, mode chat.Mode, ref string) (*chat.Ticket, error) {
	return s.ticket(ctx, s.db.Read(), mode, ref)
}

func (s *Service) ticket(ctx context.Context, q *storage.Q, mode chat.Mode, ref string) (*chat.Ticket, error) {
	var t *chat.Ticket
	var err error
	if n, ok := ticketNumber(ref); ok {
		t, err = q.TicketByNumber(ctx, mode, n)
	} else {
		t, err = q.Ticket(ctx, mode, ref)
	}
	return t, found(err, noSuch("ticket", ref))
}

func ticketNumber(ref string) (int64, bool) {
	ref = strings.TrimPrefix(strings.TrimPrefix(ref, "T-"), "t-")
	n, err := strconv.ParseInt(ref, 10, 64)
	return n, err == nil && n > 0
}

// TicketQuery is the filter of GET /tickets, as received.
type TicketQuery struct {
	Status, Priority, ContactID, Tag string
	CreatedAfter, CreatedBefore      string
	ListParams
}

// Tickets lists tickets newest first.
func (s *Service) Tickets(ctx context.Context, mode chat.Mode, in TicketQuery) (List[*chat.Ticket], error) {
	f, err := in.filter(mode)
	if err != nil {
		return List[*chat.Ticket]{}, err
	}
	rows, err := s.db.Read().Tickets(ctx, f)
	if err != nil {
		return List[*chat.Ticket]{}, err
	}
	return makeList(rows, f.Page, func(t *chat.Ticket) chat.Cursor {
		return chat.Cursor{Key: int64(t.CreatedAt), ID: t.ID}
	}), nil
}

func (in TicketQuery) filter(mode chat.Mode) (storage.TicketFilter, error) {
	f := storage.TicketFilter{Mode: mode, Status: in.Status, Priority: in.Priority, ContactID: in.ContactID, Tag: in.Tag}
	var err error
	if f.Page, err = in.page(); err != nil {
		return f, err
	}
	if in.Status != "" {
		if err := oneOf("status", in.Status, TicketStatuses...); err != nil {
			return f, err
		}
	}
	if in.Priority != "" {
		if err := oneOf("priority", in.Priority, Priorities...); err != nil {
			return f, err
		}
	}
	if f.CreatedAfter, err = parseTime("created_after", in.CreatedAfter, false); err != nil {
		return f, err
	}
	f.CreatedBefore, err = parseTime("created_before", in.CreatedBefore, true)
	return f, err
}

// parseTime reads an optional ISO 8601 timestamp (RFC 3339, or a date alone).
// Stored timestamps are whole milliseconds, so a finer bound is rounded down
// (created_after: "> t" is "> floor(t)") or, with roundUp, up
// (created_before: "< t" is "< ceil(t)"), keeping both bounds exclusive.
func parseTime(param, v string, roundUp bool) (*chat.Timestamp, error) {
	if v == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			ms := t.Truncate(time.Millisecond)
			if roundUp && ms.Before(t) {
				ms = ms.Add(time.Millisecond)
			}
			ts := chat.At(ms)
			return &ts, nil
		}
	}
	return nil, invalid(param, "%s must be an ISO 8601 timestamp such as 2026-10-01T12:00:00Z (got '%s').", param, v)
}

// TicketUpdate is the body of PATCH /tickets/{id}.
type TicketUpdate struct {
	Subject       Field[string]
	Status        Field[string]
	Priority      Field[string]
	AssigneeID    Field[string]
	Tags          Field[[]string]
	NotifyContact Field[bool]
	Metadata      Field[map[string]*string]
}

func (in TicketUpdate) validate() error {
	if in.Subject.Set {
		if err := checkLen("subject", in.Subject.V, MaxTicketSubject, true); err != nil {
			return err
		}
	}
	if in.Status.Set {
		if err := oneOf("status", in.Status.V, TicketStatuses...); err != nil {
			return err
		}
	}
	if in.Priority.Set {
		if err := oneOf("priority", in.Priority.V, Priorities...); err != nil {
			return err
		}
	}
	return checkTags(in.Tags.V)
}

// UpdateTicket changes a ticket. A change of status, priority, assignee or
// tags records ticket.updated; a move to solved also records ticket.solved
// and sets solved_at, which a move back to open or pending clears. A status
// change e-mails the contact unless notify_contact is false.
func (s *Service) UpdateTicket(ctx context.Context, mode chat.Mode, ref string, in TicketUpdate) (*chat.Ticket, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	return writeNamed(ctx, s, "update ticket "+ref, func(q *storage.Q) (*chat.Ticket, error) {
		t, err := s.ticket(ctx, q, mode, ref)
		if err != nil {
			return nil, err
		}
		now := s.stamp()
		before := *t
		if in.Subject.Set {
			t.Subject = in.Subject.V
		}
		if in.Priority.Set {
			t.Priority = in.Priority.V
		}
		if in.AssigneeID.Set {
			if in.AssigneeID.has() {
				if err := member(ctx, q, "assignee_id", in.AssigneeID.V); err != nil {
					return nil, err
				}
			}
			t.AssigneeID = in.AssigneeID.ptr()
		}
		tagsChanged := in.Tags.Set && !slices.Equal(dedupe(in.Tags.V), t.Tags)
		if tagsChanged {
			t.Tags = dedupe(in.Tags.V)
		}
		if in.Metadata.has() {
			if t.Metadata, err = mergeMetadata("metadata", t.Metadata, in.Metadata.V); err != nil {
				return nil, err
			}
		}
		statusChanged := in.Status.Set && moveTicket(t, in.Status.V, now)
		t.UpdatedAt = now
		if err := q.UpdateTicket(ctx, t, tagsChanged); err != nil {
			return nil, err
		}
		if !statusChanged && !tagsChanged && t.Priority == before.Priority && eqPtr(t.AssigneeID, before.AssigneeID) {
			return t, nil
		}
		event, err := s.emitSeq(ctx, q, mode, chat.EventTicketUpdated, t.ID, t, now)
		if err != nil {
			return t, err
		}
		if !statusChanged {
			return t, nil
		}
		template := MailTicketUpdated
		if t.Status == TicketSolved {
			template = MailTicketSolved
			if err := s.emit(ctx, q, mode, chat.EventTicketSolved, t.ID, t, now); err != nil {
				return t, err
			}
		}
		if in.NotifyContact.has() && !in.NotifyContact.V {
			return t, nil
		}
		c, err := q.Contact(ctx, mode, t.ContactID)
		if isNotFound(err) { // erased contact: nobody to write to
			return t, nil
		} else if err != nil {
			return t, err
		}
		return t, mailContact(ctx, q, c, t, template, event, now)
	})
}

// DeleteTicket removes a ticket for good.
func (s *Service) DeleteTicket(ctx context.Context, mode chat.Mode, ref string) (*Deleted, error) {
	return writeNamed(ctx, s, "delete ticket "+ref, func(q *storage.Q) (*Deleted, error) {
		var out *Deleted
		t, err := s.ticket(ctx, q, mode, ref)
		if err != nil {
			return nil, err
		}
		out = &Deleted{ID: t.ID, Object: "ticket", Deleted: true}
		return out, q.DeleteTicket(ctx, mode, t.ID)
	})
}
