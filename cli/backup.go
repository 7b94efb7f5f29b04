package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/backup"
	"chatsvc/config"
	"chatsvc/replica"
	"chatsvc/server"
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
			path, err := server.Backup(cmd.Context(), cfg, out, secrets, g.version)
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

func restoreCmd(g *globals) *cobra.Command {
	var from, at string
	var fromReplica, force bool
	cmd := &cobra.Command{
		Use:   "restore (--from FILE | --from-replica [--at TIME]) [--force]",
		Short: "Restore a backup archive or the configured replica into the (empty) data dir",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (from == "") == !fromReplica {
				return errors.New("restore needs --from FILE or --from-replica")
			}
			if at != "" && !fromReplica {
				return errors.New("--at goes with --from-replica")
			}
			cfg, err := g.load()
			if err != nil {
				return err
			}
			if fromReplica {
				return restoreReplica(cmd, cfg, at, force)
			}
			m, err := backup.Restore(cmd.Context(), from, cfg.DataDir, force)
			if err := inUse(err, cfg); err != nil {
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
	cmd.Flags().StringVar(&from, "from", "", "the archive to restore")
	cmd.Flags().BoolVar(&fromReplica, "from-replica", false, "restore from the replica of the configuration (replica.url)")
	cmd.Flags().StringVar(&at, "at", "", "with --from-replica: the state at this time (RFC 3339, such as 2026-03-01T09:30:00Z) instead of the newest")
	cmd.Flags().BoolVar(&force, "force", false, "replace a data dir that is not empty")
	return cmd
}

// inUse words the refusal to restore into a data dir a server holds.
func inUse(err error, cfg *config.Config) error {
	if errors.Is(err, storage.ErrDataDirInUse) {
		return fmt.Errorf("%w (%s): stop chatsvc serve before restoring; nothing was changed", err, cfg.DataDir)
	}
	return err
}

// restoreReplica restores the configured replica as of at ("" is the
// newest state) and prints what it brought back, the time last.
func restoreReplica(cmd *cobra.Command, cfg *config.Config, at string, force bool) error {
	var t time.Time
	if at != "" {
		var err error
		if t, err = time.Parse(time.RFC3339, at); err != nil {
			return fmt.Errorf("--at %q: a time such as 2026-03-01T09:30:00Z or 2026-03-01T10:30:00+01:00", at)
		}
	}
	res, err := server.RestoreFromReplica(cmd.Context(), cfg, t, force)
	if err := inUse(err, cfg); err != nil {
		return err
	}
	n, err := rebuildIndex(cmd.Context(), cfg)
	if err != nil {
		return fmt.Errorf("restored, but the search index could not be rebuilt (run chatsvc reindex): %w", err)
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "Restored the database and %d stored files from %s into %s and indexed %d chunks.\n",
		res.Files, replica.Redacted(cfg.Replica.URL), cfg.DataDir, n)
	if len(res.Missing) > 0 {
		fmt.Fprintf(out, "%d files the database names are not in the replica (their downloads will fail): %s\n",
			len(res.Missing), strings.Join(res.Missing, ", "))
	}
	fmt.Fprintf(out, "Restored as of %s\n", res.AsOf.UTC().Format(time.RFC3339))
	return nil
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
