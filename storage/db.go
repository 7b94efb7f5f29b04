// Package storage keeps chatsvc's state in one SQLite file. It runs SQL and
// nothing else: which rows may change, and how, is decided by package app.
package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned when a row looked up by key does not exist.
var ErrNotFound = errors.New("storage: not found")

// DB is the database: one writer connection that batches concurrent
// transactions into group commits, and a pool of read-only connections.
type DB struct {
	write *sql.DB
	read  *sql.DB
	jobs  chan *writeJob
	done  chan struct{}
	path  string
}

// FileName is the database's file name inside the data dir.
const FileName = "chatsvc.db"

// Open opens (creating if needed) the database in dataDir and applies pending
// migrations.
func Open(ctx context.Context, dataDir string) (*DB, error) {
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	path := filepath.Join(dataDir, FileName)
	// busy_timeout comes first so that it already applies while the other
	// pragmas run (journal_mode needs a lock when another process holds one).
	// WAL lets readers work beside the writer; synchronous=NORMAL is durable
	// across application crashes in WAL mode and spares an fsync per commit.
	pragmas := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)"
	dsn := "file:" + url.PathEscape(path) + "?" + pragmas
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	db := &DB{write: w, jobs: make(chan *writeJob, 256), done: make(chan struct{}), path: path}
	if err := db.migrate(ctx); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	readers := max(4, 2*runtime.NumCPU())
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	r.SetConnMaxIdleTime(0)
	db.read = r
	go db.writer()
	return db, nil
}

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// Close waits for queued writes and closes every connection.
func (db *DB) Close() error {
	close(db.jobs)
	<-db.done
	return errors.Join(db.read.Close(), db.write.Close())
}

// Read returns queries that run on the reader pool, outside any transaction.
func (db *DB) Read() *Q { return &Q{q: db.read} }

// ReadTx runs fn in one read transaction, so it sees a single snapshot.
func (db *DB) ReadTx(ctx context.Context, fn func(*Q) error) error {
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(&Q{q: tx})
}

// Stats reports the connection pools' statistics.
func (db *DB) Stats() (writer, readers sql.DBStats) { return db.write.Stats(), db.read.Stats() }

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Q runs the project's queries on a connection pool or inside a transaction.
type Q struct{ q querier }

func (q *Q) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return q.q.ExecContext(ctx, query, args...)
}

func (q *Q) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return q.q.QueryContext(ctx, query, args...)
}

func (q *Q) row(ctx context.Context, query string, args ...any) *sql.Row {
	return q.q.QueryRowContext(ctx, query, args...)
}

// notFound turns sql.ErrNoRows into ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
