package replica

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/benbjohnson/litestream"
	lsfile "github.com/benbjohnson/litestream/file"
)

// Replicator streams one data folder to its replica store while serve runs.
// Litestream works beside the server's own connections: it reads the
// write-ahead log on its own connection and uploads from its own
// goroutines, so a slow or unreachable store delays the replica, never a
// write.
type Replicator struct {
	o        Options
	filesDir string
	store    *litestream.Store
	db       *litestream.DB
	started  time.Time

	mu        sync.Mutex
	opened    bool
	openErr   error
	copied    map[string]bool // files known to be in the store; nil until listed
	blobs     blobs
	filesErr  error
	filesSync time.Time // the last pass that left no file behind
	alerted   bool      // the replica's lag passed AlertAfter and was logged

	// OnBehind, when set, is called once each time the replica falls more
	// than AlertAfter behind (serve e-mails the owner).
	OnBehind func(Status)
}

// AlertAfter is how far behind the replica may fall before its lag is
// logged as an error, once until it catches up again.
const AlertAfter = 10 * time.Minute

// Status is how far the replica is behind.
type Status struct {
	// LastSync is when the replica last took every write Litestream had
	// read from the log; zero before the first.
	LastSync time.Time
	// Lag is how old the newest write the replica lacks may be: zero when
	// it holds them all, else the time since LastSync.
	Lag time.Duration
	// Files is when the last pass over the stored files copied them all.
	Files time.Time
	// Err is the latest failure, "" when the last attempt succeeded.
	Err string
}

// compactionLevels are Litestream's defaults: each level merges the one
// below it at its interval, so a restore reads few files.
var compactionLevels = litestream.CompactionLevels{
	{Level: 0},
	{Level: 1, Interval: 30 * time.Second},
	{Level: 2, Interval: 5 * time.Minute},
	{Level: 3, Interval: time.Hour},
}

// checkpointPages is the length of the write-ahead log, in pages, at which
// Litestream checkpoints it (its default is 1,000, about 4 MB). While it
// replicates, Litestream holds a read transaction open between its own
// checkpoints, so the server's checkpointer can copy nothing and every
// page is copied into the database file by Litestream, under SQLite's write
// lock, which each write waits for; each checkpoint also reads the log two
// or three more times into files of its own and ends with two fsyncs and a
// commit. Under a burst of writes the log passed 1,000 pages at every read
// (a ticket create puts nine pages in it), so every read, twice a second,
// tried a checkpoint: 10 to 18 of them, and 55 to 83 files, for 8,000
// ticket creates. At 16,000 pages (64 MB) there were 3 or 4, and 29 to 47
// files. It stays under the writer's own checkpoint length (32,000 pages,
// storage's writerCheckpointPages), which the writer would otherwise reach
// and then try, in vain while Litestream reads, after every commit.
var checkpointPages = 16000 // tests lower it

