package inbound

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"chatsvc/app"
)

// IMAPConfig is the mailbox to poll.
type IMAPConfig struct {
	Host, Username, Password string
	Port                     int
	TLS                      string      // none, starttls or tls
	TLSConfig                *tls.Config // nil: the system's roots, verified against Host
	Mailbox                  string
	MaxBytes                 int64 // larger messages are left in the mailbox, unread
}

// Mailbox is the service's side of a polled mailbox: it takes messages
// and keeps the poller's position (the mailbox's UIDVALIDITY and the last
// UID taken) in the database with what each message became.
type Mailbox interface {
	Receiver
	InboundPosition(ctx context.Context, key string) (string, error)
	SkipInbound(ctx context.Context, position app.Setting) error
}

// IMAPPoller takes new messages from a mailbox, each once: the position
// moves in the same transaction as the message is stored, so a restart at
// any moment neither skips nor repeats one.
type IMAPPoller struct {
	cfg IMAPConfig
	svc Mailbox
}

// NewIMAPPoller returns a poller of cfg's mailbox for svc.
func NewIMAPPoller(cfg IMAPConfig, svc Mailbox) *IMAPPoller {
	return &IMAPPoller{cfg: cfg, svc: svc}
}

// key names the position's setting: one per server, account and mailbox.
func (p *IMAPPoller) key() string {
	return "inbound.imap:" + p.cfg.Username + "@" + p.cfg.Host + "/" + p.cfg.Mailbox
}

// Step takes every message that arrived since the last one taken; it
// reports no more work (the poll interval brings the next round).
func (p *IMAPPoller) Step(ctx context.Context) (bool, error) {
	c, err := p.dial()
	if err != nil {
		return false, fmt.Errorf("imap: connect to %s: %w", p.cfg.Host, err)
	}
	defer c.Close()
	if err := c.Login(p.cfg.Username, p.cfg.Password).Wait(); err != nil {
		return false, fmt.Errorf("imap: login: %w", err)
	}
	sel, err := c.Select(p.cfg.Mailbox, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("imap: select %s: %w", p.cfg.Mailbox, err)
	}
	last, err := p.position(ctx, sel.UIDValidity)
	if err != nil {
		return false, err
	}
	uids, err := p.newUIDs(c, last)
	if err != nil {
		return false, err
	}
	for _, uid := range uids {
		if ctx.Err() != nil {
			return false, nil
		}
		if err := p.take(ctx, c, sel.UIDValidity, uid); err != nil {
			return false, err
		}
	}
	return false, c.Logout().Wait()
}

// position is the last UID taken under this UIDVALIDITY; a mailbox
// rebuilt (a new UIDVALIDITY) is read from the start, and Message-IDs
// already taken are recognised.
func (p *IMAPPoller) position(ctx context.Context, validity uint32) (imap.UID, error) {
	v, err := p.svc.InboundPosition(ctx, p.key())
	if err != nil || v == "" {
		return 0, err
	}
	val, uid, _ := strings.Cut(v, ":")
	if val != strconv.FormatUint(uint64(validity), 10) {
		return 0, nil
	}
	n, err := strconv.ParseUint(uid, 10, 32)
	if err != nil {
		return 0, nil
	}
	return imap.UID(n), nil
}

// newUIDs lists the messages after last, oldest first.
func (p *IMAPPoller) newUIDs(c *imapclient.Client, last imap.UID) ([]imap.UID, error) {
	set := imap.UIDSet{imap.UIDRange{Start: last + 1, Stop: 0}} // last+1:*
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("imap: search: %w", err)
	}
	var out []imap.UID
	for _, uid := range data.AllUIDs() {
		if uid > last { // "*" names the last message even when it is older
			out = append(out, uid)
		}
	}
	return out, nil
}

// take reads one message and hands it to the service with the position
// that follows it.
func (p *IMAPPoller) take(ctx context.Context, c *imapclient.Client, validity uint32, uid imap.UID) error {
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, RFC822Size: true,
		BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return fmt.Errorf("imap: fetch %d: %w", uid, err)
	}
	next := &app.Setting{Key: p.key(), Value: fmt.Sprintf("%d:%d", validity, uid)}
	if len(msgs) == 0 {
		return nil // expunged meanwhile
	}
	if msgs[0].RFC822Size > p.cfg.MaxBytes {
		slog.Warn("inbound e-mail over inbound.max_bytes left in the mailbox", "uid", uid, "size", msgs[0].RFC822Size)
		return p.svc.SkipInbound(ctx, *next)
	}
	m, err := Parse(msgs[0].FindBodySection(body), Envelope{})
	if err != nil {
		slog.Warn("unreadable inbound e-mail left in the mailbox", "uid", uid, "err", err)
		return p.svc.SkipInbound(ctx, *next)
	}
	m.Checkpoint = next
	outcome, err := p.svc.ReceiveMail(ctx, m)
	if err != nil {
		return err
	}
	slog.Info("inbound e-mail", "message_id", m.MessageID, "outcome", outcome)
	seen := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}
	return c.Store(imap.UIDSetNum(uid), seen, nil).Close()
}

func (p *IMAPPoller) dial() (*imapclient.Client, error) {
	addr := net.JoinHostPort(p.cfg.Host, strconv.Itoa(p.cfg.Port))
	tc := p.cfg.TLSConfig
	if tc == nil {
		tc = &tls.Config{ServerName: p.cfg.Host, MinVersion: tls.VersionTLS12}
	}
	opts := &imapclient.Options{TLSConfig: tc}
	switch p.cfg.TLS {
	case "none":
		return imapclient.DialInsecure(addr, opts)
	case "starttls":
		return imapclient.DialStartTLS(addr, opts)
	}
	return imapclient.DialTLS(addr, opts)
}
