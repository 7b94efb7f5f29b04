package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/backup"
	"chatsvc/config"
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
			if errors.Is(err, storage.ErrDataDirInUse) {
				return fmt.Errorf("%w (%s): stop chatsvc serve before restoring; nothing was changed", err, cfg.DataDir)
			} else if err != nil {
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
