package cli

import (
	"os"
	"os/signal"
	"strings"
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
			srv, err := server.New(ctx, cfg, server.Options{Out: cmd.OutOrStdout(), Version: g.version, Command: g.command()})
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

// command is how the operator runs this command line against the same
// configuration and data: "go run ." when started that way, else the
// program as invoked, with the --config and --data given.
func (g *globals) command() string {
	cmd := os.Args[0]
	if strings.Contains(cmd, "go-build") { // a binary go run built in a temporary folder
		cmd = "go run ."
	}
	for _, f := range []struct{ flag, v string }{{"--config", g.configFile}, {"--data", g.dataDir}} {
		if f.v != "" {
			cmd += " " + f.flag + " " + shellQuote(f.v)
		}
	}
	return cmd
}

// shellQuote quotes v for a POSIX shell when it needs it.
func shellQuote(v string) string {
	if v != "" && strings.IndexFunc(v, func(r rune) bool {
		return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=", r)
	}) < 0 {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}
