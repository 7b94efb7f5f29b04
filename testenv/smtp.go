package testenv

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one e-mail as an SMTPSink got it.
type Mail struct {
	From string
	To   []string
	Data []byte
	TLS  bool // the session was encrypted (STARTTLS or implicit TLS) before DATA
}

// SMTPSink is an in-process SMTP server that offers STARTTLS with a test
// certificate, keeps what it receives, signals each arrival, and can refuse
// recipients or be stopped and started again on the same address.
type SMTPSink struct {
	tb     testing.TB
	Addr   string
	tls    *tls.Config // the server's
	Client *tls.Config // trusts the server's certificate

	Implicit bool // TLS from the first byte, not STARTTLS; set before Start

	arrived chan struct{}
	mu      sync.Mutex
	srv     *smtp.Server
	ln      net.Listener
	got     []Mail
	refuse  map[string]*smtp.SMTPError // by recipient
}

// NewSMTPSink starts a sink on a loopback port; it stops when the test ends.
func NewSMTPSink(tb testing.TB) *SMTPSink {
	tb.Helper()
	cert, pool := testCert(tb)
	s := &SMTPSink{tb: tb, tls: &tls.Config{Certificates: []tls.Certificate{cert}},
		Client:  &tls.Config{RootCAs: pool, ServerName: "localhost"},
		arrived: make(chan struct{}, 1), refuse: map[string]*smtp.SMTPError{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	s.serve(ln)
	tb.Cleanup(s.Stop)
	return s
}

// Port is the port the sink listens on.
func (s *SMTPSink) Port() int {
	_, p, _ := net.SplitHostPort(s.Addr)
	n, _ := strconv.Atoi(p)
	return n
}

func (s *SMTPSink) serve(ln net.Listener) {
	if s.Implicit {
		ln = tls.NewListener(ln, s.tls)
	}
	srv := smtp.NewServer(s)
	srv.Domain = "localhost"
	srv.TLSConfig = s.tls
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.mu.Lock()
	s.srv, s.ln = srv, ln
	s.mu.Unlock()
	go srv.Serve(ln)
}

// Stop shuts the sink down: connections are refused until Start.
func (s *SMTPSink) Stop() {
	s.mu.Lock()
	srv, ln := s.srv, s.ln
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		ln.Close() // Serve may not have taken it over yet
		srv.Close()
	}
}

// Start listens again on the same address, once the system has freed it.
func (s *SMTPSink) Start() {
	s.tb.Helper()
	var ln net.Listener
	Eventually(s.tb, "the sink's port is free again", func() bool {
		var err error
		ln, err = net.Listen("tcp", s.Addr)
		return err == nil
	})
	s.serve(ln)
}

// Refuse makes the sink answer RCPT TO addr with code and msg; code 0
// accepts addr again.
func (s *SMTPSink) Refuse(addr string, code int, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if code == 0 {
		delete(s.refuse, addr)
		return
	}
	s.refuse[addr] = &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 1, 1}, Message: msg}
}

// Received lists the e-mails received, in order.
func (s *SMTPSink) Received() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.got...)
}

// Arrived is signalled after each e-mail is kept, for Until.
func (s *SMTPSink) Arrived() <-chan struct{} { return s.arrived }

// NewSession implements smtp.Backend.
func (s *SMTPSink) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &sinkSession{s: s, c: c}, nil
}

type sinkSession struct {
	s   *SMTPSink
	c   *smtp.Conn
	msg Mail
}

func (ss *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.msg = Mail{From: from}
	return nil
}

func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	if e := ss.s.refuse[to]; e != nil {
		return e
	}
	ss.msg.To = append(ss.msg.To, to)
	return nil
}

func (ss *sinkSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, ss.msg.TLS = ss.c.TLSConnectionState()
	if _, ok := ss.c.Conn().(*tls.Conn); ok {
		ss.msg.TLS = true
	}
	ss.msg.Data = b
	ss.s.mu.Lock()
	ss.s.got = append(ss.s.got, ss.msg)
	ss.s.mu.Unlock()
	select {
	case ss.s.arrived <- struct{}{}:
	default: // a signal is already waiting
	}
	return nil
}

func (ss *sinkSession) Reset()        { ss.msg = Mail{} }
func (ss *sinkSession) Logout() error { return nil }

// testCert makes a self-signed certificate for localhost and 127.0.0.1.
func testCert(tb testing.TB) (tls.Certificate, *x509.CertPool) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
