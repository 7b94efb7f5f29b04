package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// maxBatch bounds how many queued write transactions share one commit.
const maxBatch = 64

type writeJob struct {
	ctx  context.Context
	fn   func(*Q) error
	done chan error
}

// Write runs fn in a write transaction and returns once it is committed (or
// rolled back, when fn or the commit fails). Concurrent calls are grouped
// into one SQLite transaction, each inside its own savepoint, so a failing fn
// undoes only its own changes while the group shares the cost of a commit.
func (db *DB) Write(ctx context.Context, fn func(*Q) error) error {
	j := &writeJob{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case db.jobs <- j:
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once queued, the job may commit even if ctx ends: report what happened.
	return <-j.done
}

func (db *DB) writer() {
	defer close(db.done)
	for j := range db.jobs {
		batch := []*writeJob{j}
	drain:
		for len(batch) < maxBatch {
			select {
			case next, ok := <-db.jobs:
				if !ok {
					break drain
				}
				batch = append(batch, next)
			default:
				break drain
			}
		}
		db.runBatch(batch)
	}
}

func (db *DB) runBatch(batch []*writeJob) {
	errs := make([]error, len(batch))
	fail := func(err error) {
		for _, j := range batch {
			j.done <- err
		}
	}
	tx, err := db.write.BeginTx(context.Background(), nil)
	if err != nil {
		fail(fmt.Errorf("begin: %w", err))
		return
	}
	single := len(batch) == 1
	ok := 0
	for i, j := range batch {
		q := &Q{q: tx}
		if single {
			errs[i] = j.fn(q)
			break
		}
		if err := savepoint(tx, "SAVEPOINT w"); err != nil {
			tx.Rollback()
			fail(err)
			return
		}
		errs[i] = j.fn(q)
		stmt := "RELEASE w"
		if errs[i] != nil {
			stmt = "ROLLBACK TO w; RELEASE w"
		}
		if err := savepoint(tx, stmt); err != nil {
			tx.Rollback()
			fail(err)
			return
		}
	}
	for _, err := range errs {
		if err == nil {
			ok++
		}
	}
	if ok == 0 {
		tx.Rollback()
	} else if err := tx.Commit(); err != nil {
		fail(fmt.Errorf("commit: %w", err))
		return
	}
	for i, j := range batch {
		j.done <- errs[i]
	}
}

func savepoint(tx *sql.Tx, stmt string) error {
	if _, err := tx.Exec(stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}
