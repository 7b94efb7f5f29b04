package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// maxBatch bounds how many queued write transactions share one commit.
const maxBatch = 64

type writeJob struct {
	ctx     context.Context
	fn      func(*Q) error
	done    chan error
	effects Effects // what fn did, set before done is sent
}

// Write runs fn in a write transaction and returns once it is committed (or
// rolled back, when fn or the commit fails). Concurrent calls are grouped
// into one SQLite transaction that shares the cost of a commit; a failing fn
// undoes only its own changes. fn may run more than once, so it must only
// touch the database through q and its own variables.
func (db *DB) Write(ctx context.Context, fn func(*Q) error) error {
	_, err := db.WriteEffects(ctx, fn)
	return err
}

// writer owns the one write connection: it runs queued jobs in batches,
// each batch in one transaction, with statements prepared on that connection.
func (db *DB) writer(conn *sql.Conn) {
	defer close(db.done)
	stmts := &stmtCache{prepare: conn.PrepareContext}
	defer func() {
		stmts.close()
		conn.Close()
	}()
	w := &batchRunner{conn: conn, q: &Q{q: conn, stmts: stmts, detached: true}}
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
		for i, j := range batch {
			j.done <- errs[i]
		}
		db.committed()
	}
}

type batchRunner struct {
	conn *sql.Conn
	q    *Q
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
	err := j.fn(w.q)
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
