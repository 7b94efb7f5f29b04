package app

import (
	"context"

	"chatsvc/storage"
)

// Ping checks that the database accepts a write transaction.
func (s *Service) Ping(ctx context.Context) error {
	return s.db.Write(ctx, func(*storage.Q) error { return nil })
}

// QueueDepths counts the work waiting in the database's queues, by queue.
func (s *Service) QueueDepths(ctx context.Context) (map[string]int64, error) {
	pending, err := s.db.Read().CountMails(ctx, "pending")
	if err != nil {
		return nil, err
	}
	return map[string]int64{"outbox": pending}, nil
}
