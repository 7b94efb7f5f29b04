package mailer_test

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
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// received is one e-mail as the SMTP server got it.
type received struct {
	from string
	to   []string
	data []byte
	tls  bool // the session had switched to TLS (STARTTLS) before DATA
}

// smtpServer is an in-process SMTP server that offers STARTTLS with a test
// certificate, records what it receives, and can refuse recipients or be
// stopped and started again on the same address.
type smtpServer struct {
	t      *testing.T
	addr   string
	tls    *tls.Config // the server's
	client *tls.Config // trusts the server's certificate

	implicit bool // TLS from the first byte (smtp.tls: tls), not STARTTLS

	mu     sync.Mutex
	srv    *smtp.Server
	ln     net.Listener
	got    []received
	refuse map[string]*smtp.SMTPError // by recipient
}

func newSMTPServer(t *testing.T) *smtpServer {
	t.Helper()
	cert, pool := testCert(t)
	s := &smtpServer{t: t, tls: &tls.Config{Certificates: []tls.Certificate{cert}},
		client: &tls.Config{RootCAs: pool, ServerName: "localhost"}, refuse: map[string]*smtp.SMTPError{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(s.stop)
	return s
}

func (s *smtpServer) port() int {
	_, p, _ := net.SplitHostPort(s.addr)
	n := 0
	for _, c := range p {
		n = n*10 + int(c-'0')
	}
	return n
}

func (s *smtpServer) serve(ln net.Listener) {
	if s.implicit {
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

// stop shuts the server down: connections are refused until start.
func (s *smtpServer) stop() {
	s.mu.Lock()
	srv, ln := s.srv, s.ln
	s.srv, s.ln = nil, nil
	s.mu.Unlock()
	if srv != nil {
		ln.Close() // Serve may not have taken it over yet
		srv.Close()
	}
}

// start listens again on the same address.
func (s *smtpServer) start() {
	s.t.Helper()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may take a moment to be free again
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatal(err)
	}
	s.serve(ln)
}

func (s *smtpServer) refuseRcpt(addr string, code int, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if code == 0 {
		delete(s.refuse, addr)
		return
	}
	s.refuse[addr] = &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 1, 1}, Message: msg}
}

func (s *smtpServer) received() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.got...)
}

// NewSession implements smtp.Backend.
func (s *smtpServer) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{s: s, c: c}, nil
}

type session struct {
	s   *smtpServer
	c   *smtp.Conn
	msg received
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.msg = received{from: from}
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	if e := ss.s.refuse[to]; e != nil {
		return e
	}
	ss.msg.to = append(ss.msg.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, ss.msg.tls = ss.c.TLSConnectionState()
	if _, ok := ss.c.Conn().(*tls.Conn); ok {
		ss.msg.tls = true
	}
	ss.msg.data = b
	ss.s.mu.Lock()
	ss.s.got = append(ss.s.got, ss.msg)
	ss.s.mu.Unlock()
	return nil
}

func (ss *session) Reset()        { ss.msg = received{} }
func (ss *session) Logout() error { return nil }

// testCert makes a self-signed certificate for localhost and 127.0.0.1.
func testCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
