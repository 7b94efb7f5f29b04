package inbound

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
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
	RefuseInbound(ctx context.Context, m app.InboundMail, outcome string) error
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
	pos, err := p.position(ctx, sel.UIDValidity)
	if err != nil {
		return false, err
	}
	uids, err := p.newUIDs(c, pos.last)
	if err != nil {
		return false, err
	}
	// Messages put off for their sender's limit come first: they are older.
	for _, uid := range append(slices.Clone(pos.deferred), uids...) {
		if ctx.Err() != nil {
			return false, nil
		}
		if pos, err = p.take(ctx, c, pos, uid); err != nil {
			return false, err
		}
	}
	return false, c.Logout().Wait()
}

// maxDeferred bounds the messages a poller keeps offering again; beyond it
// the oldest stays unread in the mailbox and is no longer tried.
const maxDeferred = 1000

// position is how far a poller got in a mailbox: the last UID taken under
// its UIDVALIDITY, and older messages put off for their sender's hourly
// limit, which each poll offers again. It is saved as
// "validity:last[:uid,uid…]".
type position struct {
	validity uint32
	last     imap.UID
	deferred []imap.UID
}

func (pos position) String() string {
	s := fmt.Sprintf("%d:%d", pos.validity, pos.last)
	if len(pos.deferred) == 0 {
		return s
	}
	d := make([]string, len(pos.deferred))
	for i, uid := range pos.deferred {
		d[i] = strconv.FormatUint(uint64(uid), 10)
	}
	return s + ":" + strings.Join(d, ",")
}

// after is the position once uid is dealt with.
func (pos position) after(uid imap.UID) position {
	if i := slices.Index(pos.deferred, uid); i >= 0 {
		pos.deferred = slices.Delete(slices.Clone(pos.deferred), i, i+1)
		return pos
	}
	pos.last = max(pos.last, uid)
	return pos
}

// deferring is the position once uid is put off until a later poll.
func (pos position) deferring(uid imap.UID) position {
	pos = pos.after(uid)
	d := append(slices.Clone(pos.deferred), uid)
	slices.Sort(d)
	d = slices.Compact(d)
	if len(d) > maxDeferred {
		slog.Warn("too many inbound e-mails put off for their sender's limit; the oldest is left unread in the mailbox", "uid", d[0])
		d = d[len(d)-maxDeferred:]
	}
	pos.deferred = d
	return pos
}

// position reads the saved position; a mailbox rebuilt (a new
// UIDVALIDITY) is read from the start, and Message-IDs already taken are
// recognised.
func (p *IMAPPoller) position(ctx context.Context, validity uint32) (position, error) {
	start := position{validity: validity}
	v, err := p.svc.InboundPosition(ctx, p.key())
	if err != nil || v == "" {
		return start, err
	}
	parts := strings.Split(v, ":")
	if parts[0] != strconv.FormatUint(uint64(validity), 10) || len(parts) < 2 {
		return start, nil
	}
	n, err := strconv.ParseUint(parts[1], 10, 32)
	if err != nil {
		return start, nil
	}
	pos := position{validity: validity, last: imap.UID(n)}
	if len(parts) > 2 {
		for _, f := range strings.Split(parts[2], ",") {
			if d, err := strconv.ParseUint(f, 10, 32); err == nil && imap.UID(d) <= pos.last {
				pos.deferred = append(pos.deferred, imap.UID(d))
			}
		}
	}
	return pos, nil
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
// that follows it, which it returns. A message refused for its sender's
// hourly limit is left unread and put off to the next polls.
func (p *IMAPPoller) take(ctx context.Context, c *imapclient.Client, pos position, uid imap.UID) (position, error) {
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, RFC822Size: true,
		BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return pos, fmt.Errorf("imap: fetch %d: %w", uid, err)
	}
	next := pos.after(uid)
	skip := func() (position, error) {
		return next, p.svc.SkipInbound(ctx, app.Setting{Key: p.key(), Value: next.String()})
	}
	if len(msgs) == 0 {
		return skip() // expunged meanwhile
	}
	raw := msgs[0].FindBodySection(body)
	passOver := func(outcome string) (position, error) { // for good: recorded, left unread
		m := identity(raw)
		m.Checkpoint = &app.Setting{Key: p.key(), Value: next.String()}
		return next, p.svc.RefuseInbound(ctx, m, outcome)
	}
	if msgs[0].RFC822Size > p.cfg.MaxBytes {
		slog.Warn("inbound e-mail over inbound.max_bytes left in the mailbox", "uid", uid, "size", msgs[0].RFC822Size)
		return passOver(app.InboundTooLarge)
	}
	m, err := Parse(raw, Envelope{})
	if err != nil {
		slog.Warn("unreadable inbound e-mail left in the mailbox", "uid", uid, "err", err)
		return passOver(app.InboundUnreadable)
	}
	m.Checkpoint = &app.Setting{Key: p.key(), Value: next.String()}
	outcome, err := p.svc.ReceiveMail(ctx, m)
	var refused *app.RefusedMailError
	if errors.As(err, &refused) {
		slog.Warn("inbound e-mail refused and left in the mailbox", "uid", uid, "message_id", m.MessageID, "outcome", refused.Outcome)
		return passOver(refused.Outcome)
	} else if err != nil {
		return pos, err
	}
	slog.Info("inbound e-mail", "message_id", m.MessageID, "outcome", outcome)
	if outcome == app.InboundRateLimited { // not taken, position unchanged by the service
		later := pos.deferring(uid)
		if later.String() == pos.String() {
			return pos, nil
		}
		return later, p.svc.SkipInbound(ctx, app.Setting{Key: p.key(), Value: later.String()})
	}
	seen := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}
	return next, c.Store(imap.UIDSetNum(uid), seen, nil).Close()
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