// Start replicates the database of dataDir (which serve has opened, in WAL
// mode) to o.URL. A store it cannot reach yet is retried in the background;
// only a malformed configuration is an error.
func Start(dataDir, dbFile string, o Options) (*Replicator, error) {
	client, err := dbClient(o)
	if err != nil {
		return nil, err
	}
	// The log is read every half interval and what was read is uploaded
	// within a quarter: a write waits up to three quarters of the interval,
	// which leaves the rest for the work itself on a busy machine. Reading
	// the log less often would cost less CPU (a page written many times
	// goes out once per read), reading it more often costs more: reading
	// every quarter, replication added about 390 µs of CPU to a ticket
	// create; every half, 150 to 220 µs.
	// Litestream's checkpoints need SQLite's write lock, which the server's
	// writer hardly ever lets go of during a burst of writes, and reading
	// the log waits while one tries: waiting a second for the lock (its
	// default) held every write of a two-second burst out of the replica.
	// After 100 ms it skips the checkpoint and reads the log on; the log
	// is checkpointed in the next pause.
	if strings.HasPrefix(o.URL, "sftp:") && o.HostKey == "" {
		slog.Warn("replica.host_key is empty: the SFTP server's identity is not checked", "replica", Redacted(o.URL))
	}
	db := litestream.NewDB(filepath.Join(dataDir, dbFile))
	db.MonitorInterval = o.SyncInterval / 2
	db.BusyTimeout = 100 * time.Millisecond
	db.MinCheckpointPageN = checkpointPages
	r := litestream.NewReplicaWithClient(db, wholeWrites{client})
	r.SyncInterval = o.SyncInterval / 4
	db.Replica = r
	if c, ok := client.(*lsfile.ReplicaClient); ok {
		c.Replica = r // keeps the data folder's owner and mode on the copies
	}
	store := litestream.NewStore([]*litestream.DB{db}, compactionLevels)
	store.SnapshotInterval = min(24*time.Hour, o.Retention)
	store.SnapshotRetention = o.Retention
	store.ShutdownSyncTimeout = 10 * time.Second
	db.ShutdownSyncTimeout = store.ShutdownSyncTimeout
	return &Replicator{o: o, filesDir: filepath.Join(dataDir, "files"), store: store, db: db, started: time.Now()}, nil
}

// Open connects to the store and starts streaming; the files worker calls
// it until it succeeds, so serve starts while the store is out of reach.
func (rp *Replicator) open(ctx context.Context) error {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.opened {
		return nil
	}
	if rp.openErr = rp.store.Open(ctx); rp.openErr != nil {
		return fmt.Errorf("replica %s: %w", rp.o.URL, rp.openErr)
	}
	rp.opened = true
	slog.Info("replicating the database and stored files", "replica", Redacted(rp.o.URL), "sync_interval", rp.o.SyncInterval)
	return nil
}

// Close ships what is left, waiting up to 10 seconds for the store, and
// stops. Call it after the server's own connections are closed.
func (rp *Replicator) Close(ctx context.Context) error {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if !rp.opened {
		return nil
	}
	rp.opened = false
	return rp.store.Close(ctx)
}

// Status reports how far the replica is behind.
func (rp *Replicator) Status() Status {
	rp.mu.Lock()
	opened, openErr, filesErr, files := rp.opened, rp.openErr, rp.filesErr, rp.filesSync
	rp.mu.Unlock()
	st := Status{Files: files}
	if !opened {
		st.Lag = time.Since(rp.started)
		if openErr != nil {
			st.Err = openErr.Error()
		}
		return st
	}
	st.LastSync = rp.db.LastSuccessfulSyncAt()
	local, err := rp.db.Pos()
	if err != nil {
		st.Err = err.Error()
	}
	if local.TXID > rp.db.Replica.Pos().TXID {
		since := st.LastSync
		if since.IsZero() {
			since = rp.started
		}
		st.Lag = time.Since(since)
	}
	if filesErr != nil {
		st.Err = filesErr.Error()
	}
	return st
}

// Step opens the replica when it is not yet, then copies every stored file
// the store lacks; it is the replica worker's round.
func (rp *Replicator) Step(ctx context.Context) (bool, error) {
	if err := rp.open(ctx); err != nil {
		return false, err
	}
	err := rp.copyFiles(ctx)
	rp.mu.Lock()
	rp.filesErr = err
	if err == nil {
		rp.filesSync = time.Now()
	}
	rp.mu.Unlock()
	rp.alertWhenBehind(rp.Status())
	return false, err
}

// alertWhenBehind logs an error once the replica is more than AlertAfter
// behind, and again only after it has caught up in between.
func (rp *Replicator) alertWhenBehind(st Status) {
	switch {
	case st.Lag > AlertAfter && !rp.alerted:
		rp.alerted = true
		slog.Error("the replica has been failing: writes since then are on this machine only",
			"replica", Redacted(rp.o.URL), "lag", st.Lag.Round(time.Second), "last_sync", st.LastSync, "err", st.Err)
		if rp.OnBehind != nil {
			rp.OnBehind(st)
		}
	case st.Lag == 0 && rp.alerted:
		rp.alerted = false
		slog.Info("the replica has caught up", "replica", Redacted(rp.o.URL))
	}
}

