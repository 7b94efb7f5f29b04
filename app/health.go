package app

import (
	"context"
	"database/sql"

	"chatsvc/storage"
)

// Ping checks that the database accepts a write transaction.
func (s *Service) Ping(ctx context.Context) error {
	return s.db.Write(ctx, func(*storage.Q) error { return nil })
}

// Gauges counts the work waiting in the database's queues and what its
// stores hold, for the metrics.
func (s *Service) Gauges(ctx context.Context) (*storage.Gauges, error) {
	return s.db.Read().ReadGauges(ctx)
}

// PoolStats reports the database's writer connection and reader pool, for
// the metrics.
func (s *Service) PoolStats() (writer, readers sql.DBStats) { return s.db.Stats() }
