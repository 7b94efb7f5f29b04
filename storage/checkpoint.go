package storage

import (
	"context"
	"database/sql"
	"log/slog"
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
// database file on a connection of its own, off the writer's path, once
// every checkpointEvery commits. Only a checkpoint with nothing left to copy
// lets the next write restart the log, and this one trails the newest
// commit under load, so the writer's own checkpoint (see
// writerCheckpointPages) still finishes each round: the copying is done
// here, and the writer is left the little that came in since.
func (db *DB) checkpointer(conn *sql.DB) {
	defer close(db.ckptDone)
	defer conn.Close()
	for range db.ckpt {
		if _, err := conn.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			slog.Warn("checkpoint", "err", err)
		}
		afterCheckpoint()
	}
}

// afterCheckpoint is called after each of the checkpointer's runs; tests
// wait on it instead of polling the database file.
var afterCheckpoint = func() {}

// checkpointEvery is how many commits the checkpointer lets pass between
// its runs: enough that each run copies many commits, and each page they
// changed once; and few enough under light load that the log, which
// restarts (with an fsync on the writer's path) after a checkpoint has
// caught up, restarts rarely.
const checkpointEvery = 64

// committed counts a batch and wakes the checkpointer every
// checkpointEvery of them. Only the writer calls it.
func (db *DB) committed() {
	db.commits++
	if db.commits%checkpointEvery != 0 {
		return
	}
	select {
	case db.ckpt <- struct{}{}:
	default: // it is still copying: the next wake-up will do
	}
}
