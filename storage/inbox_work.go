package storage

import (
	"context"
	"database/sql"

	"chatsvc/chat"
)

// InboxWork is what the inbox shows of a conversation beyond its own row:
// who the visitor is, the last message, and since when the visitor has
// waited for the team.
type InboxWork struct {
	ContactName  *string
	ContactEmail *string
	LastAuthor   string
	LastBody     string
	// WaitingSince is the visitor's first message after the team's last
	// one; nil when the team spoke last.
	WaitingSince *chat.Timestamp
}

// InboxWorkOf reads the inbox details of the given conversations, by id.
func (q *Q) InboxWorkOf(ctx context.Context, conversationIDs []string) (map[string]*InboxWork, error) {
	rows, err := q.query(ctx, `SELECT c.id, ct.name, ct.email,
			COALESCE(last.author_type, ''), COALESCE(last.body, ''),
			(SELECT MIN(m.created_at) FROM messages m WHERE m.conversation_id = c.id AND m.author_type = 'contact'
				AND m.created_at > COALESCE((SELECT MAX(a.created_at) FROM messages a
					WHERE a.conversation_id = c.id AND a.author_type = 'agent'), 0))
		FROM conversations c
		LEFT JOIN contacts ct ON ct.id = c.contact_id
		LEFT JOIN messages last ON last.id = (SELECT l.id FROM messages l WHERE l.conversation_id = c.id
			ORDER BY l.created_at DESC, l.id DESC LIMIT 1)
		WHERE c.id IN (SELECT value FROM json_each(?))`, toJSON(conversationIDs))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]*InboxWork, len(conversationIDs))
	for rows.Next() {
		var id string
		var since sql.NullInt64
		w := &InboxWork{}
		if err := rows.Scan(&id, &w.ContactName, &w.ContactEmail, &w.LastAuthor, &w.LastBody, &since); err != nil {
			return nil, err
		}
		if since.Valid {
			t := chat.Timestamp(since.Int64)
			w.WaitingSince = &t
		}
		out[id] = w
	}
	return out, rows.Err()
}

// InboxViewCounts counts a mode's conversations whose status is one of
// statuses: all of them, those assigned to memberID, and the unassigned.
func (q *Q) InboxViewCounts(ctx context.Context, mode chat.Mode, memberID string, statuses []chat.Status) (all, mine, unassigned int, err error) {
	cond, args := statusIn(statuses)
	err = q.row(ctx, `SELECT COUNT(*), COALESCE(SUM(assignee_id = ?), 0), COALESCE(SUM(assignee_id IS NULL), 0)
		FROM conversations WHERE mode = ? AND `+cond, append([]any{memberID, mode}, args...)...).
		Scan(&all, &mine, &unassigned)
	return all, mine, unassigned, err
}
