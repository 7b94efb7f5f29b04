package storage

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chatsvc/chat"
)

// insertSites commits n sites, one a commit, each with a name of size bytes.
func insertSites(t *testing.T, db *DB, from, n, size int) {
	t.Helper()
	ctx := context.Background()
	for i := from; i < from+n; i++ {
		err := db.Write(ctx, func(q *Q) error {
			return q.InsertSite(ctx, &chat.Site{ID: fmt.Sprintf("site_%06d", i), Name: strings.Repeat("n", size), CreatedAt: chat.Timestamp(i)})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// The writer's own checkpoint still restarts the log: without it, the
// checkpointer alone would let the log grow with every commit (to about
// 37 MB here). While the checkpointer runs, the writer's checkpoint waits
// for a later commit, so the log may outgrow writerCheckpointPages by what
// is written meanwhile; the bound allows for a slow disk. Each commit is
// synced, so the test writes large rows (two pages each) in fewer commits.
func TestTheLogStaysShort(t *testing.T) { // not parallel: it sets writerCheckpointPages
	defer func(n int) { writerCheckpointPages = n }(writerCheckpointPages)
	writerCheckpointPages = 50
	dir := t.TempDir()
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	insertSites(t, db, 0, 2000, 6000)
	fi, err := os.Stat(filepath.Join(dir, FileName+"-wal"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 16<<20 {
		t.Fatalf("the log is %d bytes after 2,000 commits with a %d-page checkpoint length", fi.Size(), writerCheckpointPages)
	}
}

// The checkpointer copies commits into the database file itself, while the
// writer, whose checkpoint length is not reached, copies nothing.
func TestCheckpointerCopiesCommits(t *testing.T) { // not parallel: it sets the checkpoint hooks
	defer func(n int) { writerCheckpointPages = n }(writerCheckpointPages)
	writerCheckpointPages = 1 << 30
	ran := make(chan struct{}, 1)
	defer func(f func()) { afterCheckpoint = f }(afterCheckpoint)
	afterCheckpoint = func() {
		select {
		case ran <- struct{}{}:
		default: // one pending signal is enough
		}
	}
	dir := t.TempDir()
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	insertSites(t, db, 0, 2*checkpointEvery, 1500)
	// A copy of the database file without its log holds what was
	// checkpointed and nothing else; look again after each checkpoint.
	timeout := time.After(10 * time.Second)
	for {
		n, err := checkpointedSites(t, dir)
		if err == nil && n >= checkpointEvery {
			return
		}
		select {
		case <-ran:
		case <-timeout:
			t.Fatalf("the database file holds %d of %d committed sites (%v)", n, 2*checkpointEvery, err)
		}
	}
}

func checkpointedSites(t *testing.T, dir string) (int, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := sql.Open("sqlite", DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	err = c.QueryRow(`SELECT COUNT(*) FROM sites`).Scan(&n) // fails until the schema is copied
	return n, err
}
