// Package mailer sends the e-mails of the outbox over SMTP. Rows are queued
// by package app in the same transaction as the change they tell about; the
// worker here sends them and tells the service how each attempt went
// (temporary failure, or a permanent 5xx refusal), and the service records
// it and decides when to try again (app.MailRetry). A restart resumes from
// what the outbox says.
package mailer

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/config"
	"chatsvc/storage"
)

// Config is what the mailer needs to know.
type Config struct {
	Host        string // empty: e-mail waits in the outbox
	Port        int
	Username    string
	Password    string
	From        string
	TLS         string      // none, starttls or tls
	TLSConfig   *tls.Config // nil: the system's roots, verified against Host
	PublicURL   string
	TemplateDir string        // overrides of the built-in templates
	ReplyDomain string        // inbound.domain: replies go to reply+<id>@ it; empty: no Reply-To
	DKIM        DKIM          // smtp.dkim; empty: no signature
	Timeout     time.Duration // one connection; 0: 30s
}

// FromConfig takes the mailer's settings from the service configuration.
func FromConfig(cfg *config.Config) Config {
	return Config{Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, Username: cfg.SMTP.Username, Password: cfg.SMTP.Password,
		From: cfg.SMTP.From, TLS: cfg.SMTP.TLS, PublicURL: cfg.PublicURL,
		TemplateDir: filepath.Join(cfg.DataDir, TemplateDirName), ReplyDomain: cfg.Inbound.Domain,
		DKIM: DKIM{Selector: cfg.SMTP.DKIM.Selector, Domain: cfg.SMTP.DKIM.Domain, KeyFile: cfg.SMTP.DKIM.KeyFile}}
}

const batchSize = 20

// Mailer drains the outbox.
type Mailer struct {
	cfg    Config
	svc    *app.Service
	tpl    templates
	warned bool // "no SMTP host" was logged
}

// New returns a mailer for the service's database and clock.
func New(cfg Config, svc *app.Service) *Mailer {
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &Mailer{cfg: cfg, svc: svc, tpl: templates{dir: cfg.TemplateDir}}
}

// Worker is the background loop that sends due e-mails, woken by every
// committed write and once a minute for retries.
func (m *Mailer) Worker() app.Worker {
	return app.Worker{Name: "mail", Every: time.Minute, Wake: m.svc.Wakeup(storage.QueueMail), Step: m.Step}
}

// Step sends the e-mails that are due, up to a batch, and reports whether
// more may be due.
func (m *Mailer) Step(ctx context.Context) (bool, error) {
	if m.cfg.Host == "" {
		if !m.warned {
			n, err := m.svc.PendingMails(ctx)
			if err != nil {
				return false, err
			}
			if n > 0 {
				slog.Warn("smtp.host is not set: e-mails stay in the outbox until it is", "pending", n)
				m.warned = true
			}
		}
		return false, nil
	}
	now := m.svc.Now()
	due, err := m.svc.DueMails(ctx, batchSize)
	if err != nil || len(due) == 0 {
		return false, err
	}
	client, err := m.client()
	if err != nil { // a configuration that cannot work: keep the mail, say why
		return false, m.recordAll(ctx, due, now, err)
	}
	conn, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		slog.Warn("cannot reach the SMTP server; e-mails will be retried", "host", m.cfg.Host, "err", err)
		return false, m.recordAll(ctx, due, now, fmt.Errorf("connect: %w", err))
	}
	defer client.CloseWithSMTPClient(conn)
	for _, ml := range due {
		msg, err := m.compose(ml)
		if err == nil {
			err = client.SendWithSMTPClient(conn, msg)
		}
		if ctx.Err() != nil {
			return false, nil // shutting down: whatever was not recorded is sent again later
		}
		if err := m.record(ctx, ml, now, err); err != nil {
			return false, err
		}
	}
	return len(due) == batchSize, nil
}

// recordAll records the same failure on every e-mail of a batch.
func (m *Mailer) recordAll(ctx context.Context, due []*storage.Mail, now time.Time, cause error) error {
	for _, ml := range due {
		if err := m.record(ctx, ml, now, cause); err != nil {
			return err
		}
	}
	return nil
}

// record stores the outcome of one attempt; the service decides what
// follows (app.MailRetry).
func (m *Mailer) record(ctx context.Context, ml *storage.Mail, now time.Time, sendErr error) error {
	return m.svc.RecordMailAttempt(ctx, ml, now, sendErr, sendErr != nil && permanent(sendErr))
}

// permanent tells a refusal that sending again cannot fix: a 5xx reply to
// the sender, a recipient or the content, or an e-mail that cannot be
// written at all. Everything else (4xx replies, connection and
// authentication trouble) is worth another try.
func permanent(err error) bool {
	var se *gomail.SendError
	if errors.As(err, &se) {
		return se.ErrorCode() >= 500 && se.ErrorCode() <= 599
	}
	return errors.Is(err, errNoTemplate) || errors.Is(err, errBadMail)
}

var errBadMail = errors.New("the e-mail cannot be written")

