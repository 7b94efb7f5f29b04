package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/web"
)

func serveCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT]",
		Short: "Run the service: the REST API, the widget and the workers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			cfg, svc, closeDB, err := g.open(ctx)
			if err != nil {
				return err
			}
			defer closeDB()
			return Serve(ctx, cfg, svc, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&g.addr, "addr", "", "listen address (overrides addr)")
	return cmd
}

// Serve runs the HTTP server until ctx ends, then shuts down gracefully.
// On an empty installation it first creates and prints a default site and
// test key.
func Serve(ctx context.Context, cfg *config.Config, svc *app.Service, out io.Writer) error {
	site, secret, err := svc.Bootstrap(ctx)
	if err != nil {
		return fmt.Errorf("first start: %w", err)
	}
	if site != nil {
		fmt.Fprintf(out, "First start: created a default site and a test-mode API key.\n"+
			"  site:     %s\n  test key: %s   (shown only this once: keep it)\n  API:      %s/v1\n"+
			"  demo:     %s/demo?site=%s   (the widget, in test mode)\n",
			site.ID, secret, cfg.PublicURL, cfg.PublicURL, site.ID)
	}
	svc.UseAssistant(newAssistant(cfg, noIndex{}))
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	srv := web.NewServer(cfg.Addr, web.Handler(svc))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	workCtx, stopWorkers := context.WithCancel(context.Background())
	var workers sync.WaitGroup
	for _, w := range backgroundWorkers(cfg, svc) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			w.Run(workCtx)
		}()
	}
	defer func() {
		stopWorkers()
		workers.Wait()
	}()
	slog.Info("chatsvc listening", "addr", ln.Addr().String(), "public_url", cfg.PublicURL, "data_dir", cfg.DataDir)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// backgroundWorkers lists the workers serve runs beside the HTTP server.
func backgroundWorkers(cfg *config.Config, svc *app.Service) []app.Worker {
	return []app.Worker{svc.AssistantWorker()}
}
