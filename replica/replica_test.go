package replica_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"chatsvc/replica"
	"chatsvc/testenv"
	"chatsvc/testenv/remote"
)

const dbFile = "app.db"

// folder is a data folder with a WAL database of numbered rows and stored
// files, as serve keeps one.
type folder struct {
	dir string
	db  *sql.DB
}

func newFolder(t *testing.T) *folder {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, dbFile)+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE rows (n INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	return &folder{dir: dir, db: db}
}

func (f *folder) write(t *testing.T, from, to int) {
	t.Helper()
	for n := from; n < to; n++ {
		if _, err := f.db.Exec(`INSERT INTO rows (n) VALUES (?)`, n); err != nil {
			t.Fatal(err)
		}
	}
}

// store puts content in the folder's files/ as the files package does and
// returns its hash.
func (f *folder) store(t *testing.T, content string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(content))
	h := hex.EncodeToString(sum[:])
	p := filepath.Join(f.dir, "files", h[:2], h)
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return h
}

func count(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM rows`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func options(t *testing.T, kind string) replica.Options {
	o := replica.Options{SyncInterval: 100 * time.Millisecond, Retention: 72 * time.Hour}
	switch kind {
	case "file":
		o.URL = "file://" + filepath.ToSlash(t.TempDir())
	case "s3":
		o.URL, o.Endpoint, o.Region = "s3://replica/chat", remote.S3(t, "replica"), "us-east-1"
		o.AccessKeyID, o.SecretAccessKey = "test-key", "test-secret"
	case "sftp":
		var addr string
		addr, o.HostKey = remote.SFTP(t, "chat", "s3cret")
		o.URL = "sftp://chat:s3cret@" + addr + filepath.ToSlash(t.TempDir())
	}
	return o
}

// start replicates f to o until the test ends; step runs one round of the
// replica worker.
func start(t *testing.T, f *folder, o replica.Options) (rp *replica.Replicator, step func()) {
	t.Helper()
	rp, err := replica.Start(f.dir, dbFile, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rp.Close(context.Background()) })
	return rp, func() {
		t.Helper()
		if _, err := rp.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReplicateAndRestore replicates a database and its files to a folder
// and to an S3 server, then restores both into a new folder: the newest
// state, and the state between two bursts of writes.
func TestReplicateAndRestore(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"file", "s3", "sftp"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel() // most of each is waiting for a second to pass
			ctx := context.Background()
			o := options(t, kind)
			f := newFolder(t)
			f.write(t, 0, 50)
			first := f.store(t, "first file")
			rp, step := start(t, f, o)
			step()
			waitSynced(t, rp, time.Now())
			time.Sleep(1100 * time.Millisecond) // timestamps of the replica's files have a second's precision
			between := time.Now()
			time.Sleep(1100 * time.Millisecond)
			f.write(t, 50, 80)
			second := f.store(t, "second file")
			step()
			waitSynced(t, rp, time.Now())
			st := rp.Status()
			if st.Files.IsZero() || st.Err != "" {
				t.Fatalf("status after copying the files: %+v", st)
			}

			both := func(context.Context, string) ([]string, error) { return []string{first, second}, nil }
			dir := t.TempDir()
			res, err := replica.Restore(ctx, o, dir, dbFile, time.Time{}, both)
			if err != nil {
				t.Fatal(err)
			}
			if n := count(t, filepath.Join(dir, dbFile)); n != 80 || res.Files != 2 || len(res.Missing) != 0 {
				t.Fatalf("newest restore: %d rows, %+v; want 80 rows and 2 files", n, res)
			}
			for h, content := range map[string]string{first: "first file", second: "second file"} {
				if b, err := os.ReadFile(filepath.Join(dir, "files", h[:2], h)); err != nil || string(b) != content {
					t.Fatalf("restored file %s: %q, %v", h, b, err)
				}
			}
			if res.AsOf.Before(between) {
				t.Fatalf("the newest restore is as of %s, before the second burst (%s)", res.AsOf, between)
			}

			dir = t.TempDir()
			res, err = replica.Restore(ctx, o, dir, dbFile, between, both)
			if err != nil {
				t.Fatal(err)
			}
			if n := count(t, filepath.Join(dir, dbFile)); n != 50 {
				t.Fatalf("restore as of %s: %d rows, want the first burst's 50", between, n)
			}
			if res.AsOf.After(between) {
				t.Fatalf("restore as of %s reports %s", between, res.AsOf)
			}
		})
	}
}

// waitSynced waits until the replica holds every write made before
// written: Litestream reads the log every sync interval, and the status
// speaks of what it has read, so a sync well after that is asked for.
func waitSynced(t *testing.T, rp *replica.Replicator, written time.Time) {
	t.Helper()
	testenv.Eventually(t, "the writes replicated", func() bool {
		st := rp.Status()
		return st.Err == "" && st.Lag == 0 && st.LastSync.After(written.Add(500*time.Millisecond))
	})
}

// TestFilesAreCopiedOnce checks that a file already copied is not copied
// again: the replica remembers what it holds.
func TestFilesAreCopiedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := options(t, "file")
	f := newFolder(t)
	h := f.store(t, "once")
	rp, err := replica.Start(f.dir, dbFile, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close(ctx)
	if _, err := rp.Step(ctx); err != nil {
		t.Fatal(err)
	}
	waitSynced(t, rp, time.Now())
	copied := filepath.Join(o.URL[len("file://"):], "files", h)
	if _, err := os.Stat(copied); err != nil {
		t.Fatalf("the file is not in the replica: %v", err)
	}
	os.Remove(copied)
	f.store(t, "twice")
	if _, err := rp.Step(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(copied); err == nil {
		t.Fatal("a file already copied was copied again")
	}
	dir := t.TempDir()
	res, err := replica.Restore(ctx, o, dir, dbFile, time.Time{}, func(context.Context, string) ([]string, error) {
		return []string{h}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Missing) != 1 || res.Missing[0] != h {
		t.Fatalf("a file the replica lacks must be reported missing: %+v", res)
	}
}

// TestRestoreFromAnEmptyReplica says so instead of creating a database.
func TestRestoreFromAnEmptyReplica(t *testing.T) {
	t.Parallel()
	_, err := replica.Restore(context.Background(), options(t, "file"), t.TempDir(), dbFile, time.Time{}, nil)
	if err == nil || !errors.Is(err, replica.ErrEmpty) {
		t.Fatalf("restore from an empty replica: %v", err)
	}
}

// TestErasedFilesLeaveTheReplicaAfterTheRetention checks that a file the
// folder no longer holds stays in the store while a restore can still go
// back to it, is marked with the time it went, and is deleted once the
// retention has passed; a file stored again keeps its copy.
func TestErasedFilesLeaveTheReplicaAfterTheRetention(t *testing.T) {
	t.Parallel()
	o := options(t, "file")
	o.Retention = 2 * time.Second
	f := newFolder(t)
	erased, back := f.store(t, "erased"), f.store(t, "comes back")
	_, step := start(t, f, o)
	step()
	stored := filepath.Join(o.URL[len("file://"):], "files")
	for _, h := range []string{erased, back} {
		os.Remove(filepath.Join(f.dir, "files", h[:2], h))
	}
	step()
	marks, _ := filepath.Glob(filepath.Join(stored, "*.gone-*"))
	if len(marks) != 2 {
		t.Fatalf("want a mark for each file gone, have %v", marks)
	}
	if _, err := os.Stat(filepath.Join(stored, erased)); err != nil {
		t.Fatalf("a file gone within the retention must stay in the replica: %v", err)
	}
	f.store(t, "comes back")
	time.Sleep(o.Retention + 500*time.Millisecond)
	step()
	if _, err := os.Stat(filepath.Join(stored, erased)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a file gone for longer than the retention is still in the replica: %v", err)
	}
	if _, err := os.Stat(filepath.Join(stored, back)); err != nil {
		t.Fatalf("a file stored again was deleted from the replica: %v", err)
	}
	if marks, _ := filepath.Glob(filepath.Join(stored, "*.gone-*")); len(marks) != 0 {
		t.Fatalf("marks left behind: %v", marks)
	}
}

// TestSFTPChecksTheHostKey refuses a server whose key is not the one
// configured: the replica would otherwise hand the database to whoever
// answers on that address.
func TestSFTPChecksTheHostKey(t *testing.T) {
	t.Parallel()
	o := options(t, "sftp")
	_, o.HostKey = remote.SFTP(t, "chat", "s3cret") // another server's key
	f := newFolder(t)
	f.store(t, "secret file")
	rp, err := replica.Start(f.dir, dbFile, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close(context.Background())
	_, err = rp.Step(context.Background())
	if err == nil || !strings.Contains(err.Error(), "host key") {
		t.Fatalf("a server with another host key must be refused, got %v", err)
	}
}

// TestCheckpointsDuringWritesLoseNothing replicates a burst of writes long
// enough that Litestream checkpoints the log several times meanwhile (it
// alone can: it holds a read transaction open between its checkpoints),
// and restores every row.
func TestCheckpointsDuringWritesLoseNothing(t *testing.T) {
	// Not in parallel: the checkpoint length it lowers is the package's,
	// which the other tests' replicators read as they start.
	replica.SetCheckpointPages(t.Cleanup, 20)
	o := options(t, "file")
	f := newFolder(t)
	if _, err := f.db.Exec(`ALTER TABLE rows ADD COLUMN body TEXT`); err != nil {
		t.Fatal(err)
	}
	rp, step := start(t, f, o)
	step()
	waitSynced(t, rp, time.Now())
	before, err := os.Stat(filepath.Join(f.dir, dbFile))
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("x", 3000) // a page of its own for each row
	deadline := time.Now().Add(time.Second)
	n := 0
	for ; time.Now().Before(deadline) || n < 200; n++ {
		if _, err := f.db.Exec(`INSERT INTO rows (n, body) VALUES (?, ?)`, n, body); err != nil {
			t.Fatal(err)
		}
	}
	waitSynced(t, rp, time.Now())
	after, err := os.Stat(filepath.Join(f.dir, dbFile))
	if err != nil {
		t.Fatal(err)
	}
	if after.Size() <= before.Size() {
		t.Fatalf("the database file stayed at %d bytes: Litestream never checkpointed", after.Size())
	}
	dir := t.TempDir()
	none := func(context.Context, string) ([]string, error) { return nil, nil }
	if _, err := replica.Restore(context.Background(), o, dir, dbFile, time.Time{}, none); err != nil {
		t.Fatal(err)
	}
	if got := count(t, filepath.Join(dir, dbFile)); got != n {
		t.Fatalf("restored %d rows of %d", got, n)
	}
}
