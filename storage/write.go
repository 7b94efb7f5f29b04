package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
)

// maxBatch bounds how many queued write transactions share one commit.
const maxBatch = 64

type writeJob struct {
	ctx     context.Context
	run     func(*Q) error // runs fn and keeps its result in the job's Written
	done    chan error
	effects Effects // what fn did, set before done is sent
}

// Written is what a committed write returned and what it did.
type Written[T any] struct {
	Result  T
	Effects Effects
}

// Write runs fn in a write transaction and returns its result once it is
// committed (or its error, when fn or the commit fails). Concurrent calls
// are grouped into one SQLite transaction that shares the cost of a commit;
// a failing fn undoes only its own changes.
//
// fn may run more than once: when one job of a batch fails, the batch is
// rolled back and replayed. So fn takes its inputs from its caller and hands
// back its result by returning it; it must never change a variable it shares
// with the caller, nor decide anything from what an earlier run of it did.
// Only the result of the run that commits is returned.
func Write[T any](ctx context.Context, db *DB, fn func(*Q) (T, error)) (Written[T], error) {
	var out Written[T]
	j := &writeJob{ctx: ctx, done: make(chan error, 1), run: func(q *Q) error {
		var err error
		out.Result, err = fn(q)
		return err
	}}
	select {
	case db.jobs <- j:
	case <-ctx.Done():
		return Written[T]{}, ctx.Err()
	}
	// Once queued, the job may commit even if ctx ends: report what happened.
	if err := <-j.done; err != nil {
		return Written[T]{}, err
	}
	out.Effects = j.effects
	return out, nil
}

// Write is the function Write for a fn with no result; the same rules hold.
func (db *DB) Write(ctx context.Context, fn func(*Q) error) error {
	_, err := Write(ctx, db, func(q *Q) (struct{}, error) { return struct{}{}, fn(q) })
	return err
}

// Generation counts the write batches run so far. It moves on before a
// write returns, so what was read while it stayed the same is still what
// the database holds: a cache keyed by it is never stale.
func (db *DB) Generation() uint64 { return db.written.Load() }

// ReplayEveryBatch makes every batch run twice, the first run rolled back,
// as when one of its jobs fails. It is for tests: under it, a write that is
// not safe to run twice gives wrong results at once, not once in a while.
func (db *DB) ReplayEveryBatch() { db.replayAll.Store(true) }

// writer owns the one write connection: it runs queued jobs in batches,
// each batch in one transaction, with statements prepared on that connection.
func (db *DB) writer(conn *sql.Conn, links schemaLinks) {
	defer close(db.done)
	stmts := &stmtCache{prepare: conn.PrepareContext}
	defer func() {
		stmts.close()
		conn.Close()
	}()
	changed := &changedRows{}
	w := &batchRunner{conn: conn, replayAll: &db.replayAll, q: &Q{q: conn, stmts: stmts, detached: true,
		changes: &rowChanges{schema: links, byText: map[string]rowChange{}}, batchChanged: changed}}
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
		errs := w.run(batch)
		// The kept rows the batch changed are forgotten before the
		// generation moves on and before any write returns: a read that
		// began earlier cannot keep what it read (DB.Keep).
		db.kept.forget(changed, db.written.Load()+1)
		changed.reset()
		db.written.Add(1) // before any write returns: a caller then reads past it
		for i, j := range batch {
			j.done <- errs[i]
		}
		db.committed()
	}
}

type batchRunner struct {
	conn      *sql.Conn
	q         *Q
	replayAll *atomic.Bool // see ReplayEveryBatch
}

// run executes a batch in one transaction and returns each job's result.
// Jobs run back to back with no savepoints, as nearly all succeed. When one
// fails, the transaction is rolled back and the batch replayed with a
// savepoint around each job, so the failing job is undone alone and the
// work of a batch is done at most twice.
func (w *batchRunner) run(batch []*writeJob) []error {
	errs, err := w.attempt(batch, false)
	if err == errReplay {
		errs, err = w.attempt(batch, true)
	}
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
	}
	return errs
}

// errReplay asks for a batch to be replayed with savepoints.
var errReplay = errors.New("replay with savepoints")

func (w *batchRunner) attempt(batch []*writeJob, savepoints bool) (errs []error, err error) {
	errs = make([]error, len(batch))
	if err := w.sql("BEGIN IMMEDIATE"); err != nil {
		return errs, err
	}
	committed := false
	defer func() {
		if !committed {
			w.sql("ROLLBACK")
		}
	}()
	ok := 0
	for i, j := range batch {
		switch {
		case savepoints:
			var fatal error
			if errs[i], fatal = w.inSavepoint(j); fatal != nil {
				return errs, fatal
			}
		case len(batch) > 1:
			if errs[i] = w.runJob(j); errs[i] != nil {
				return errs, errReplay
			}
		default:
			errs[i] = w.runJob(j)
		}
		if errs[i] == nil {
			ok++
		}
	}
	if ok == 0 {
		return errs, nil
	}
	if !savepoints && w.replayAll.Load() {
		return errs, errReplay
	}
	if err := w.sql("COMMIT"); err != nil {
		return errs, err
	}
	committed = true
	return errs, nil
}

// inSavepoint runs one job inside a savepoint. jobErr is what the job
// returned (its changes undone); fatal is a failure of the transaction
// itself, which aborts the whole batch.
func (w *batchRunner) inSavepoint(j *writeJob) (jobErr, fatal error) {
	if err := w.sql("SAVEPOINT job"); err != nil {
		return nil, err
	}
	if jobErr = w.runJob(j); jobErr != nil {
		if err := w.sql("ROLLBACK TO job"); err != nil {
			return nil, err
		}
	}
	return jobErr, w.sql("RELEASE job")
}

// runJob runs one job's fn and keeps its effects.
func (w *batchRunner) runJob(j *writeJob) error {
	w.q.effects = Effects{}
	err := j.run(w.q)
	j.effects = w.q.effects
	return err
}

// sql runs a transaction-control statement through the statement cache.
func (w *batchRunner) sql(stmt string) error {
	if _, err := w.q.exec(context.Background(), stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}