// copyFiles uploads the stored files the store does not hold, each once:
// the store is listed at the first pass, then what was uploaded is
// remembered. A file's name is its SHA-256, so one uploaded never changes.
// Then it lets go of the files this folder no longer holds (expireFiles).
func (rp *Replicator) copyFiles(ctx context.Context) error {
	if rp.copied == nil {
		b, err := fileBlobs(ctx, rp.o)
		if err != nil {
			return err
		}
		names, err := b.List(ctx)
		if err != nil {
			return fmt.Errorf("list the replica's files: %w", err)
		}
		rp.blobs, rp.copied = b, names
	}
	local := map[string]bool{}
	err := filepath.WalkDir(rp.filesDir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil || ctx.Err() != nil {
			return errors.Join(err, ctx.Err())
		}
		if d.IsDir() {
			if d.Name() == "tmp" {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !isHash(name) {
			return nil
		}
		local[name] = true
		if rp.copied[name] {
			return nil
		}
		if err := rp.upload(ctx, p, name); err != nil {
			return fmt.Errorf("copy file %s to the replica: %w", name, err)
		}
		rp.copied[name] = true
		return nil
	})
	if err != nil {
		return err
	}
	return rp.expireFiles(ctx, local, time.Now())
}

// goneMark is the suffix of the empty object that records, in the store
// itself, when this folder stopped holding a file: "<hash>.gone-<unix>".
const goneMark = ".gone-"

// expireFiles removes from the store the files this folder has not held
// for longer than the retention: a file erased here stays in the store as
// long as a restore can go back to a time that had it (as the database's
// erased rows stay in its older snapshots), and no longer. When the folder
// first lacks a file, a mark with the time is stored beside it, so a
// restart or another machine keeps counting from then; a file that comes
// back (the same content stored again) loses its mark.
func (rp *Replicator) expireFiles(ctx context.Context, local map[string]bool, now time.Time) error {
	marked := map[string]bool{}
	for name := range rp.copied {
		h, unix, ok := strings.Cut(name, goneMark)
		if !ok {
			continue
		}
		marked[h] = true
		since, err := strconv.ParseInt(unix, 10, 64)
		switch {
		case local[h] || err != nil:
			err = rp.forget(ctx, name)
		case now.Sub(time.Unix(since, 0)) > rp.o.Retention:
			if err = rp.forget(ctx, h); err == nil {
				err = rp.forget(ctx, name)
			}
		}
		if err != nil {
			return fmt.Errorf("expire file %s in the replica: %w", h, err)
		}
	}
	for name := range rp.copied {
		if !isHash(name) || local[name] || marked[name] {
			continue
		}
		mark := name + goneMark + strconv.FormatInt(now.Unix(), 10)
		if err := rp.blobs.Put(ctx, mark, strings.NewReader(""), 0); err != nil {
			return fmt.Errorf("mark file %s gone in the replica: %w", name, err)
		}
		rp.copied[mark] = true
	}
	return nil
}

// forget deletes name from the store and from what it is known to hold.
func (rp *Replicator) forget(ctx context.Context, name string) error {
	if err := rp.blobs.Delete(ctx, name); err != nil {
		return err
	}
	delete(rp.copied, name)
	return nil
}

func (rp *Replicator) upload(ctx context.Context, p, name string) error {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // erased meanwhile
	} else if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return rp.blobs.Put(ctx, name, f, fi.Size())
}

// isHash tells whether name is a stored file's name: a SHA-256 in hex.
func isHash(name string) bool {
	_, err := hex.DecodeString(name)
	return err == nil && len(name) == sha256.Size*2
}
