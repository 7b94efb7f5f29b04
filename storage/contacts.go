package storage

import (
	"context"
	"encoding/json"

	"chatsvc/chat"
)

const contactCols = `id, mode, email, name, phone, external_id, attributes, last_seen_at, created_at, updated_at`

func scanContact(s interface{ Scan(...any) error }) (*chat.Contact, error) {
	c := &chat.Contact{}
	err := s.Scan(&c.ID, &c.Mode, &c.Email, &c.Name, &c.Phone, &c.ExternalID, jsonCol{&c.Attributes},
		&c.LastSeenAt, &c.CreatedAt, &c.UpdatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	if c.Attributes == nil {
		c.Attributes = map[string]json.RawMessage{}
	}
	return c, nil
}

// InsertContact stores a new contact; ErrConflict if its e-mail or
// external id is taken in its mode.
func (q *Q) InsertContact(ctx context.Context, c *chat.Contact, emailNorm *string) error {
	_, err := q.exec(ctx, `INSERT INTO contacts (`+contactCols+`, email_norm, active_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		c.ID, c.Mode, c.Email, c.Name, c.Phone, c.ExternalID, toJSON(c.Attributes), c.LastSeenAt,
		c.CreatedAt, c.UpdatedAt, emailNorm, c.ActiveAt())
	return q.queueSearch(ctx, conflict(err), "contacts", c.ID)
}

// UpdateContact writes every mutable field of c; ErrConflict as InsertContact.
func (q *Q) UpdateContact(ctx context.Context, c *chat.Contact, emailNorm *string) error {
	res, err := q.exec(ctx, `UPDATE contacts SET email = ?, email_norm = ?, name = ?, phone = ?, external_id = ?,
		attributes = ?, last_seen_at = ?, updated_at = ?, active_at = ? WHERE id = ? AND mode = ?`,
		c.Email, emailNorm, c.Name, c.Phone, c.ExternalID, toJSON(c.Attributes), c.LastSeenAt, c.UpdatedAt,
		c.ActiveAt(), c.ID, c.Mode)
	return affected(res, err)
}

// Contact returns the contact with id in mode, or ErrNotFound.
func (q *Q) Contact(ctx context.Context, mode chat.Mode, id string) (*chat.Contact, error) {
	return scanContact(q.rowByKey(ctx, `SELECT `+contactCols+` FROM contacts WHERE id = ? AND mode = ?`, id, mode))
}

// ContactAddressee returns the contact with id in mode with only its id,
// mode, e-mail and name set (attributes empty), or ErrNotFound: what a new
// ticket needs of an existing contact, without decoding the rest of the row.
func (q *Q) ContactAddressee(ctx context.Context, mode chat.Mode, id string) (*chat.Contact, error) {
	c := &chat.Contact{Attributes: map[string]json.RawMessage{}}
	err := q.row(ctx, `SELECT id, mode, email, name FROM contacts WHERE id = ? AND mode = ?`, id, mode).
		Scan(&c.ID, &c.Mode, &c.Email, &c.Name)
	if err != nil {
		return nil, notFound(err)
	}
	return c, nil
}

// ContactByEmail finds a contact by normalised e-mail, or ErrNotFound.
func (q *Q) ContactByEmail(ctx context.Context, mode chat.Mode, emailNorm string) (*chat.Contact, error) {
	return scanContact(q.row(ctx, `SELECT `+contactCols+` FROM contacts WHERE mode = ? AND email_norm = ?`, mode, emailNorm))
}

// ContactByExternalID finds a contact by external id, or ErrNotFound.
func (q *Q) ContactByExternalID(ctx context.Context, mode chat.Mode, externalID string) (*chat.Contact, error) {
	return scanContact(q.row(ctx, `SELECT `+contactCols+` FROM contacts WHERE mode = ? AND external_id = ?`, mode, externalID))
}

// ContactFilter selects contacts; empty fields do not filter.
type ContactFilter struct {
	Mode       chat.Mode
	EmailNorm  string
	ExternalID string
	Page       Page
}

// Contacts lists contacts most recently active first.
func (q *Q) Contacts(ctx context.Context, f ContactFilter) ([]*chat.Contact, error) {
	query, args := f.sql()
	rows, err := q.query(ctx, query, args...)
	return collect(rows, err, scanContact)
}

func (f ContactFilter) sql() (string, []any) {
	conds, args := equal(f.Mode, "email_norm", f.EmailNorm, "external_id", f.ExternalID)
	where, tail, args := keyset("active_at", true, f.Page, conds, args)
	return `SELECT ` + contactCols + ` FROM contacts` + where + tail, args
}

// DeleteContact removes a contact. Its conversations lose their contact_id
// (foreign key ON DELETE SET NULL).
func (q *Q) DeleteContact(ctx context.Context, mode chat.Mode, id string) error {
	res, err := q.exec(ctx, `DELETE FROM contacts WHERE id = ? AND mode = ?`, id, mode)
	return affected(res, err)
}

// forgetAuthorSQL names author_type as the partial index
// messages_contact_author does, so that the index applies.
const forgetAuthorSQL = `UPDATE messages SET author_id = NULL, author_name = NULL
	WHERE author_id = ? AND author_type = 'contact'`

// ForgetMessageAuthor removes the contact's identity from the messages they wrote.
func (q *Q) ForgetMessageAuthor(ctx context.Context, contactID string) error {
	_, err := q.exec(ctx, forgetAuthorSQL, contactID)
	return err
}
