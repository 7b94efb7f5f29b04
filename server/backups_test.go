package server

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"chatsvc/config"
	"chatsvc/storage"
)

func TestScheduledBackupsKeepTheNewest(t *testing.T) {
	ctx := context.Background()
	defaults, err := os.ReadFile("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg, err := config.Load(config.Sources{Defaults: defaults, File: filepath.Join(dir, "none.yaml"),
		Flags: map[string]string{"data_dir": dir}})
	if err == nil {
		t.Fatal("a missing config file must be an error")
	}
	cfg, err = config.Load(config.Sources{Defaults: defaults, Environ: []string{"CHATSVC_BACKUP__EVERY=1h", "CHATSVC_BACKUP__KEEP=2"},
		Flags: map[string]string{"data_dir": dir}})
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if w := scheduledBackups(&config.Config{}, "x", time.Now); len(w) != 0 {
		t.Fatal("backups must be off by default")
	}
	clock := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	step := scheduledBackups(cfg, "test", func() time.Time { return clock })[0].Step
	backups := filepath.Join(dir, "backups")
	for i, c := range []struct {
		advance time.Duration
		want    []string
	}{
		{0, []string{"chatsvc-20261001T120000Z.tar.gz"}},
		{59 * time.Minute, []string{"chatsvc-20261001T120000Z.tar.gz"}}, // not due yet
		{time.Minute, []string{"chatsvc-20261001T120000Z.tar.gz", "chatsvc-20261001T130000Z.tar.gz"}},
		{2 * time.Hour, []string{"chatsvc-20261001T130000Z.tar.gz", "chatsvc-20261001T150000Z.tar.gz"}}, // keep 2
	} {
		clock = clock.Add(c.advance)
		if _, err := step(ctx); err != nil {
			t.Fatal(err)
		}
		if got := archives(backups); !slices.Equal(got, c.want) {
			t.Fatalf("round %d: %v, want %v", i, got, c.want)
		}
	}
}
