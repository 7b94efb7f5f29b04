package replica

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/benbjohnson/litestream"

	"chatsvc/backup"
)

// ErrEmpty is returned by Restore when the store holds no database (yet),
// or none as old as the time asked for.
var ErrEmpty = errors.New("the replica holds no database")

// Restored says what Restore brought back.
type Restored struct {
	AsOf    time.Time // the time of the newest transaction restored
	Files   int       // stored files restored
	Missing []string  // files the database names that the store lacks
}

// Restore writes into dir, which must not hold a database, the replica's
// database as it was at at (the newest state when at is zero) as dbFile,
// then the stored files that database refers to, which hashes lists once
// the database is there.
func Restore(ctx context.Context, o Options, dir, dbFile string, at time.Time,
	hashes func(ctx context.Context, dbPath string) ([]string, error)) (*Restored, error) {
	client, err := dbClient(o)
	if err != nil {
		return nil, err
	}
	if err := client.Init(ctx); err != nil {
		return nil, fmt.Errorf("replica %s: %w", Redacted(o.URL), err)
	}
	plan, err := litestream.CalcRestorePlan(ctx, client, 0, at, slog.Default())
	if errors.Is(err, litestream.ErrTxNotAvailable) || errors.Is(err, litestream.ErrNoSnapshots) || err == nil && len(plan) == 0 {
		if at.IsZero() {
			return nil, fmt.Errorf("%w: %s", ErrEmpty, Redacted(o.URL))
		}
		return nil, fmt.Errorf("%w as of %s: %s", ErrEmpty, at.UTC().Format(time.RFC3339), Redacted(o.URL))
	} else if err != nil {
		return nil, fmt.Errorf("replica %s: %w", Redacted(o.URL), err)
	}
	res := &Restored{}
	for _, info := range plan {
		if info.CreatedAt.After(res.AsOf) {
			res.AsOf = info.CreatedAt
		}
	}
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = filepath.Join(dir, dbFile)
	opt.Timestamp = at
	if err := litestream.NewReplicaWithClient(nil, client).Restore(ctx, opt); err != nil {
		return nil, fmt.Errorf("restore the database from %s: %w", Redacted(o.URL), err)
	}
	names, err := hashes(ctx, opt.OutputPath)
	if err != nil {
		return nil, fmt.Errorf("the restored database's files: %w", err)
	}
	if len(names) == 0 {
		return res, nil
	}
	b, err := fileBlobs(ctx, o)
	if err != nil {
		return nil, err
	}
	stored, err := b.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the replica's files: %w", err)
	}
	for _, name := range names {
		if !isHash(name) || !stored[name] {
			res.Missing = append(res.Missing, name)
			continue
		}
		if err := fetch(ctx, b, name, filepath.Join(dir, "files", name[:2], name)); err != nil {
			return nil, fmt.Errorf("restore file %s: %w", name, err)
		}
		res.Files++
	}
	return res, nil
}

// fetch copies files/name from the store to dest, checking its hash.
func fetch(ctx context.Context, b blobs, name, dest string) error {
	r, err := b.Open(ctx, name)
	if err != nil {
		return err
	}
	defer r.Close()
	return backup.WriteChecked(r, dest, name)
}

// Holds tells whether the store holds a database to restore.
func Holds(ctx context.Context, o Options) (bool, error) {
	client, err := dbClient(o)
	if err != nil {
		return false, err
	}
	if err := client.Init(ctx); err != nil {
		return false, fmt.Errorf("replica %s: %w", Redacted(o.URL), err)
	}
	plan, err := litestream.CalcRestorePlan(ctx, client, 0, time.Time{}, slog.Default())
	if errors.Is(err, litestream.ErrTxNotAvailable) || errors.Is(err, litestream.ErrNoSnapshots) {
		return false, nil
	}
	return len(plan) > 0, err
}
