package cli

import (
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"chatsvc/server"
)

func serveCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT]",
		Short: "Run the service: the REST API, the widget and the workers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			cfg, err := g.load()
			if err != nil {
				return err
			}
			srv, err := server.New(ctx, cfg, server.Options{Out: cmd.OutOrStdout(), Version: g.version})
			if err != nil {
				return err
			}
			defer srv.Close()
			return srv.Run(ctx)
		},
	}
	cmd.Flags().StringVar(&g.addr, "addr", "", "listen address (overrides addr)")
	return cmd
}
