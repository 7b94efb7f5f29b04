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
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/mailer"
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
			return Serve(ctx, cfg, svc, cmd.OutOrStdout(), g.version)
		},
	}
	cmd.Flags().StringVar(&g.addr, "addr", "", "listen address (overrides addr)")
	return cmd
}

// Serve runs the HTTP server until ctx ends, then shuts down gracefully.
// On an empty installation it first creates and prints a default site and
// test key.
func Serve(ctx context.Context, cfg *config.Config, svc *app.Service, out io.Writer, version string) error {
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
	idx, err := openKnowledge(ctx, cfg, svc)
	if err != nil {
		return err
	}
	defer idx.Close() // deferred first, so it runs after the workers have stopped
	svc.UseAssistant(newAssistant(cfg, idx))
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	workCtx, stopWorkers := context.WithCancel(context.Background())
	var workers sync.WaitGroup
	var running atomic.Int32
	list := append(backgroundWorkers(cfg, svc), scheduledBackups(cfg, version, time.Now)...)
	for _, w := range list {
		workers.Add(1)
		running.Add(1)
		go func() {
			defer workers.Done()
			defer running.Add(-1)
			w.Run(workCtx)
		}()
	}
	ready := func(context.Context) error {
		if n := int(running.Load()); n < len(list) {
			return fmt.Errorf("%d of %d background workers are running", n, len(list))
		}
		return nil
	}
	srv := web.NewServer(cfg.Addr, web.HandlerWith(svc, web.Options{
		APIPerSecond: cfg.RateLimit.APIPerSecond, APIBurst: cfg.RateLimit.APIBurst,
		WidgetPerSecond: cfg.RateLimit.WidgetPerSecond, WidgetBurst: cfg.RateLimit.WidgetBurst,
		MetricsToken: cfg.Metrics.Token, Ready: ready, PublicURL: cfg.PublicURL}))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
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
	return append([]app.Worker{
		{Name: "idempotency-prune", Every: time.Hour, Step: func(ctx context.Context) (bool, error) {
			_, err := svc.PruneIdempotencyKeys(ctx)
			return false, err
		}},
		{Name: "dashboard-sessions-prune", Every: time.Hour, Step: func(ctx context.Context) (bool, error) {
			if _, err := svc.PruneDashboardSessions(ctx); err != nil {
				return false, err
			}
			_, err := svc.PruneSignInFailures(ctx)
			return false, err
		}},
		svc.RetentionWorker(app.Retention{ClosedConversations: cfg.Retention.ClosedConversations,
			Visitors: cfg.Retention.Visitors}),
		mailer.New(mailer.FromConfig(cfg), svc).Worker(),
		svc.AssistantWorker(),
	}, append(svc.KnowledgeWorkers(), webhookWorkers(cfg, svc)...)...)
}
