package storage

import (
	"context"

	"chatsvc/chat"
)

const visitorCols = `id, mode, site_id, contact_id, contact_verified, page_url, created_at, last_seen_at`

func scanVisitor(s interface{ Scan(...any) error }) (*chat.Visitor, error) {
	v := &chat.Visitor{}
	err := s.Scan(&v.ID, &v.Mode, &v.SiteID, &v.ContactID, &v.ContactVerified, &v.PageURL, &v.CreatedAt, &v.LastSeenAt)
	return v, notFound(err)
}

// InsertVisitor stores a new visitor.
func (q *Q) InsertVisitor(ctx context.Context, v *chat.Visitor) error {
	_, err := q.exec(ctx, `INSERT INTO visitors (`+visitorCols+`) VALUES (?,?,?,?,?,?,?,?)`,
		v.ID, v.Mode, v.SiteID, v.ContactID, v.ContactVerified, v.PageURL, v.CreatedAt, v.LastSeenAt)
	return err
}

// UpdateVisitor writes a visitor's contact and last visit.
func (q *Q) UpdateVisitor(ctx context.Context, v *chat.Visitor) error {
	res, err := q.exec(ctx, `UPDATE visitors SET contact_id = ?, contact_verified = ?, page_url = ?, last_seen_at = ?
		WHERE id = ? AND mode = ?`,
		v.ContactID, v.ContactVerified, v.PageURL, v.LastSeenAt, v.ID, v.Mode)
	return affected(res, err)
}

// Visitor returns the visitor with id in mode, or ErrNotFound.
func (q *Q) Visitor(ctx context.Context, mode chat.Mode, id string) (*chat.Visitor, error) {
	return scanVisitor(q.row(ctx, `SELECT `+visitorCols+` FROM visitors WHERE id = ? AND mode = ?`, id, mode))
}

// LatestConversationOf returns a visitor's most recent conversation, or ErrNotFound.
func (q *Q) LatestConversationOf(ctx context.Context, mode chat.Mode, visitorID string) (*chat.Conversation, error) {
	return scanConversation(q.row(ctx, `SELECT `+conversationCols+` FROM conversations
		WHERE mode = ? AND visitor_id = ? ORDER BY created_at DESC, id DESC LIMIT 1`, mode, visitorID))
}

// LinkVisitorConversations sets the contact of a visitor's conversations
// that have none yet.
func (q *Q) LinkVisitorConversations(ctx context.Context, mode chat.Mode, visitorID, contactID string, at chat.Timestamp) error {
	q.changed(&visitorID)
	_, err := q.exec(ctx, `UPDATE conversations SET contact_id = ?, updated_at = ?
		WHERE mode = ? AND visitor_id = ? AND contact_id IS NULL`, contactID, at, mode, visitorID)
	return err
}

// SetSiteIdentitySecret stores (or, with nil, removes) a site's identity
// secret; the site's identity_verification changes, and so its updated_at.
func (q *Q) SetSiteIdentitySecret(ctx context.Context, siteID string, secret *string, at chat.Timestamp) error {
	res, err := q.exec(ctx, `UPDATE sites SET identity_secret = ?, updated_at = ? WHERE id = ?`, secret, at, siteID)
	return affected(res, err)
}
