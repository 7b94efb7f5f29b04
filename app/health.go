package app

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"chatsvc/storage"
)

// Ping checks that the database accepts a write transaction and that its
// disk has at least Options.MinFreeBytes free: on a full disk SQLite still
// commits a transaction that writes nothing, while every real write fails.
func (s *Service) Ping(ctx context.Context) error {
	free, err := s.db.FreeBytes()
	if err != nil {
		return fmt.Errorf("free disk space: %w", err)
	}
	if free < s.minFree {
		return fmt.Errorf("%w: %d MiB free on the data folder's disk, below %d MiB", ErrDiskFull, free>>20, s.minFree>>20)
	}
	return s.db.Write(ctx, func(*storage.Q) error { return nil })
}

// ErrDiskFull is returned by Ping when the data folder's disk is (nearly) full.
var ErrDiskFull = errors.New("the disk is full")

// Gauges counts the work waiting in the database's queues and what its
// stores hold, for the metrics.
func (s *Service) Gauges(ctx context.Context) (*storage.Gauges, error) {
	return s.db.Read().ReadGauges(ctx, SourceFailed)
}

// PoolStats reports the database's writer connection and reader pool, for
// the metrics.
func (s *Service) PoolStats() (writer, readers sql.DBStats) { return s.db.Stats() }
