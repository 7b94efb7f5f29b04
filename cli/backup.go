package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/backup"
	"chatsvc/config"
	"chatsvc/storage"
)

func backupCmd(g *globals) *cobra.Command {
	var out string
	var secrets bool
	cmd := &cobra.Command{
		Use:   "backup --out FILE",
		Short: "Write a consistent backup archive (.tar.gz), safe while serve runs; prints its path last",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := g.load()
			if err != nil {
				return err
			}
			path, err := writeBackup(cmd.Context(), cfg, out, secrets, g.version)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Backup written and checked:\n%s\n", path)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the archive to write (required)")
	cmd.Flags().BoolVar(&secrets, "with-secrets", false, "include passwords and API keys of the configuration")
	cmd.MarkFlagRequired("out")
	return cmd
}

func writeBackup(ctx context.Context, cfg *config.Config, out string, secrets bool, version string) (string, error) {
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

func restoreCmd(g *globals) *cobra.Command {
	var from string
	var force bool
	cmd := &cobra.Command{
		Use:   "restore --from FILE [--force]",
		Short: "Restore a backup archive into the (empty) data dir",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := g.load()
			if err != nil {
				return err
			}
			m, err := backup.Restore(cmd.Context(), from, cfg.DataDir, force)
			if err != nil {
				return err
			}
			n, err := rebuildIndex(cmd.Context(), cfg)
			if err != nil {
				return fmt.Errorf("restored, but the search index could not be rebuilt (run chatsvc reindex): %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Restored the backup of %s (chatsvc %s, schema %d) into %s and indexed %d chunks.\n"+
				"The configuration in use then is in %s, for reference.\n",
				m.CreatedAt, m.Version, m.SchemaVersion, cfg.DataDir, n, backup.RestoredConfig)
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the archive to restore (required)")
	cmd.Flags().BoolVar(&force, "force", false, "replace a data dir that is not empty")
	cmd.MarkFlagRequired("from")
	return cmd
}

// rebuildIndex builds the search index of a restored data dir.
func rebuildIndex(ctx context.Context, cfg *config.Config) (int, error) {
	db, err := storage.Open(ctx, cfg.DataDir)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	return reindex(ctx, cfg, app.New(db, app.Options{}))
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
		if _, err := writeBackup(ctx, cfg, out, false, version); err != nil {
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
