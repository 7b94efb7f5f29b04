package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/inbound"
)

// bindInbound binds inbound.smtp_addr, so a port already taken fails
// before anything starts; nil when no receiver is configured.
func bindInbound(cfg *config.Config) (net.Listener, error) {
	if cfg.Inbound.SMTPAddr == "" {
		return nil, nil
	}
	ln, err := listen(cfg.Inbound.SMTPAddr)
	if err != nil {
		return nil, fmt.Errorf("inbound.smtp_addr: %w", err)
	}
	return ln, nil
}

// serveInbound runs the SMTP receiver on ln, when there is one; the
// returned function stops it, letting a message being received finish.
func serveInbound(ln net.Listener, svc *app.Service, cfg *config.Config) (stop func()) {
	if ln == nil {
		return func() {}
	}
	rx := inbound.NewSMTPServer(svc, cfg.Inbound.Domain, cfg.Inbound.MaxBytes)
	go func() {
		if err := rx.Serve(ln); err != nil {
			slog.Error("inbound SMTP receiver stopped", "err", err)
		}
	}()
	slog.Info("inbound SMTP receiver listening", "addr", ln.Addr().String(), "domain", cfg.Inbound.Domain)
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		rx.Close(ctx)
	}
}

// imapWorkers is the mailbox poller, when inbound.imap is set. The IMAP
// host is the operator's own choice, so it is reached wherever it is.
func imapWorkers(cfg *config.Config, svc *app.Service) []app.Worker {
	c := cfg.Inbound.IMAP
	if c.Host == "" {
		return nil
	}
	p := inbound.NewIMAPPoller(inbound.IMAPConfig{Host: c.Host, Port: c.Port, Username: c.Username,
		Password: c.Password, TLS: c.TLS, Mailbox: c.Mailbox, MaxBytes: cfg.Inbound.MaxBytes}, svc)
	return []app.Worker{{Name: "inbound-imap", Every: c.PollInterval, Step: p.Step}}
}
