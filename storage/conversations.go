package storage

import (
	"context"
	"database/sql"

	"chatsvc/chat"
)

const conversationCols = `id, mode, site_id, visitor_id, status, subject, contact_id, assignee_id,
	message_count, page_url, last_message_at, metadata, created_at, updated_at, rating_score, rating_comment, rated_at, tags`

// insertedCols are the columns a new conversation is written with: it has no rating yet.
const insertedCols = `id, mode, site_id, visitor_id, status, subject, contact_id, assignee_id,
	message_count, page_url, last_message_at, metadata, created_at, updated_at`

func scanConversation(s interface{ Scan(...any) error }) (*chat.Conversation, error) {
	c := &chat.Conversation{}
	var score sql.NullInt64
	var comment *string
	var ratedAt *chat.Timestamp
	err := s.Scan(&c.ID, &c.Mode, &c.SiteID, &c.VisitorID, &c.Status, &c.Subject, &c.ContactID, &c.AssigneeID,
		&c.MessageCount, &c.PageURL, &c.LastMessageAt, jsonCol{&c.Metadata}, &c.CreatedAt, &c.UpdatedAt,
		&score, &comment, &ratedAt, jsonCol{&c.Tags})
	if err != nil {
		return nil, notFound(err)
	}
	if c.Tags == nil {
		c.Tags = []string{}
	}
	if score.Valid && ratedAt != nil {
		c.Rating = &chat.Rating{Score: int(score.Int64), Comment: comment, RatedAt: *ratedAt}
	}
	if c.Metadata == nil {
		c.Metadata = map[string]string{}
	}
	return c, nil
}

// InsertConversation stores a new conversation.
func (q *Q) InsertConversation(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID, c.VisitorID)
	_, err := q.exec(ctx, `INSERT INTO conversations (`+insertedCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		c.ID, c.Mode, c.SiteID, c.VisitorID, c.Status, c.Subject, c.ContactID, c.AssigneeID,
		c.MessageCount, c.PageURL, c.LastMessageAt, toJSON(c.Metadata), c.CreatedAt, c.UpdatedAt)
	return err
}

// UpdateConversation writes every mutable field of c but its status, which
// only a step of its lifecycle writes (SaveMove).
func (q *Q) UpdateConversation(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET subject = ?, contact_id = ?, assignee_id = ?,
		message_count = ?, page_url = ?, last_message_at = ?, metadata = ?, updated_at = ?
		WHERE id = ? AND mode = ?`,
		c.Subject, c.ContactID, c.AssigneeID, c.MessageCount, c.PageURL, c.LastMessageAt,
		toJSON(c.Metadata), c.UpdatedAt, c.ID, c.Mode)
	return affected(res, err)
}

// SetConversationTags replaces c's tags (and their index rows).
func (q *Q) SetConversationTags(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET tags = ?, updated_at = ? WHERE id = ? AND mode = ?`,
		tagsJSON(c.Tags), c.UpdatedAt, c.ID, c.Mode)
	if err := affected(res, err); err != nil {
		return err
	}
	if _, err := q.exec(ctx, `DELETE FROM conversation_tags WHERE conversation_id = ?`, c.ID); err != nil {
		return err
	}
	for _, tag := range c.Tags {
		if _, err := q.exec(ctx, `INSERT OR IGNORE INTO conversation_tags (conversation_id, mode, tag, created_at) VALUES (?,?,?,?)`,
			c.ID, c.Mode, tag, c.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// RateConversation stores the visitor's rating of c (replacing an earlier one).
func (q *Q) RateConversation(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID)
	res, err := q.exec(ctx, `UPDATE conversations SET rating_score = ?, rating_comment = ?, rated_at = ?, updated_at = ?
		WHERE id = ? AND mode = ?`, c.Rating.Score, c.Rating.Comment, c.Rating.RatedAt, c.UpdatedAt, c.ID, c.Mode)
	return affected(res, err)
}

// Conversation returns the conversation with id in mode, or ErrNotFound.
func (q *Q) Conversation(ctx context.Context, mode chat.Mode, id string) (*chat.Conversation, error) {
	return scanConversation(q.rowByKey(ctx, `SELECT `+conversationCols+` FROM conversations WHERE id = ? AND mode = ?`, id, mode))
}

// NoAssignee is the ConversationFilter.AssigneeID of unassigned conversations.
const NoAssignee = "none"

// ConversationFilter selects conversations; empty fields do not filter.
type ConversationFilter struct {
	Mode      chat.Mode
	Status    string
	SiteID    string
	ContactID string
	Rated     *bool  // nil: either
	Tag       string // only conversations bearing it
	// AssigneeID filters by assignee; NoAssignee selects the unassigned.
	AssigneeID string
	Page       Page
}

// Conversations lists conversations newest first.
func (q *Q) Conversations(ctx context.Context, f ConversationFilter) ([]*chat.Conversation, error) {
	query, args := f.sql()
	rows, err := q.query(ctx, query, args...)
	return collect(rows, err, scanConversation)
}

func (f ConversationFilter) sql() (string, []any) {
	conds, args := equal(f.Mode, "status", f.Status, "site_id", f.SiteID, "contact_id", f.ContactID)
	if f.Tag != "" {
		conds = append(conds, "id IN (SELECT conversation_id FROM conversation_tags WHERE mode = ? AND tag = ?)")
		args = append(args, f.Mode, f.Tag)
	}
	switch f.AssigneeID {
	case "":
	case NoAssignee:
		conds = append(conds, "assignee_id IS NULL")
	default:
		conds = append(conds, "assignee_id = ?")
		args = append(args, f.AssigneeID)
	}
	if f.Rated != nil {
		conds = append(conds, map[bool]string{true: "rating_score IS NOT NULL", false: "rating_score IS NULL"}[*f.Rated])
	}
	where, tail, args := keyset("created_at", true, f.Page, conds, args)
	return `SELECT ` + conversationCols + ` FROM conversations` + where + tail, args
}

// collect scans every row with scan.
func collect[T any](rows *sql.Rows, err error, scan func(interface{ Scan(...any) error }) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// affected reports ErrNotFound when an UPDATE or DELETE matched no row.
func affected(res sql.Result, err error) error {
	if err != nil {
		return conflict(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}
