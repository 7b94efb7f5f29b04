package app

import (
	"context"
	"encoding/json"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// MailReplicaFailing is the template of the e-mail telling the owner that
// the replica of the data folder has fallen behind.
const MailReplicaFailing = "replica_failing"

// ReplicaBehind is what the owner is told of a replica that fell behind.
type ReplicaBehind struct {
	Replica  string        // the store, without its password
	Lag      time.Duration // how old the newest write it lacks may be
	LastSync time.Time     // when it last held every write; zero if never
	Reason   string        // the latest failure, if one is known
}

// MailReplicaFailing queues the e-mail telling owner that the replica has
// fallen behind; owner "" tells nobody.
func (s *Service) MailReplicaFailing(ctx context.Context, owner string, b ReplicaBehind) error {
	if owner == "" {
		return nil
	}
	last := "never"
	if !b.LastSync.IsZero() {
		last = b.LastSync.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	data, err := json.Marshal(map[string]any{"replica": b.Replica, "lag": b.Lag.Round(time.Second).String(),
		"last_sync": last, "reason": b.Reason})
	if err != nil {
		return err
	}
	return s.write(ctx, func(q *storage.Q) error {
		now := chat.At(s.now())
		return q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: chat.Live, Template: MailReplicaFailing,
			ToEmail: owner, Data: data, NextAttemptAt: now, CreatedAt: now})
	})
}
