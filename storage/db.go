// Package storage keeps chatsvc's state in one SQLite file. It runs SQL and
// nothing else: it maps rows to the objects of package chat, and which
// rows may change, and how, is decided by package app.
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
	"sync"
	"sync/atomic"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned when a row looked up by key does not exist.
var ErrNotFound = errors.New("storage: not found")

// DB is the database: one writer connection that batches concurrent
// transactions into group commits, and a pool of read-only connections.
type DB struct {
	write     *sql.DB
	read      *sql.DB
	readStmts stmtCache // prepared on the reader pool
	jobs      chan *writeJob
	done      chan struct{}
	ckpt      chan struct{} // wakes the checkpointer
	ckptDone  chan struct{}
	commits   int           // batches the writer has run
	written   atomic.Uint64 // batches run, counted before their writes return (Generation)
	replayAll atomic.Bool
	path      string
	kept      *keptRows // rows read by id, kept until the writer changes them (kept.go)
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
	dsn := DSN(path)
	w, err := sql.Open("sqlite", WriterDSN(path))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	db := &DB{write: w, jobs: make(chan *writeJob, 256), done: make(chan struct{}), path: path, kept: newKeptRows(keptBytes)}
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
	db.readStmts.prepare = r.PrepareContext
	conn, err := w.Conn(ctx)
	if err != nil {
		db.read.Close()
		w.Close()
		return nil, err
	}
	links, err := readSchemaLinks(ctx, conn)
	if err != nil {
		conn.Close()
		db.read.Close()
		w.Close()
		return nil, err
	}
	ck, err := sql.Open("sqlite", dsn)
	if err != nil {
		conn.Close()
		db.read.Close()
		w.Close()
		return nil, err
	}
	ck.SetMaxOpenConns(1)
	db.ckpt, db.ckptDone = make(chan struct{}, 1), make(chan struct{})
	go db.checkpointer(ck)
	go db.writer(conn, links)
	return db, nil
}

// DSN is the connection string of the database file at path, with the
// pragmas every connection runs. busy_timeout comes first so that it already
// applies while the others run (journal_mode needs a lock when another
// process holds one). WAL lets readers work beside the writer.
// synchronous=FULL syncs the log at every commit, so that what the API
// acknowledged survives a power cut or a crash of the machine, not only of
// the process (NORMAL would lose the last commits then, and with them a
// mail's "sent" mark, so the mail would go twice); the writer's group
// commits share that fsync among all the writes of a batch.
// temp_store=MEMORY keeps the sub-journals of the savepoints that group
// commits use off the disk.
func DSN(path string) string {
	return "file:" + url.PathEscape(path) +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)&_pragma=temp_store(MEMORY)"
}

// WriterDSN is DSN with what the one writer connection adds: write
// transactions that take the lock at BEGIN, and the checkpoint length.
func WriterDSN(path string) string {
	return DSN(path) + fmt.Sprintf("&_txlock=immediate&_pragma=wal_autocheckpoint(%d)", writerCheckpointPages)
}

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// Close waits for queued writes and closes every connection.
func (db *DB) Close() error {
	close(db.jobs)
	<-db.done
	close(db.ckpt)
	<-db.ckptDone
	db.readStmts.close()
	return errors.Join(db.read.Close(), db.write.Close())
}

// Read returns queries that run on the reader pool, outside any transaction.
func (db *DB) Read() *Q { return &Q{q: db.read, stmts: &db.readStmts} }

// ReadTx runs fn in one read transaction, so it sees a single snapshot.
func (db *DB) ReadTx(ctx context.Context, fn func(*Q) error) error {
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(&Q{q: tx, stmts: &db.readStmts, tx: tx})
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
// Statements are prepared once and reused: parsing SQL costs more than
// running most of these queries.
type Q struct {
	q       querier
	stmts   *stmtCache
	tx      *sql.Tx // set inside a read transaction, which binds statements to it
	effects Effects // what the running write did (effects.go)
	// detached: statements ignore the caller's cancellation. The writer's
	// are, since a job once queued runs to its end, and an interrupted
	// statement would roll back the whole batch's transaction.
	detached bool
	// On the writer: what each statement changes of the kept rows, and
	// what the running batch has changed so far (changed_rows.go).
	changes      *rowChanges
	batchChanged *changedRows
}

// stmtCache keeps prepared statements by their SQL text.
type stmtCache struct {
	prepare func(ctx context.Context, query string) (*sql.Stmt, error)
	m       sync.Map // string -> *sql.Stmt
}

func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := c.m.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := c.prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := c.m.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

func (c *stmtCache) close() {
	c.m.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		c.m.Delete(k)
		return true
	})
}

// context is ctx, without its cancellation on a detached Q. A context that
// cannot end also spares the driver a watching goroutine per statement.
func (q *Q) context(ctx context.Context) context.Context {
	if q.detached {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

func (q *Q) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if q.tx == nil {
		return q.stmts.get(ctx, query)
	}
	if s, ok := q.stmts.m.Load(query); ok {
		return q.tx.StmtContext(ctx, s.(*sql.Stmt)), nil
	}
	// Preparing for the cache takes a connection of the pool, and this
	// transaction holds one: transactions that all did so at once would
	// wait for each other until their requests timed out. The statement is
	// prepared on the transaction for this use, and for the cache once a
	// connection is free.
	go func() { _, _ = q.stmts.get(context.Background(), query) }() // failing, the next use tries again
	return q.tx.PrepareContext(ctx, query)
}

// noteChanges notes what running query with args changes of the kept rows.
func (q *Q) noteChanges(query string, args []any) {
	if q.changes != nil {
		q.changes.of(query).note(q.batchChanged, args)
	}
}

func (q *Q) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	q.noteChanges(query, args)
	ctx = q.context(ctx)
	s, err := q.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

func (q *Q) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	q.noteChanges(query, args)
	ctx = q.context(ctx)
	s, err := q.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// row runs a single-row query; a failed prepare surfaces from Scan.
func (q *Q) row(ctx context.Context, query string, args ...any) *sql.Row {
	q.noteChanges(query, args)
	ctx = q.context(ctx)
	s, err := q.stmt(ctx, query)
	if err != nil {
		return q.q.QueryRowContext(ctx, query, args...) // reports the same error on Scan
	}
	return s.QueryRowContext(ctx, args...)
}

// rowByKey runs a single-row query that looks a row up by a unique key.
// Such a read takes microseconds, too little to be worth interrupting, so
// it checks ctx once and then runs without its cancellation: for a context
// that can end, database/sql and the driver each start a goroutine to watch
// it, per statement. A longer read keeps the context, so that a client that
// went away stops it.
func (q *Q) rowByKey(ctx context.Context, query string, args ...any) *sql.Row {
	if ctx.Err() != nil {
		return q.row(ctx, query, args...) // Scan reports ctx's error
	}
	return q.row(context.WithoutCancel(ctx), query, args...)
}

// notFound turns sql.ErrNoRows into ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// Pragma reads a pragma's value (for checks and diagnostics).
func (q *Q) Pragma(ctx context.Context, name string, dst any) error {
	for _, c := range name {
		if (c < 'a' || c > 'z') && c != '_' {
			return fmt.Errorf("pragma name %q", name)
		}
	}
	return q.row(ctx, "PRAGMA "+name).Scan(dst)
}

// Schema returns the SQL that defines every table and index, in name order.
func (q *Q) Schema(ctx context.Context) (string, error) {
	var s string
	err := q.row(ctx, `SELECT group_concat(sql, ';'||char(10)) FROM
		(SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name)`).Scan(&s)
	return s, err
}
