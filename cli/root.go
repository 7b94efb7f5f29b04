// Package cli is chatsvc's command line: serve, and the provisioning
// commands that scripts run (their result is printed alone on the last line).
package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/server"
	"chatsvc/storage"
	"chatsvc/web"
)

// Execute runs the command line and returns the process exit code. serve
// runs until ctx ends or the process receives SIGINT or SIGTERM.
func Execute(ctx context.Context, defaults []byte, version string, args []string, stdout, stderr io.Writer) int {
	root := newRoot(defaults, version)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "chatsvc:", err)
		return 1
	}
	return 0
}

// globals are the flags every command takes.
type globals struct {
	defaults   []byte
	version    string
	configFile string
	dataDir    string
	addr       string
}

func newRoot(defaults []byte, version string) *cobra.Command {
	g := &globals{defaults: defaults, version: version}
	root := &cobra.Command{
		Use:           "chatsvc",
		Short:         "Self-hosted customer chat: widget, assistant, hand-off, tickets",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&g.configFile, "config", "", "config file (default ./config.yaml when present)")
	root.PersistentFlags().StringVar(&g.dataDir, "data", "", "data dir (overrides data_dir)")
	root.AddCommand(serveCmd(g), keysCmd(g), sitesCmd(g), membersCmd(g), backupCmd(g), restoreCmd(g), reindexCmd(g), evalCmd(g), &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run:   func(cmd *cobra.Command, _ []string) { fmt.Fprintln(cmd.OutOrStdout(), version) },
	})
	return root
}

// load reads the configuration with the flags given to this command.
func (g *globals) load() (*config.Config, error) {
	flags := map[string]string{}
	if g.dataDir != "" {
		flags["data_dir"] = g.dataDir
	}
	if g.addr != "" {
		flags["addr"] = g.addr
	}
	cfg, err := config.Load(config.Sources{Defaults: g.defaults, File: g.configFile, Environ: os.Environ(), Flags: flags})
	if err != nil {
		return nil, err
	}
	setupLogging(cfg)
	for _, msg := range cfg.Ignored {
		slog.Warn(msg)
	}
	return cfg, nil
}

// open loads the configuration and opens the database and the service.
func (g *globals) open(ctx context.Context) (*config.Config, *app.Service, func(), error) {
	cfg, err := g.load()
	if err != nil {
		return nil, nil, nil, err
	}
	db, err := storage.Open(ctx, cfg.DataDir)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open database: %w", err)
	}
	return cfg, server.NewService(db, cfg, nil), func() { db.Close() }, nil
}

func setupLogging(cfg *config.Config) {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if cfg.Log.Format == "json" {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	slog.SetDefault(slog.New(web.LogHandler(h)))
}

// withService runs fn with an open service, for the provisioning commands.
func (g *globals) withService(fn func(ctx context.Context, svc *app.Service, out io.Writer) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		ctx := cmd.Context()
		_, svc, closeDB, err := g.open(ctx)
		if err != nil {
			return err
		}
		defer closeDB()
		return fn(ctx, svc, cmd.OutOrStdout())
	}
}
