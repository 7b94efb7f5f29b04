package app

import (
	"context"
	"log/slog"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Retention is how long data is kept (the retention.* settings); zero
// keeps it forever. See docs/privacy.md.
type Retention struct {
	ClosedConversations time.Duration // after the close
	Visitors            time.Duration // anonymous visitors, after they were last seen
}

// settingRetentionRun records when the retention job last ran, so a
// restart neither skips a day nor runs twice in one.
const settingRetentionRun = "retention.last_run"

// retentionBatch is how many conversations one transaction deletes, so the
// writer is never held long.
const retentionBatch = 50

// RetentionWorker runs RetentionStep; it checks hourly whether a day has
// passed since the last run.
func (s *Service) RetentionWorker(r Retention) Worker {
	return Worker{Name: "retention", Every: time.Hour, Step: func(ctx context.Context) (bool, error) {
		return false, s.RetentionStep(ctx, r)
	}}
}

// RetentionStep, once a day, deletes the conversations closed longer ago
// than r.ClosedConversations (with their messages, notes, events and the
// files no other message holds) and forgets the anonymous visitors not
// seen for r.Visitors. Uploads never sent go after UploadsKept, whatever r.
func (s *Service) RetentionStep(ctx context.Context, r Retention) error {
	now := s.now()
	last, err := s.db.Read().Setting(ctx, settingRetentionRun)
	if err != nil && !isNotFound(err) {
		return err
	}
	if t, perr := time.Parse(time.RFC3339, last); perr == nil && now.Sub(t) < 24*time.Hour {
		return nil
	}
	if r.ClosedConversations > 0 {
		n, err := s.deleteClosedBefore(ctx, chat.At(now.Add(-r.ClosedConversations)))
		if err != nil {
			return err
		}
		slog.Info("retention: closed conversations deleted", "count", n)
	}
	if r.Visitors > 0 {
		n, err := writeResult(ctx, s, func(q *storage.Q) (int64, error) {
			return q.PruneVisitors(ctx, chat.At(now.Add(-r.Visitors)))
		})
		if err != nil {
			return err
		}
		slog.Info("retention: anonymous visitors forgotten", "count", n)
	}
	if n, err := s.pruneUploads(ctx, now); err != nil {
		return err
	} else if n > 0 {
		slog.Info("retention: unsent uploads removed", "count", n)
	}
	return s.writeNamed(ctx, "apply retention", func(q *storage.Q) error {
		return q.SetSetting(ctx, settingRetentionRun, now.UTC().Format(time.RFC3339))
	})
}

// deleteClosedBefore deletes, batch by batch, the conversations closed
// before cutoff, then the files that only they held.
func (s *Service) deleteClosedBefore(ctx context.Context, cutoff chat.Timestamp) (int, error) {
	total := 0
	for {
		// ids: the conversations deleted; hashes: the files they held.
		type deleted struct{ ids, hashes []string }
		d, err := writeResult(ctx, s, func(q *storage.Q) (deleted, error) {
			ids, err := q.ClosedBefore(ctx, cutoff, retentionBatch)
			if err != nil {
				return deleted{}, err
			}
			var held []string
			for _, id := range ids {
				h, err := q.DeleteConversation(ctx, id)
				if err != nil {
					return deleted{}, err
				}
				held = append(held, h...)
			}
			return deleted{ids, held}, nil
		})
		if err != nil {
			return total, err
		}
		total += len(d.ids)
		if err := s.removeUnheldFiles(ctx, d.hashes); err != nil {
			return total, err
		}
		if len(d.ids) < retentionBatch {
			return total, nil
		}
	}
}

// removeUnheldFiles removes the stored bytes of each hash that no
// attachment holds any more (a file sent twice is stored once).
func (s *Service) removeUnheldFiles(ctx context.Context, hashes []string) error {
	if s.att.store == nil {
		return nil
	}
	for _, h := range hashes {
		held, err := s.db.Read().FileInUse(ctx, h)
		if err != nil {
			return err
		}
		if held {
			continue
		}
		if err := s.att.store.Remove(h); err != nil {
			return err
		}
	}
	return nil
}
