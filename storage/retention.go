package storage

import (
	"context"

	"chatsvc/chat"
)

// Queries of the retention job, which deletes what is kept past its time.
// How long is kept is decided by package app; when a conversation closed
// is written with its move (SaveMove).

// ClosedBefore lists up to limit conversations closed before cutoff.
func (q *Q) ClosedBefore(ctx context.Context, cutoff chat.Timestamp, limit int) ([]string, error) {
	rows, err := q.query(ctx, `SELECT id FROM conversations WHERE closed_at < ? ORDER BY closed_at LIMIT ?`, cutoff, limit)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var id string
		return id, s.Scan(&id)
	})
}

// DeleteConversation removes a conversation for good: its messages, notes,
// attachment rows and events (and deliveries still owed of those events)
// go with it, and tickets opened from it forget it. It returns the hashes
// of the files its messages held, for the caller to remove once no other
// message holds them.
func (q *Q) DeleteConversation(ctx context.Context, id string) ([]string, error) {
	rows, err := q.query(ctx, `SELECT DISTINCT a.hash FROM attachments a JOIN messages m ON m.id = a.message_id
		WHERE m.conversation_id = ?`, id)
	hashes, err := collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var h string
		return h, s.Scan(&h)
	})
	if err != nil {
		return nil, err
	}
	const objects = `SELECT ? UNION ALL SELECT id FROM messages WHERE conversation_id = ?`
	for _, stmt := range []string{
		`DELETE FROM webhook_queue WHERE event_seq IN (SELECT seq FROM events WHERE object_id IN (` + objects + `))`,
		`DELETE FROM events WHERE object_id IN (` + objects + `)`,
	} {
		if _, err := q.exec(ctx, stmt, id, id); err != nil {
			return nil, err
		}
	}
	if _, err := q.exec(ctx, `UPDATE tickets SET conversation_id = NULL WHERE conversation_id = ?`, id); err != nil {
		return nil, err
	}
	res, err := q.exec(ctx, `DELETE FROM conversations WHERE id = ?`, id)
	return hashes, affected(res, err)
}

// FileInUse reports whether any attachment, ticket comment's file or unsent
// upload still holds the bytes of hash.
func (q *Q) FileInUse(ctx context.Context, hash string) (bool, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM attachments WHERE hash = ?
		UNION ALL SELECT 1 FROM ticket_comment_files WHERE hash = ? UNION ALL SELECT 1 FROM uploads WHERE hash = ? LIMIT 1)`,
		hash, hash, hash).Scan(&n)
	return n > 0, err
}

// PruneVisitors forgets the anonymous visitors (no contact, no
// conversation) last seen before cutoff.
func (q *Q) PruneVisitors(ctx context.Context, cutoff chat.Timestamp) (int64, error) {
	res, err := q.exec(ctx, `DELETE FROM visitors WHERE contact_id IS NULL AND last_seen_at < ?
		AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.visitor_id = visitors.id)`, cutoff)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
