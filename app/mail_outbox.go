package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// DueMails returns up to limit e-mails of the outbox whose next attempt is due.
func (s *Service) DueMails(ctx context.Context, limit int) ([]*storage.Mail, error) {
	return s.db.Read().DueMails(ctx, s.stamp(), limit)
}

// PendingMails counts the e-mails waiting in the outbox.
func (s *Service) PendingMails(ctx context.Context) (int, error) {
	return s.db.Read().PendingMails(ctx)
}

// RecordMailAttempt stores the outcome of one attempt to send ml at `at`:
// sent (sendErr nil); refused for good (permanent), with the reason kept;
// or failed for now, to be tried again by MailRetry until it gives up.
func (s *Service) RecordMailAttempt(ctx context.Context, ml *storage.Mail, at time.Time, sendErr error, permanent bool) error {
	ml.Attempts++
	stamp := chat.At(at)
	switch {
	case sendErr == nil:
		moveMail(ml, chat.MailSent, &stamp, nil)
	case permanent:
		reason := sendErr.Error()
		moveMail(ml, chat.MailFailed, nil, &reason)
		slog.Warn("e-mail refused for good", "mail", ml.ID, "template", ml.Template, "err", sendErr)
	default:
		reason := sendErr.Error()
		if next, ok := MailRetry.Next(ml.Attempts, ml.CreatedAt.Time(), at); ok {
			ml.NextAttemptAt, ml.LastError = chat.At(next), &reason
		} else {
			reason = fmt.Sprintf("gave up after %d attempts: %s", ml.Attempts, reason)
			moveMail(ml, chat.MailFailed, nil, &reason)
		}
	}
	return s.db.Write(ctx, func(q *storage.Q) error { return q.MailAttempted(ctx, ml) })
}