// client makes a go-mail client from the configuration.
func (m *Mailer) client() (*gomail.Client, error) {
	tc := m.cfg.TLSConfig
	if tc == nil {
		tc = &tls.Config{ServerName: m.cfg.Host, MinVersion: tls.VersionTLS12}
	}
	opts := []gomail.Option{gomail.WithPort(m.cfg.Port), gomail.WithTimeout(m.cfg.Timeout), gomail.WithTLSConfig(tc)}
	switch m.cfg.TLS {
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case "tls":
		opts = append(opts, gomail.WithSSL())
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if m.cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(m.cfg.Username), gomail.WithPassword(m.cfg.Password))
	}
	return gomail.NewClient(m.cfg.Host, opts...)
}

// compose renders an outbox row into a message with its threading headers:
// every e-mail about a ticket refers to the same thread root, so mail
// clients group them, and the first one (the confirmation) is that root.
func (m *Mailer) compose(ml *storage.Mail) (*gomail.Msg, error) {
	data := map[string]any{}
	if err := decodeData(ml.Data, &data); err != nil {
		return nil, fmt.Errorf("%w: data: %v", errBadMail, err)
	}
	if ml.TicketEvent != nil && ml.Ticket == nil {
		return nil, fmt.Errorf("%w: the event %d that holds its ticket is gone", errBadMail, *ml.TicketEvent)
	}
	if ml.Ticket != nil { // the ticket as the event of its write holds it
		var ticket any
		if err := decodeData(ml.Ticket, &ticket); err != nil {
			return nil, fmt.Errorf("%w: ticket: %v", errBadMail, err)
		}
		data["ticket"] = ticket
	}
	name := ""
	if ml.ToName != nil {
		name = *ml.ToName
	}
	data["recipient"] = map[string]any{"email": ml.ToEmail, "name": name}
	data["public_url"] = m.cfg.PublicURL
	subject, text, html, err := m.tpl.render(ml.Template, data)
	if err != nil {
		return nil, err
	}
	if ml.Mode == chat.Test {
		subject = "[TEST] " + subject
	}
	msg := gomail.NewMsg()
	if err := msg.From(m.from()); err != nil {
		return nil, fmt.Errorf("%w: smtp.from: %v", errBadMail, err)
	}
	if err := msg.AddToFormat(name, ml.ToEmail); err != nil {
		return nil, fmt.Errorf("%w: recipient: %v", errBadMail, err)
	}
	msg.Subject(subject)
	domain := m.domain()
	msg.SetMessageIDWithValue(ml.ID + "@" + domain)
	if ml.TicketID != nil {
		root := "ticket." + *ml.TicketID + "@" + domain
		if ml.Template == app.MailTicketCreated || ml.Template == app.MailTicketReceived {
			msg.SetMessageIDWithValue(root)
		} else {
			msg.SetGenHeader(gomail.HeaderInReplyTo, "<"+root+">")
			msg.SetGenHeader(gomail.HeaderReferences, "<"+root+">")
		}
	}
	// The date the e-mail was promised: stable across retries, and the
	// order in which a thread's messages were meant to arrive.
	msg.SetDateWithValue(ml.CreatedAt.Time())
	msg.SetGenHeader(gomail.HeaderXAutoResponseSuppress, "All")
	if err := m.routeReplies(msg, ml); err != nil {
		return nil, err
	}
	msg.SetBodyString(gomail.TypeTextPlain, text)
	msg.AddAlternativeString(gomail.TypeTextHTML, html)
	return msg, m.cfg.DKIM.sign(msg)
}

// decodeData reads an e-mail's queued JSON; numbers stay as written, so
// ticket numbers print as they are.
func decodeData(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// from is the sender of the service's e-mails.
func (m *Mailer) from() string { return Sender(m.cfg.From, m.cfg.PublicURL) }

// Sender is the From of the service's e-mails: smtp.from, or a no-reply
// address at the public URL's host. Inbound mail from it is the service's own.
func Sender(from, publicURL string) string {
	if from != "" {
		return from
	}
	return "chatsvc <no-reply@" + publicHost(publicURL) + ">"
}

// domain names the sender's domain in Message-IDs.
func (m *Mailer) domain() string {
	if a, err := mail.ParseAddress(m.from()); err == nil {
		if _, d, ok := strings.Cut(a.Address, "@"); ok && d != "" {
			return d
		}
	}
	return publicHost(m.cfg.PublicURL)
}

func publicHost(publicURL string) string {
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "localhost"
}

// routeReplies makes answers come back: a Reply-To whose token names this
// e-mail, when inbound mail is set up. Notifications say they were sent by
// a machine (RFC 3834), so auto-responders stay quiet; an agent's own words
// do not.
func (m *Mailer) routeReplies(msg *gomail.Msg, ml *storage.Mail) error {
	if ml.Template != app.MailTicketComment {
		msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	}
	if m.cfg.ReplyDomain == "" {
		return nil
	}
	if err := msg.ReplyTo(app.ReplyAddressPrefix + ml.ID + "@" + m.cfg.ReplyDomain); err != nil {
		return fmt.Errorf("%w: reply-to: %v", errBadMail, err)
	}
	return nil
}
