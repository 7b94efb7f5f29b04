package backup_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/backup"
	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv"
)

func create(t *testing.T, dataDir, out string) *backup.Manifest {
	t.Helper()
	m, err := backup.Create(context.Background(), backup.Options{DataDir: dataDir, Out: out, Version: "test",
		Config: []byte("addr: \":8080\"\n"), Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBackupWhileWritingThenRestore(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	db, err := storage.Open(ctx, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(db, app.Options{})
	if _, err := svc.CreateMember(ctx, "ops@example.com", "Ops", "a long passphrase"); err != nil {
		t.Fatal(err)
	}
	session, err := svc.SignIn(ctx, "ops@example.com", "a long passphrase")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dataDir, "files", "ab"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "files", "ab", "cdef"), []byte("attachment bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A download in progress is not a stored file: it is left out.
	if err := os.MkdirAll(filepath.Join(dataDir, "files", "tmp"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "files", "tmp", "upload-1"), []byte("half a fi"), 0o600); err != nil {
		t.Fatal(err)
	}

	// 8 writers create tickets until told to stop; every acknowledged id is kept.
	var mu sync.Mutex
	var acked []string
	going := make(chan struct{}) // closed at the 50th acknowledged write
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				tk, err := svc.CreateTicket(ctx, chat.Test, app.TicketCreate{Subject: app.Value("Backup me"),
					Contact: app.Value(app.ContactRef{Email: app.Value("ada@example.com")})})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if acked = append(acked, tk.ID); len(acked) == 50 {
					close(going)
				}
				mu.Unlock()
			}
		}()
	}
	testenv.Until(t, going, "50 writes acknowledged", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(acked) >= 50
	})
	mu.Lock()
	before := append([]string(nil), acked...)
	mu.Unlock()
	archive := filepath.Join(t.TempDir(), "b.tar.gz")
	m := create(t, dataDir, archive)
	stop.Store(true)
	wg.Wait()
	db.Close()

	if m.SchemaVersion != storage.SchemaVersion() || m.Counts["tickets"] < int64(len(before)) || m.Checksums["files/ab/cdef"] == "" ||
		m.Checksums["files/tmp/upload-1"] != "" {
		t.Fatalf("manifest: %+v (had %d tickets before)", m, len(before))
	}
	restored := filepath.Join(t.TempDir(), "restored")
	if _, err := backup.Restore(ctx, archive, restored, false); err != nil {
		t.Fatal(err)
	}
	rdb, err := storage.Open(ctx, restored)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	for _, id := range before {
		if _, err := rdb.Read().Ticket(ctx, chat.Test, id); err != nil {
			t.Fatalf("ticket %s, acknowledged before the backup, is missing: %v", id, err)
		}
	}
	got, err := os.ReadFile(filepath.Join(restored, "files", "ab", "cdef"))
	if err != nil || string(got) != "attachment bytes" {
		t.Fatalf("stored file: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(restored, backup.RestoredConfig)); err != nil {
		t.Fatalf("configuration in use not restored: %v", err)
	}
	// A restore signs everyone out: it must not revive a session signed out since.
	if _, err := app.New(rdb, app.Options{}).DashboardSessionOf(ctx, session.Token); err == nil {
		t.Fatal("a dashboard session came back with the restore")
	}
}

func TestRestoreRefusesDamageAndNonEmptyDirs(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	db, err := storage.Open(ctx, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.New(db, app.Options{}).CreateSite(ctx, "Site", ""); err != nil {
		t.Fatal(err)
	}
	db.Close()
	archive := filepath.Join(t.TempDir(), "b.tar.gz")
	create(t, dataDir, archive)
	good, _ := os.ReadFile(archive)

	damaged := filepath.Join(t.TempDir(), "damaged.tar.gz")
	bad := append([]byte(nil), good...)
	bad[len(bad)/2] ^= 0xff
	os.WriteFile(damaged, bad, 0o600)
	truncated := filepath.Join(t.TempDir(), "truncated.tar.gz")
	os.WriteFile(truncated, good[:len(good)/2], 0o600)
	notGzip := filepath.Join(t.TempDir(), "plain.txt")
	os.WriteFile(notGzip, []byte("hello"), 0o600)
	for _, f := range []string{damaged, truncated, notGzip, filepath.Join(t.TempDir(), "missing.tar.gz")} {
		target := filepath.Join(t.TempDir(), "target")
		_, err := backup.Restore(ctx, f, target, false)
		if err == nil || !strings.Contains(err.Error(), "not a valid backup") {
			t.Errorf("%s: %v, want a clear refusal", filepath.Base(f), err)
		}
		if _, statErr := os.Stat(target); !os.IsNotExist(statErr) {
			t.Errorf("%s: a refused restore left %s behind", filepath.Base(f), target)
		}
	}

	// A data dir with data is refused without --force, replaced with it.
	occupied := t.TempDir()
	os.WriteFile(filepath.Join(occupied, "keep.txt"), []byte("x"), 0o600)
	if _, err := backup.Restore(ctx, archive, occupied, false); !errors.Is(err, backup.ErrNotEmpty) {
		t.Fatalf("non-empty dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(occupied, "keep.txt")); err != nil {
		t.Fatal("the refused restore touched the data dir")
	}
	if _, err := backup.Restore(ctx, archive, occupied, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(occupied, "keep.txt")); !os.IsNotExist(err) {
		t.Fatal("--force kept the old content")
	}
	matches, _ := filepath.Glob(occupied + ".old-*")
	if len(matches) != 0 {
		t.Fatalf("the old data dir was not removed after success: %v", matches)
	}
}

func TestRestoreRefusesANewerSchema(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	db, err := storage.Open(ctx, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite", storage.DSN(filepath.Join(dataDir, storage.FileName)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`INSERT INTO schema_migrations (version) VALUES (9999)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	archive := filepath.Join(t.TempDir(), "b.tar.gz")
	create(t, dataDir, archive)
	_, err = backup.Restore(ctx, archive, filepath.Join(t.TempDir(), "t"), false)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("newer schema: %v", err)
	}
}
