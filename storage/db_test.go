package storage_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"chatsvc/chat"
	"chatsvc/storage"
)

func open(t *testing.T, dir string) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// schema returns the database's schema text and migration records.
func schema(t *testing.T, db *storage.DB) string {
	t.Helper()
	var out string
	err := db.ReadTx(context.Background(), func(q *storage.Q) error {
		v, err := q.AppliedVersion(context.Background())
		if err != nil {
			return err
		}
		sql, err := q.Schema(context.Background())
		out = fmt.Sprintf("version %d\n%s", v, sql)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMigrationsTwiceChangeNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := open(t, dir)
	site := &chat.Site{ID: "site_1", Name: "One", CreatedAt: 1}
	if err := db.Write(context.Background(), func(q *storage.Q) error { return q.InsertSite(context.Background(), site) }); err != nil {
		t.Fatal(err)
	}
	first := schema(t, db)
	if want := fmt.Sprintf("version %d\nCREATE", storage.SchemaVersion()); !strings.HasPrefix(first, want) || storage.SchemaVersion() < 1 {
		t.Fatalf("after first open: %.60q…, want %q…", first, want)
	}
	db.Close()

	db = open(t, dir) // applies migrations again: must be a no-op
	defer db.Close()
	if again := schema(t, db); again != first {
		t.Fatalf("schema changed on second run: %q then %q", first, again)
	}
	sites, err := db.Read().Sites(context.Background())
	if err != nil || len(sites) != 1 || sites[0].Name != "One" {
		t.Fatalf("sites after reopen: %v, %v", sites, err)
	}
}

func TestWriteGroupsCommitsAndIsolatesFailures(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir())
	defer db.Close()
	ctx := context.Background()
	boom := errors.New("boom")
	var wg sync.WaitGroup
	errs := make([]error, 200)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.Write(ctx, func(q *storage.Q) error {
				if err := q.InsertSite(ctx, &chat.Site{ID: fmt.Sprintf("site_%d", i), Name: "s", CreatedAt: 1}); err != nil {
					return err
				}
				if i%3 == 0 {
					return boom // this write's insert must be undone, and only it
				}
				return nil
			})
		}()
	}
	wg.Wait()
	sites, err := db.Read().Sites(ctx)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, s := range sites {
		have[s.ID] = true
	}
	for i, err := range errs {
		id := fmt.Sprintf("site_%d", i)
		if i%3 == 0 {
			if !errors.Is(err, boom) || have[id] {
				t.Fatalf("write %d: err %v, stored %v; want boom and nothing stored", i, err, have[id])
			}
		} else if err != nil || !have[id] {
			t.Fatalf("write %d: err %v, stored %v; want stored", i, err, have[id])
		}
	}
}

func TestUniqueViolationIsConflict(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir())
	defer db.Close()
	ctx := context.Background()
	norm := "a@example.com"
	insert := func(id string) error {
		return db.Write(ctx, func(q *storage.Q) error {
			return q.InsertContact(ctx, &chat.Contact{ID: id, Mode: chat.Test, Email: &norm, CreatedAt: 1, UpdatedAt: 1}, &norm)
		})
	}
	if err := insert("ctc_1"); err != nil {
		t.Fatal(err)
	}
	if err := insert("ctc_2"); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("second contact with the same e-mail: %v, want ErrConflict", err)
	}
	// The same e-mail is free in the other mode.
	err := db.Write(ctx, func(q *storage.Q) error {
		return q.InsertContact(ctx, &chat.Contact{ID: "ctc_3", Mode: chat.Live, Email: &norm, CreatedAt: 1, UpdatedAt: 1}, &norm)
	})
	if err != nil {
		t.Fatalf("same e-mail in live mode: %v", err)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir())
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Read().Ticket(ctx, chat.Test, "tkt_none"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("Ticket: %v", err)
	}
	if _, err := db.Read().Conversation(ctx, chat.Test, "conv_none"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("Conversation: %v", err)
	}
	err := db.Write(ctx, func(q *storage.Q) error { return q.DeleteTicket(ctx, chat.Test, "tkt_none") })
	if !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("DeleteTicket: %v", err)
	}
}

func TestPragmas(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir())
	defer db.Close()
	// synchronous 2 is FULL: a commit is on the disk before it is acknowledged.
	want := map[string]string{"journal_mode": "wal", "foreign_keys": "1", "synchronous": "2", "busy_timeout": "10000"}
	ctx := context.Background()
	for pragma, v := range want {
		var read, written string
		err := db.ReadTx(ctx, func(q *storage.Q) error { return q.Pragma(ctx, pragma, &read) })
		if err == nil {
			err = db.Write(ctx, func(q *storage.Q) error { return q.Pragma(ctx, pragma, &written) })
		}
		if err != nil || read != v || written != v {
			t.Errorf("PRAGMA %s = %q on readers, %q on the writer (%v), want %q", pragma, read, written, err, v)
		}
	}
}

// A write, once queued, runs to its end even if its caller gives up
// half-way: its statements are not interrupted, and it commits.
func TestWriteOutlivesItsCaller(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir())
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	err := db.Write(ctx, func(q *storage.Q) error {
		if err := q.InsertSite(ctx, &chat.Site{ID: "site_1", Name: "One", CreatedAt: 1}); err != nil {
			return err
		}
		cancel() // the caller's request ends
		return q.InsertSite(ctx, &chat.Site{ID: "site_2", Name: "Two", CreatedAt: 1})
	})
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	if sites, err := db.Read().Sites(context.Background()); err != nil || len(sites) != 2 {
		t.Fatalf("sites %v, %v; want both", sites, err)
	}
}

// A replayed write returns the result of the run that committed, and a
// first run's rolled-back row is not seen by the second.
func TestWriteReturnsTheCommittedRun(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir())
	defer db.Close()
	db.ReplayEveryBatch()
	ctx := context.Background()
	runs := 0
	w, err := storage.Write(ctx, db, func(q *storage.Q) (string, error) {
		runs++
		id := fmt.Sprintf("site_run%d", runs)
		if _, err := q.Site(ctx, "site_run1"); err == nil {
			return "", errors.New("the first run's row survived its rollback")
		}
		return id, q.InsertSite(ctx, &chat.Site{ID: id, Name: "S", CreatedAt: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	if runs != 2 || w.Result != "site_run2" {
		t.Fatalf("runs %d, result %q; want 2 runs and the second's result", runs, w.Result)
	}
	sites, err := db.Read().Sites(ctx)
	if err != nil || len(sites) != 1 || sites[0].ID != "site_run2" {
		t.Fatalf("sites %v (%v), want only site_run2", sites, err)
	}
}

// No table has an INSERT trigger: SQLite then keeps a statement journal (a
// copy of every page an insert changes) for each insert into the table,
// which cost an agent message a tenth of its write. What must follow an
// insert is written by the storage function that inserts.
func TestNoInsertTriggers(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir())
	defer db.Close()
	for _, stmt := range strings.Split(schema(t, db), ";\n") {
		if head, _, _ := strings.Cut(stmt, " BEGIN"); strings.HasPrefix(strings.TrimSpace(stmt), "CREATE TRIGGER") &&
			strings.Contains(head, " INSERT ON ") {
			t.Errorf("an INSERT trigger: %s", head)
		}
	}
}
