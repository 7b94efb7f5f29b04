package server

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"chatsvc/app"
	"chatsvc/backup"
	"chatsvc/config"
)

// Backup writes a checked backup archive of cfg's data dir to out and
// returns its absolute path; secrets puts the configuration's secrets in it.
func Backup(ctx context.Context, cfg *config.Config, out string, secrets bool, version string) (string, error) {
	conf, err := cfg.YAML(secrets)
	if err != nil {
		return "", err
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return "", err
	}
	_, err = backup.Create(ctx, backup.Options{DataDir: cfg.DataDir, Out: out, Version: version, Config: conf,
		ConfigSecrets: secrets, Now: time.Now()})
	return out, err
}

// scheduledBackups makes an archive in data_dir/backups every backup.every
// and keeps the newest backup.keep. The newest archive's name carries its
// time, so a restart neither skips nor repeats a backup.
func scheduledBackups(cfg *config.Config, version string, now func() time.Time) []app.Worker {
	if cfg.Backup.Every <= 0 {
		return nil
	}
	dir := filepath.Join(cfg.DataDir, "backups")
	return []app.Worker{{Name: "scheduled-backup", Every: time.Minute, Step: func(ctx context.Context) (bool, error) {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return false, err
		}
		t := now().UTC()
		if names := archives(dir); len(names) > 0 {
			last, err := time.Parse(archiveLayout, names[len(names)-1])
			if err == nil && t.Sub(last) < cfg.Backup.Every {
				return false, nil
			}
		}
		out := filepath.Join(dir, t.Format(archiveLayout))
		if _, err := Backup(ctx, cfg, out, false, version); err != nil {
			return false, err
		}
		slog.Info("scheduled backup written", "file", out)
		names := archives(dir)
		for _, old := range names[:max(0, len(names)-cfg.Backup.Keep)] {
			os.Remove(filepath.Join(dir, old))
		}
		return false, nil
	}}}
}

// archiveLayout names scheduled backups; names sort by time.
const archiveLayout = "chatsvc-20060102T150405Z.tar.gz"

// archives lists the scheduled backups in dir, oldest first.
func archives(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "chatsvc-") && strings.HasSuffix(e.Name(), ".tar.gz") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}
