// Package server runs the whole service as one process: from a
// configuration it binds the address, opens the storage, builds the
// service, serves HTTP and runs the background workers until told to stop.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/knowledge"
	"chatsvc/replica"
	"chatsvc/storage"
	"chatsvc/web"
)

// Options are what a Server needs beside the configuration.
type Options struct {
	Out     io.Writer // receives the first-start banner
	Version string    // recorded in scheduled backups
	// Command is how the operator runs the command line against the same
	// data ("chatsvc --data /srv/chat", "go run ."), for the commands the
	// banner shows; "" is "chatsvc".
	Command string
}

// Server is the service ready to run: a bound listener, the open database
// and search index, and the service over them.
type Server struct {
	cfg     *config.Config
	version string
	command string // how the operator runs the command line (Options.Command)
	ln      net.Listener
	mailIn  net.Listener // the inbound SMTP receiver's; nil without one
	lock    *storage.DirLock
	db      *storage.DB
	replica *replica.Replicator // nil without replica.url
	index   *knowledge.Index
	svc     *app.Service
}

// New binds cfg.Addr first, so that an address it cannot serve on fails
// before anything is created; then it opens the data dir and, on an empty
// installation, creates a default site and test key and prints them to
// o.Out. The caller runs the server with Run and then calls Close.
func New(ctx context.Context, cfg *config.Config, o Options) (_ *Server, err error) {
	ln, err := listen(cfg.Addr)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg.ListeningOn(ln.Addr().String()), version: o.Version, command: o.Command, ln: ln}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.mailIn, err = bindInbound(s.cfg); err != nil {
		return nil, err
	}
	if s.lock, err = storage.LockDir(s.cfg.DataDir); err != nil {
		return nil, fmt.Errorf("%w (%s): is another chatsvc serve running on it?", err, s.cfg.DataDir)
	}
	if err := refuseToForkReplica(ctx, s.cfg); err != nil {
		return nil, err
	}
	if s.db, err = storage.Open(ctx, s.cfg.DataDir); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if s.replica, err = startReplica(s.cfg); err != nil {
		return nil, err
	}
	if s.index, err = openIndex(s.cfg); err != nil {
		return nil, err
	}
	s.svc = NewService(s.db, s.cfg, s.index)
	if s.replica != nil {
		s.replica.OnBehind = s.mailReplicaBehind
	}
	if err := refillIndex(ctx, s.svc, s.index); err != nil {
		return nil, err
	}
	if err := s.bootstrap(ctx, o.Out); err != nil {
		return nil, err
	}
	if _, err := s.svc.EnsureVAPIDKeys(ctx); err != nil { // browsers subscribe with the public half
		return nil, fmt.Errorf("push keys: %w", err)
	}
	return s, nil
}

// Addr is the address the server listens on; with port 0 asked for, it
// names the port the system chose.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Run serves HTTP and runs the background workers until ctx ends, then
// shuts down: requests in flight get 15 seconds, then the workers stop.
func (s *Server) Run(ctx context.Context) error {
	// The workers outlive ctx until the HTTP server has shut down, so no
	// request finds its worker gone.
	workCtx, stopWorkers := context.WithCancel(context.Background())
	var workers sync.WaitGroup
	defer func() {
		stopWorkers()
		workers.Wait()
	}()
	var running atomic.Int32
	list := append(backgroundWorkers(s.cfg, s.svc), scheduledBackups(s.cfg, s.version, time.Now)...)
	if s.replica != nil {
		list = append(list, app.Worker{Name: "replica", Every: s.cfg.Replica.SyncInterval, Step: s.replica.Step})
	}
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
	defer serveInbound(s.mailIn, s.svc, s.cfg)()
	srv := web.NewServer(s.cfg.Addr, web.HandlerWith(s.svc, s.webOptions(ready)))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(s.ln) }()
	slog.Info("chatsvc listening", "addr", s.Addr(), "public_url", s.cfg.PublicURL, "data_dir", s.cfg.DataDir)
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

// Close releases the listener, the search index and the database; call it
// once Run has returned (or instead of Run).
func (s *Server) Close() error {
	s.ln.Close() // already closed when Run served on it
	if s.mailIn != nil {
		s.mailIn.Close()
	}
	var errs []error
	if s.index != nil {
		errs = append(errs, s.index.Close())
	}
	if s.db != nil {
		errs = append(errs, s.db.Close())
	}
	if s.replica != nil { // after the database: it ships the last writes
		errs = append(errs, s.replica.Close(context.Background()))
	}
	if s.lock != nil {
		errs = append(errs, s.lock.Release())
	}
	return errors.Join(errs...)
}

func (s *Server) webOptions(ready func(context.Context) error) web.Options {
	r := s.cfg.RateLimit
	return web.Options{APIPerSecond: r.APIPerSecond, APIBurst: r.APIBurst,
		WidgetPerSecond: r.WidgetPerSecond, WidgetBurst: r.WidgetBurst,
		MetricsToken: s.cfg.Metrics.Token, Ready: ready, PublicURL: s.cfg.PublicURL, MailOff: s.cfg.SMTP.Host == "",
		Replica: s.replicaStatus()}
}

// bootstrap creates a default site and test-mode key on an empty
// installation and prints them: the key is shown only this once.
func (s *Server) bootstrap(ctx context.Context, out io.Writer) error {
	site, secret, err := s.svc.Bootstrap(ctx)
	if err != nil {
		return fmt.Errorf("first start: %w", err)
	}
	if site != nil {
		u := s.cfg.PublicURL
		fmt.Fprintf(out, "First start: created a default site and a test-mode API key.\n"+
			"  site:     %s\n  test key: %s   (shown only this once: keep it)\n  API:      %s/v1\n"+
			"  demo:     %s/demo?site=%s   (the widget, in test mode)\n",
			site.ID, secret, u, u, site.ID)
	}
	members, err := s.svc.Members(ctx)
	if err != nil || len(members) > 0 || out == nil {
		return err
	}
	cmd := s.command
	if cmd == "" {
		cmd = "chatsvc"
	}
	fmt.Fprintf(out, "  dashboard: %s/app/   (sign in as a team member; there is none yet, so make yourself one:)\n"+
		"    %s members create --email you@example.com --name \"Your Name\" --password 'a long password'\n",
		s.cfg.PublicURL, cmd)
	return nil
}

// listen checks that addr is HOST:PORT and binds it, with messages that
// say what to fix.
func listen(addr string) (net.Listener, error) {
	if err := config.CheckAddr(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &dns):
		return nil, fmt.Errorf("cannot listen on %s: no such host %q", addr, dns.Name)
	case errors.As(err, &op):
		return nil, fmt.Errorf("cannot listen on %s: %w", addr, op.Err)
	case err != nil:
		return nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln, nil
}
