package app

import (
	"context"
	"encoding/json"
	"strings"

	"chatsvc/chat"
	"chatsvc/storage"
)

// PrefixTicketComment starts every ticket comment id.
const PrefixTicketComment = "tcm_"

// MailTicketComment carries a public agent comment to the ticket's contact.
const MailTicketComment = "ticket_comment"

// MaxTicketComment is the longest comment body, in characters.
const MaxTicketComment = MaxTicketDescription

// TicketCommentCreate is the body of POST /tickets/{id}/comments.
type TicketCommentCreate struct {
	Body          Field[string]
	AuthorID      Field[string]
	Public        Field[bool]
	NotifyContact Field[bool]
}

func (in TicketCommentCreate) validate() error {
	if !in.Body.has() {
		return missing("body")
	}
	if err := checkLen("body", strings.TrimSpace(in.Body.V), MaxTicketComment, true); err != nil {
		return err
	}
	if !in.AuthorID.has() {
		return missing("author_id")
	}
	return nil
}

// AddTicketComment adds a team member's comment to a ticket (by id or
// number), via the API or the dashboard, and records
// ticket_comment.created. A public comment is e-mailed to the contact
// unless notify_contact is false; an internal one never leaves the team.
func (s *Service) AddTicketComment(ctx context.Context, mode chat.Mode, ref, via string, in TicketCommentCreate) (*chat.TicketComment, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	public := !in.Public.has() || in.Public.V
	notify := public && (!in.NotifyContact.has() || in.NotifyContact.V)
	return writeNamed(ctx, s, "comment on ticket "+ref, func(q *storage.Q) (*chat.TicketComment, error) {
		t, err := s.ticket(ctx, q, mode, ref)
		if err != nil {
			return nil, err
		}
		m, err := q.Member(ctx, in.AuthorID.V)
		if err != nil {
			return nil, found(err, noSuchRef("author_id", "team member", in.AuthorID.V))
		}
		c := &chat.TicketComment{ID: NewID(PrefixTicketComment), Mode: mode, TicketID: t.ID,
			Author: chat.Author{Type: chat.AuthorAgent, ID: &m.ID, Name: &m.Name},
			Body:   in.Body.V, Public: public, Via: via, CreatedAt: s.stamp()}
		if err := s.insertTicketComment(ctx, q, c); err != nil {
			return nil, err
		}
		if !notify {
			return c, nil
		}
		return c, s.mailComment(ctx, q, t, c)
	})
}

// insertTicketComment stores c and records its event.
func (s *Service) insertTicketComment(ctx context.Context, q *storage.Q, c *chat.TicketComment) error {
	c.Attachments = []chat.Attachment{}
	if err := q.InsertTicketComment(ctx, c); err != nil {
		return err
	}
	return s.emit(ctx, q, c.Mode, chat.EventTicketCommentCreated, c.ID, c, c.CreatedAt)
}

// mailComment queues the e-mail carrying comment c to the ticket's contact.
func (s *Service) mailComment(ctx context.Context, q *storage.Q, t *chat.Ticket, c *chat.TicketComment) error {
	contact, err := q.Contact(ctx, t.Mode, t.ContactID)
	if err != nil || contact.Email == nil {
		return orFound(err)
	}
	data, err := json.Marshal(map[string]any{"ticket": t, "comment": c})
	if err != nil {
		return err
	}
	return q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: t.Mode, Template: MailTicketComment,
		ToEmail: *contact.Email, ToName: contact.Name, ContactID: &contact.ID, TicketID: &t.ID, Data: data,
		NextAttemptAt: c.CreatedAt, CreatedAt: c.CreatedAt})
}

// orFound drops a not-found error: a contact erased meanwhile gets no mail.
func orFound(err error) error {
	if isNotFound(err) {
		return nil
	}
	return err
}

// TicketComments lists a ticket's comments oldest first, internal ones
// included, with attachment URLs signed.
func (s *Service) TicketComments(ctx context.Context, mode chat.Mode, ref string, in ListParams) (List[*chat.TicketComment], error) {
	pg, err := in.page()
	if err != nil {
		return List[*chat.TicketComment]{}, err
	}
	t, err := s.Ticket(ctx, mode, ref)
	if err != nil {
		return List[*chat.TicketComment]{}, err
	}
	rows, err := s.db.Read().TicketComments(ctx, t.ID, pg)
	if err != nil {
		return List[*chat.TicketComment]{}, err
	}
	if err := s.presentComments(ctx, rows); err != nil {
		return List[*chat.TicketComment]{}, err
	}
	return makeList(rows, pg, func(c *chat.TicketComment) chat.Cursor {
		return chat.Cursor{Key: int64(c.CreatedAt), ID: c.ID}
	}), nil
}

// presentComments signs the attachments of comments about to be shown.
func (s *Service) presentComments(ctx context.Context, cs []*chat.TicketComment) error {
	for _, c := range cs {
		if len(c.Files) == 0 {
			continue
		}
		key, err := s.signingKey(ctx)
		if err != nil {
			return err
		}
		c.Attachments = s.signFiles(key, c.Files)
	}
	return nil
}
