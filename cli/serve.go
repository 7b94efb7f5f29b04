package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"chatsvc/backup"
	"chatsvc/config"
	"chatsvc/replica"
	"chatsvc/server"
)

func serveCmd(g *globals) *cobra.Command {
	var restoreIfEmpty bool
	var cpuProfile string
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
			if cpuProfile != "" {
				stopProfile, err := profileCPU(cpuProfile)
				if err != nil {
					return err
				}
				defer stopProfile()
			}
			if restoreIfEmpty {
				if err := restoreOnStart(ctx, cfg, cmd.OutOrStdout()); err != nil {
					return err
				}
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
	cmd.Flags().BoolVar(&restoreIfEmpty, "restore-if-empty", false, "when the data dir is empty, restore the replica (replica.url) first")
	// The benchmark harness profiles a server under load with it; it is no
	// part of the documented command line.
	cmd.Flags().StringVar(&cpuProfile, "cpu-profile", "", "write a CPU profile of the whole run to this file")
	cmd.Flags().MarkHidden("cpu-profile")
	return cmd
}

// profileCPU starts Go's CPU profiler, writing to path; the function it
// returns stops it and closes the file.
func profileCPU(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// restoreOnStart restores the replica into an empty data dir, so that a
// new machine pointed at the replica comes back by itself. A replica with
// no database yet is a first start.
func restoreOnStart(ctx context.Context, cfg *config.Config, out io.Writer) error {
	if !cfg.Replica.Enabled() {
		return errors.New("--restore-if-empty needs replica.url in the configuration")
	}
	if !backup.IsEmpty(cfg.DataDir) {
		return nil
	}
	res, err := server.RestoreFromReplica(ctx, cfg, time.Time{}, false)
	switch {
	case errors.Is(err, replica.ErrEmpty):
		slog.Info("the replica holds no database yet: starting with an empty data dir", "replica", replica.Redacted(cfg.Replica.URL))
		return nil
	case errors.Is(err, backup.ErrNotEmpty):
		return nil // something else filled it meanwhile: serve it as it is
	case err != nil:
		return fmt.Errorf("restore from the replica: %w", inUse(err, cfg))
	}
	fmt.Fprintf(out, "Restored the database and %d stored files from %s, as of %s.\n",
		res.Files, replica.Redacted(cfg.Replica.URL), res.AsOf.UTC().Format(time.RFC3339))
	return nil
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
