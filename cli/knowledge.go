package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/knowledge"
)

func reindexCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "reindex",
		Short: "Rebuild the search index from the database (stop serve first)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg, svc, closeDB, err := g.open(ctx)
			if err != nil {
				return err
			}
			defer closeDB()
			n, err := reindex(ctx, cfg, svc)
			if err != nil {
				return err
			}
			plural := "s"
			if n == 1 {
				plural = ""
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Indexed %d chunk%s.\n", n, plural)
			return nil
		},
	}
}

// reindex rebuilds the search index from the chunks stored in the database.
func reindex(ctx context.Context, cfg *config.Config, svc *app.Service) (int, error) {
	n, err := knowledge.Rebuild(cfg.DataDir, func(add func(knowledge.Chunk) error) error {
		return svc.KnowledgeChunks(ctx, add)
	})
	if errors.Is(err, knowledge.ErrInUse) {
		return 0, fmt.Errorf("%w: stop chatsvc serve before reindexing", err)
	}
	return n, err
}
