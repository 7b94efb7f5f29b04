// Package testenv is what the tests of every package share: a fake clock,
// a real database on a temporary folder that replays every write batch,
// requests and their checks, waiting on signals, and real stand-ins for
// what the service talks to (webhook receiver, SMTP sink, push service).
package testenv

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"chatsvc/storage"
)

// T0 is when every test's clock starts unless the test needs another time.
var T0 = time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)

// Clock is a fake clock: it stands still unless moved, or moves by a step
// on every reading, so rows get distinct, predictable timestamps.
type Clock struct {
	mu   sync.Mutex
	now  time.Time
	step time.Duration
}

// NewClock returns a clock at start that moves by step on every reading
// (0: it stands still).
func NewClock(start time.Time, step time.Duration) *Clock { return &Clock{now: start, step: step} }

// Now reads the clock (and moves it by its step).
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.now
	c.now = c.now.Add(c.step)
	return t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// SetStep changes how far each reading moves the clock.
func (c *Clock) SetStep(step time.Duration) {
	c.mu.Lock()
	c.step = step
	c.mu.Unlock()
}

// OpenDB opens a database in dir (a new temporary folder when "") that
// replays every write batch, so a write that is not safe to run twice fails
// the test at once; it is closed when the test ends.
func OpenDB(tb testing.TB, dir string) *storage.DB {
	tb.Helper()
	if dir == "" {
		dir = tb.TempDir()
	}
	db := Reopen(tb, dir)
	tb.Cleanup(func() { db.Close() })
	return db
}

// Reopen opens the database in dir, replaying every write batch as OpenDB
// does, for a test that stops the service and starts it again on the same
// folder: the test closes it. A folder without a database gets a copy of
// the migrated template (schemaTemplate).
func Reopen(tb testing.TB, dir string) *storage.DB {
	tb.Helper()
	path := filepath.Join(dir, storage.FileName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		file, err := schemaTemplate()
		if err != nil {
			tb.Fatalf("the migrated template database: %v", err)
		}
		if err := os.MkdirAll(dir, 0o750); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, file, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	db, err := storage.Open(context.Background(), dir)
	if err != nil {
		tb.Fatal(err)
	}
	db.ReplayEveryBatch()
	return db
}

// template is the file of a database with every migration applied and
// nothing else, made once per test process: a test's new database starts as
// a copy of it, which takes a millisecond where applying the migrations one
// by one takes a tenth of a second. storage.Open then finds every migration
// recorded and applies none; the tests of the migrations themselves open
// their databases with storage.Open.
var template struct {
	once sync.Once
	file []byte
	err  error
}

// schemaTemplate returns the template's bytes, making it on the first call.
func schemaTemplate() ([]byte, error) {
	template.once.Do(func() {
		dir, err := os.MkdirTemp("", "chatsvc-template-")
		if err != nil {
			template.err = err
			return
		}
		defer os.RemoveAll(dir)
		db, err := storage.Open(context.Background(), dir)
		if err != nil {
			template.err = err
			return
		}
		if err := db.Close(); err != nil {
			template.err = err
			return
		}
		path := filepath.Join(dir, storage.FileName)
		if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
			template.err = errors.New("the write-ahead log was not checkpointed when the database closed")
			return
		}
		template.file, template.err = os.ReadFile(path)
	})
	return template.file, template.err
}
