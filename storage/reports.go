package storage

import (
	"context"

	"chatsvc/chat"
)

// ReportConversation is what the reports need of one conversation.
type ReportConversation struct {
	Status       chat.Status
	CreatedAt    chat.Timestamp
	ClosedAt     *chat.Timestamp
	HandedOffAt  *chat.Timestamp // its first hand-off, nil when never handed off
	FirstAgentAt *chat.Timestamp // its first agent message, nil when none
	RatingScore  *int
}

// ReportRange selects the rows of a report: one mode, created in [From, To),
// on SiteID when it is not empty.
type ReportRange struct {
	Mode     chat.Mode
	From, To chat.Timestamp
	SiteID   string
}

// Every column is in the index conversations_report: the scan never visits
// the table's wide rows.
const reportConversationSQL = `SELECT c.status, c.created_at, c.closed_at,
	c.handed_off_at, c.first_agent_at, c.rating_score
	FROM conversations c WHERE c.mode = ? AND c.created_at >= ? AND c.created_at < ?`

// ReportConversations calls each with every conversation created in the
// range, in no order; an error from each stops the scan. A report over
// months is a scan of a hundred thousand rows: passed one at a time, they
// are never all in memory, however many reports run at once.
func (q *Q) ReportConversations(ctx context.Context, r ReportRange, each func(ReportConversation) error) error {
	query, args := reportConversationSQL, []any{r.Mode, r.From, r.To}
	if r.SiteID != "" {
		query, args = query+` AND c.site_id = ?`, append(args, r.SiteID)
	}
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c ReportConversation
		if err := rows.Scan(&c.Status, &c.CreatedAt, &c.ClosedAt, &c.HandedOffAt, &c.FirstAgentAt, &c.RatingScore); err != nil {
			return err
		}
		if err := each(c); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ReportTickets returns when the tickets created in the range were created,
// and how many tickets were solved in it. With a site, only tickets opened
// from one of its conversations count.
func (q *Q) ReportTickets(ctx context.Context, r ReportRange) (created []chat.Timestamp, solved int, err error) {
	site, args := "", []any{r.Mode, r.From, r.To}
	if r.SiteID != "" {
		site, args = ` AND conversation_id IN (SELECT id FROM conversations WHERE site_id = ?)`, append(args, r.SiteID)
	}
	rows, err := q.query(ctx, `SELECT created_at FROM tickets WHERE mode = ? AND created_at >= ? AND created_at < ?`+site, args...)
	created, err = collect(rows, err, func(s interface{ Scan(...any) error }) (chat.Timestamp, error) {
		var t chat.Timestamp
		return t, s.Scan(&t)
	})
	if err != nil {
		return nil, 0, err
	}
	err = q.row(ctx, `SELECT COUNT(*) FROM tickets WHERE mode = ? AND solved_at >= ? AND solved_at < ?`+site, args...).Scan(&solved)
	return created, solved, err
}

// AssistantReply records one assistant reply to a visitor's question.
type AssistantReply struct {
	MessageID      string
	Mode           chat.Mode
	ConversationID string
	QuestionID     string
	Abstained      bool
	CreatedAt      chat.Timestamp
}

// InsertAssistantReply stores an assistant reply's record.
func (q *Q) InsertAssistantReply(ctx context.Context, r *AssistantReply) error {
	_, err := q.exec(ctx, `INSERT INTO assistant_replies (message_id, mode, conversation_id, question_id, abstained, created_at)
		VALUES (?,?,?,?,?,?)`, r.MessageID, r.Mode, r.ConversationID, r.QuestionID, r.Abstained, r.CreatedAt)
	return err
}

// SetReplyFeedback stores the visitor's feedback on an assistant reply of
// one of visitorID's conversations, replacing any earlier feedback;
// ErrNotFound when there is no such reply.
func (q *Q) SetReplyFeedback(ctx context.Context, mode chat.Mode, visitorID, messageID string, helpful bool, at chat.Timestamp) error {
	res, err := q.exec(ctx, `UPDATE assistant_replies SET helpful = ?, feedback_at = ?
		WHERE message_id = ? AND mode = ? AND conversation_id IN (SELECT id FROM conversations WHERE visitor_id = ?)`,
		helpful, at, messageID, mode, visitorID)
	return affected(res, err)
}

// UnansweredQuestion is a question the assistant could not answer, or
// whose answer a visitor found unhelpful, with how often it was asked.
type UnansweredQuestion struct {
	Question       string
	Count          int
	LastAskedAt    chat.Timestamp
	ConversationID string // where it was last asked
}

// UnansweredQuestions groups the mode's abstentions and unhelpful answers
// by question (case and surrounding spaces aside), most asked first, then
// most recent; offset and limit page through the groups.
func (q *Q) UnansweredQuestions(ctx context.Context, mode chat.Mode, offset, limit int) ([]UnansweredQuestion, error) {
	// With MAX() as the only aggregate, SQLite takes the bare columns (the
	// question's wording and conversation) from the row of the latest reply.
	rows, err := q.query(ctx, `SELECT trim(m.body), COUNT(*), MAX(r.created_at), r.conversation_id
		FROM assistant_replies r JOIN messages m ON m.id = r.question_id
		WHERE r.mode = ? AND (r.abstained = 1 OR r.helpful = 0) AND trim(m.body) <> ''
		GROUP BY lower(trim(m.body)) ORDER BY 2 DESC, 3 DESC, lower(trim(m.body)) LIMIT ? OFFSET ?`,
		mode, limit, offset)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (UnansweredQuestion, error) {
		var u UnansweredQuestion
		return u, s.Scan(&u.Question, &u.Count, &u.LastAskedAt, &u.ConversationID)
	})
}
