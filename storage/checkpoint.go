package storage

import (
	"context"
	"database/sql"
	"log/slog"
	"time"
)

// writerCheckpointPages is the write-ahead log's length, in pages, at which
// the writer checkpoints it and the log starts again from its beginning
// (SQLite's wal_autocheckpoint; its default is 1,000). The checkpointer has
// by then copied nearly every page, but the writer's checkpoint still ends
// with two fsyncs, which took 30 to 40 ms on a virtual disk while every
// queued write waited: a long log makes them rare. It costs disk space, as
// the log file keeps its longest length: 32,000 pages of 4 kB is 128 MB.
var writerCheckpointPages = 32000 // tests lower it

// checkpointer copies committed pages from the write-ahead log into the
// database file on a connection of its own, off the writer's path, after
// the writer's commits (at most once per checkpointPause). Only a
// checkpoint with nothing left to copy lets the next write restart the log,
// and this one always trails the newest commit, so the writer's own
// checkpoint (see writerCheckpointPages) still finishes each round: the
// copying is done here, and the writer is left the little that came in
// since.
func (db *DB) checkpointer(conn *sql.DB) {
	defer close(db.ckptDone)
	defer conn.Close()
	for range db.ckpt {
		if _, err := conn.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			slog.Warn("checkpoint", "err", err)
		}
		time.Sleep(checkpointPause)
	}
}

// checkpointPause spaces the checkpointer's runs, so that each copies many
// commits, and each page changed by several of them once.
const checkpointPause = 20 * time.Millisecond

// wakeCheckpointer tells the checkpointer that commits are waiting.
func (db *DB) wakeCheckpointer() {
	select {
	case db.ckpt <- struct{}{}:
		return
	default:
	}
}
