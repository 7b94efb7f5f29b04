package storage

import (
	"context"

	"chatsvc/chat"
)

// AssistantJob is a visitor message waiting for the assistant's reply.
type AssistantJob struct {
	MessageID      string
	Mode           chat.Mode
	ConversationID string
	Attempts       int
	NextAttemptAt  chat.Timestamp
	LastError      *string
	CreatedAt      chat.Timestamp
}

const assistantJobCols = `message_id, mode, conversation_id, attempts, next_attempt_at, last_error, created_at`

func scanAssistantJob(s interface{ Scan(...any) error }) (*AssistantJob, error) {
	j := &AssistantJob{}
	err := s.Scan(&j.MessageID, &j.Mode, &j.ConversationID, &j.Attempts, &j.NextAttemptAt, &j.LastError, &j.CreatedAt)
	return j, notFound(err)
}

// InsertAssistantJob queues a message for the assistant.
func (q *Q) InsertAssistantJob(ctx context.Context, j *AssistantJob) error {
	q.queued(QueueAssistant)
	_, err := q.exec(ctx, `INSERT INTO assistant_jobs (`+assistantJobCols+`) VALUES (?,?,?,?,?,?,?)`,
		j.MessageID, j.Mode, j.ConversationID, j.Attempts, j.NextAttemptAt, j.LastError, j.CreatedAt)
	return err
}

// AssistantJob returns the job of a message, or ErrNotFound.
func (q *Q) AssistantJob(ctx context.Context, messageID string) (*AssistantJob, error) {
	return scanAssistantJob(q.row(ctx, `SELECT `+assistantJobCols+` FROM assistant_jobs WHERE message_id = ?`, messageID))
}

// DueAssistantJobs lists up to limit jobs due at or before now, oldest first.
func (q *Q) DueAssistantJobs(ctx context.Context, now chat.Timestamp, limit int) ([]*AssistantJob, error) {
	rows, err := q.query(ctx, `SELECT `+assistantJobCols+` FROM assistant_jobs
		WHERE next_attempt_at <= ? ORDER BY next_attempt_at, message_id LIMIT ?`, now, limit)
	return collect(rows, err, scanAssistantJob)
}

// RetryAssistantJob records a failed attempt and when to try again.
func (q *Q) RetryAssistantJob(ctx context.Context, messageID string, next chat.Timestamp, lastError string) error {
	res, err := q.exec(ctx, `UPDATE assistant_jobs SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
		WHERE message_id = ?`, next, lastError, messageID)
	return affected(res, err)
}

// DeleteAssistantJob removes a job; ErrNotFound when it is gone already,
// which tells a second worker that the reply was stored by another.
func (q *Q) DeleteAssistantJob(ctx context.Context, messageID string) error {
	q.queued(QueueAssistant) // the assistant has a slot free for the next job
	res, err := q.exec(ctx, `DELETE FROM assistant_jobs WHERE message_id = ?`, messageID)
	return affected(res, err)
}

// DeleteAssistantJobsOf drops the pending jobs of a conversation, once the
// assistant may no longer answer in it.
func (q *Q) DeleteAssistantJobsOf(ctx context.Context, conversationID string) error {
	q.changed(&conversationID)
	_, err := q.exec(ctx, `DELETE FROM assistant_jobs WHERE conversation_id = ?`, conversationID)
	return err
}
