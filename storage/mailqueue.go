package storage

import (
	"context"

	"chatsvc/chat"
)

const dueMailsSQL = `SELECT ` + mailRead + ` FROM outbox WHERE status = ? AND next_attempt_at <= ?
	ORDER BY next_attempt_at, id LIMIT ?`

// DueMails lists up to limit pending e-mails whose next attempt is due at
// now, the longest waiting first.
func (q *Q) DueMails(ctx context.Context, now chat.Timestamp, limit int) ([]*Mail, error) {
	rows, err := q.query(ctx, dueMailsSQL, chat.MailPending, now, limit)
	return collect(rows, err, scanMail)
}

// PendingMails counts the e-mails waiting to be sent.
func (q *Q) PendingMails(ctx context.Context) (int, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM outbox WHERE status = ?`, chat.MailPending).Scan(&n)
	return n, err
}

// Mail returns one outbox row, or ErrNotFound.
func (q *Q) Mail(ctx context.Context, id string) (*Mail, error) {
	return scanMail(q.row(ctx, `SELECT `+mailRead+` FROM outbox WHERE id = ?`, id))
}

// MailAttempted records the outcome of an attempt to send a pending e-mail:
// its new status, attempt count, next attempt time and error. A row erased
// or finished meanwhile is left alone.
func (q *Q) MailAttempted(ctx context.Context, m *Mail) error {
	_, err := q.exec(ctx, `UPDATE outbox SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, sent_at = ?
		WHERE id = ? AND status = ?`, m.Status, m.Attempts, m.NextAttemptAt, m.LastError, m.SentAt, m.ID, chat.MailPending)
	return err
}
