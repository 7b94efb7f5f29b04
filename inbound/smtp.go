package inbound

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-smtp"

	"chatsvc/app"
)

// Receiver is the service's side of inbound mail.
type Receiver interface {
	ReceiveMail(ctx context.Context, m app.InboundMail) (string, error)
}

// SMTPServer is the built-in SMTP receiver: it accepts mail for one domain
// only (it never relays) and hands each message to the service before
// answering, so a 250 means the message is stored.
type SMTPServer struct {
	srv *smtp.Server
}

// Bounds on what the SMTP receiver holds at once. A message is read whole
// and parsed (about 2.5 times its size in memory), so how many are read at
// once bounds the memory: 2 of 25 MiB take about 130 MB.
const (
	MaxSMTPSessions       = 20 // connections past EHLO; more are told 421 and come back later
	MaxSMTPMessagesAtOnce = 2  // messages being read and stored; more wait their turn
)

// NewSMTPServer returns a receiver for mail to domain, refusing messages
// larger than maxBytes.
func NewSMTPServer(svc Receiver, domain string, maxBytes int64) *SMTPServer {
	b := &backend{svc: svc, domain: strings.ToLower(domain), max: maxBytes,
		sessions: make(chan struct{}, MaxSMTPSessions), reading: make(chan struct{}, MaxSMTPMessagesAtOnce)}
	srv := smtp.NewServer(b)
	srv.Domain = domain
	srv.MaxMessageBytes = maxBytes
	srv.MaxRecipients = 50
	srv.ReadTimeout, srv.WriteTimeout = time.Minute, time.Minute
	return &SMTPServer{srv: srv}
}

// Serve accepts connections on ln until Close.
func (s *SMTPServer) Serve(ln net.Listener) error {
	err := s.srv.Serve(ln)
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops the receiver; a message being received is answered first.
func (s *SMTPServer) Close(ctx context.Context) error { return s.srv.Shutdown(ctx) }

type backend struct {
	svc      Receiver
	domain   string
	max      int64
	sessions chan struct{} // a slot per open session
	reading  chan struct{} // a slot per message being read
}

var errBusy = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0},
	Message: "Too many connections; try again later"}

// NewSession takes one of the MaxSMTPSessions slots, which Logout gives back.
func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) {
	select {
	case b.sessions <- struct{}{}:
		return &session{b: b}, nil
	default:
		return nil, errBusy
	}
}

// session is one SMTP conversation's current message.
type session struct {
	b     *backend
	from  string
	rcpts []string
}

func (s *session) Reset() { s.from, s.rcpts = "", nil }
func (s *session) Logout() error {
	<-s.b.sessions
	return nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

// Rcpt accepts addresses of the inbound domain only.
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	_, domain, _ := strings.Cut(strings.ToLower(to), "@")
	if domain != s.b.domain {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: "Relaying denied: this server accepts mail for " + s.b.domain + " only"}
	}
	s.rcpts = append(s.rcpts, to)
	return nil
}

var errTooLarge = &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4}, Message: "Message too large"}

// Data reads the message whole, then stores what it means before answering.
// At most MaxSMTPMessagesAtOnce are read at once; the others wait (their
// senders' data waits in the network meanwhile), a minute at most.
func (s *session) Data(r io.Reader) error {
	select {
	case s.b.reading <- struct{}{}:
		defer func() { <-s.b.reading }()
	case <-time.After(time.Minute):
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "Busy; try again later"}
	}
	raw, err := io.ReadAll(io.LimitReader(r, s.b.max+1))
	if err != nil {
		if errors.Is(err, smtp.ErrDataTooLarge) {
			return errTooLarge
		}
		return err
	}
	if int64(len(raw)) > s.b.max {
		return errTooLarge
	}
	m, err := Parse(raw, Envelope{From: s.from, Recipients: s.rcpts, Known: true})
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "The message cannot be read"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	outcome, err := s.b.svc.ReceiveMail(ctx, m)
	var refused *app.RefusedMailError
	switch {
	case errors.As(err, &refused):
		slog.Warn("inbound e-mail refused", "message_id", m.MessageID, "outcome", refused.Outcome)
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4}, Message: refused.Error()}
	case err != nil:
		slog.Error("inbound e-mail not stored", "message_id", m.MessageID, "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
	case outcome == app.InboundRateLimited:
		return &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 7, 1},
			Message: "Too many messages from this sender; try again later"}
	}
	slog.Info("inbound e-mail", "message_id", m.MessageID, "outcome", outcome)
	return nil
}
