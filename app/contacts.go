package app

import (
	"context"
	"encoding/json"
	"errors"

	"chatsvc/chat"
	"chatsvc/storage"
)

// ContactInput is the body of POST /contacts and PATCH /contacts/{id}.
type ContactInput struct {
	Email      Field[string]
	ExternalID Field[string] // POST only
	Name       Field[string]
	Phone      Field[string]
	Attributes Field[map[string]json.RawMessage] // a JSON null value deletes its key
}

// UpsertContact creates a contact, or updates the one with the same
// external_id or e-mail. created tells which happened.
func (s *Service) UpsertContact(ctx context.Context, mode chat.Mode, in ContactInput) (c *chat.Contact, created bool, err error) {
	if !in.Email.has() && !in.ExternalID.has() {
		return nil, false, missing("email")
	}
	var norm string
	if in.Email.has() {
		if in.Email.V, norm, err = normalizeEmail("email", in.Email.V); err != nil {
			return nil, false, err
		}
	}
	if in.ExternalID.has() && in.ExternalID.V == "" {
		return nil, false, invalid("external_id", "external_id must not be empty.")
	}
	out, err := writeResult(ctx, s, func(q *storage.Q) (upserted, error) {
		return s.upsertContact(ctx, q, mode, in, norm)
	})
	return out.c, out.created, err
}

// upserted is a contact written by upsertContact, and whether it is new.
type upserted struct {
	c       *chat.Contact
	created bool
}

// upsertContact is UpsertContact inside the caller's transaction; norm is
// the normalised e-mail of in, or "".
func (s *Service) upsertContact(ctx context.Context, q *storage.Q, mode chat.Mode, in ContactInput, norm string) (upserted, error) {
	now := s.stamp()
	c, err := s.matchContact(ctx, q, mode, in, norm)
	if err != nil {
		return upserted{}, err
	}
	if c == nil {
		c = &chat.Contact{ID: NewID(PrefixContact), Mode: mode, CreatedAt: now}
		if err := s.saveContact(ctx, q, c, in, now, true); err != nil {
			return upserted{}, err
		}
		return upserted{c, true}, s.emit(ctx, q, mode, chat.EventContactCreated, c.ID, c, now)
	}
	return upserted{c, false}, s.saveContact(ctx, q, c, in, now, false)
}

// saveContact applies the request to c and inserts or updates it.
func (s *Service) saveContact(ctx context.Context, q *storage.Q, c *chat.Contact, in ContactInput, now chat.Timestamp, insert bool) error {
	if in.ExternalID.has() {
		c.ExternalID = in.ExternalID.ptr()
	}
	if err := applyContact(c, in, now); err != nil {
		return err
	}
	if insert {
		return contactConflict(q.InsertContact(ctx, c, emailNorm(c)))
	}
	return contactConflict(q.UpdateContact(ctx, c, emailNorm(c)))
}

// matchContact finds the contact an upsert addresses: by external_id first,
// else by e-mail. Two different matches, or an e-mail match that already
// has another external_id, are conflicts.
func (s *Service) matchContact(ctx context.Context, q *storage.Q, mode chat.Mode, in ContactInput, norm string) (*chat.Contact, error) {
	var byExt, byEmail *chat.Contact
	var err error
	if in.ExternalID.has() {
		if byExt, err = orNil(q.ContactByExternalID(ctx, mode, in.ExternalID.V)); err != nil {
			return nil, err
		}
	}
	if norm != "" {
		if byEmail, err = orNil(q.ContactByEmail(ctx, mode, norm)); err != nil {
			return nil, err
		}
	}
	switch {
	case byExt != nil && byEmail != nil && byExt.ID != byEmail.ID:
		return nil, conflictErr("email", "The e-mail address belongs to another contact (%s).", byEmail.ID)
	case byExt != nil:
		return byExt, nil
	case byEmail != nil && in.ExternalID.has() && byEmail.ExternalID != nil:
		return nil, conflictErr("external_id", "The contact with this e-mail address (%s) has another external_id.", byEmail.ID)
	}
	return byEmail, nil
}

// applyContact copies the request's personal fields onto c.
func applyContact(c *chat.Contact, in ContactInput, now chat.Timestamp) error {
	if in.Email.Set {
		c.Email = in.Email.ptr()
	}
	if in.Name.Set {
		c.Name = in.Name.ptr()
	}
	if in.Phone.Set {
		c.Phone = in.Phone.ptr()
	}
	if c.Email == nil && c.ExternalID == nil {
		return invalid("email", "A contact needs an e-mail address or an external_id.")
	}
	attrs := make(map[string]json.RawMessage, len(c.Attributes)+len(in.Attributes.V))
	for k, v := range c.Attributes {
		attrs[k] = v
	}
	for k, v := range in.Attributes.V {
		if k == "" {
			return invalid("attributes", "Attribute names must not be empty.")
		}
		if string(v) == "null" {
			delete(attrs, k)
		} else {
			attrs[k] = v
		}
	}
	c.Attributes, c.UpdatedAt = attrs, now
	return nil
}

func emailNorm(c *chat.Contact) *string {
	if c.Email == nil {
		return nil
	}
	_, norm, _ := normalizeEmail("email", *c.Email)
	return &norm
}

// contactConflict explains a uniqueness failure of a contact write.
func contactConflict(err error) error {
	if errors.Is(err, storage.ErrConflict) {
		return conflictErr("email", "Another contact already has this e-mail address or external_id.")
	}
	return err
}

// UpdateContact changes a contact's e-mail, name, phone or attributes.
func (s *Service) UpdateContact(ctx context.Context, mode chat.Mode, id string, in ContactInput) (*chat.Contact, error) {
	if in.Email.has() {
		var err error
		if in.Email.V, _, err = normalizeEmail("email", in.Email.V); err != nil {
			return nil, err
		}
	}
	return writeNamed(ctx, s, "update contact "+id, func(q *storage.Q) (*chat.Contact, error) {
		c, err := q.Contact(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("contact", id))
		}
		if err := applyContact(c, in, s.stamp()); err != nil {
			return nil, err
		}
		return c, contactConflict(q.UpdateContact(ctx, c, emailNorm(c)))
	})
}

// Contact returns a contact, or a NotFound error.
func (s *Service) Contact(ctx context.Context, mode chat.Mode, id string) (*chat.Contact, error) {
	c, err := s.db.Read().Contact(ctx, mode, id)
	return c, found(err, noSuch("contact", id))
}

// ContactQuery is the filter of GET /contacts, as received.
type ContactQuery struct {
	Email, ExternalID string
	ListParams
}

// Contacts lists contacts, most recently active first.
func (s *Service) Contacts(ctx context.Context, mode chat.Mode, in ContactQuery) (List[*chat.Contact], error) {
	pg, err := in.page()
	if err != nil {
		return List[*chat.Contact]{}, err
	}
	f := storage.ContactFilter{Mode: mode, ExternalID: in.ExternalID, Page: pg}
	if in.Email != "" {
		f.EmailNorm = lower(in.Email)
	}
	rows, err := s.db.Read().Contacts(ctx, f)
	if err != nil {
		return List[*chat.Contact]{}, err
	}
	return makeList(rows, pg, func(c *chat.Contact) chat.Cursor {
		return chat.Cursor{Key: int64(c.ActiveAt()), ID: c.ID}
	}), nil
}
