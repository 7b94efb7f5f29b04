// Package outbound is the one HTTP client chatsvc uses to reach the outside
// world (crawler, attachment downloads, webhooks). It refuses to connect to
// loopback, private, link-local, shared and metadata addresses unless told
// otherwise, and it checks the address it actually dials, so neither a
// redirect nor a DNS answer that changes between lookup and connect (DNS
// rebinding) can get around the rule. docs/outbound.md lists the ranges.
package outbound

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"syscall"
	"time"
)

// ErrPrivateAddress is wrapped by the error of a refused connection.
var ErrPrivateAddress = errors.New("address is not public")

// Options configure a client.
type Options struct {
	AllowPrivate bool          // network.allow_private: development only
	Timeout      time.Duration // whole request, body included; 0: none
	MaxRedirects int           // 0: redirects are not followed
	UserAgent    string        // default "chatsvc"
	// Exempt lists exact addresses reachable even though they are not
	// public. Tests use it to stand a local server in for a public site, so
	// that the guard is exercised on what lies behind it (redirects, links).
	Exempt []netip.AddrPort
}

// blocked lists the ranges a request may not reach: everything that is not
// the public internet, after IANA's special-purpose registries, plus IPv6
// site-local (deprecated, yet still routed in some networks). IPv6 forms
// that carry an IPv4 address are covered whole (IPv4-compatible, local-use
// NAT64, Teredo) or judged by the address they carry (see embeddedIPv4).
var blocked = mustPrefixes(
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
	"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
	"::/96", // unspecified, loopback and the deprecated IPv4-compatible form
	"64:ff9b:1::/48", "100::/64", "100:0:0:1::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16",
	"fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
)

// Ranges whose addresses stand for an IPv4 address: NAT64's well-known
// prefix (the IPv4 address in the last 32 bits) and 6to4 (in bits 16-47).
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Public reports whether ip is an address of the public internet. An IPv6
// address that reaches an IPv4 one (mapped, NAT64, 6to4) is judged as that
// IPv4 address, so [64:ff9b::a9fe:a9fe] is 169.254.169.254.
func Public(ip netip.Addr) bool {
	ip = embeddedIPv4(ip.WithZone("").Unmap()) // a zoned address matches no prefix
	if !ip.IsValid() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// embeddedIPv4 returns the IPv4 address a NAT64 or 6to4 address stands
// for, and any other address unchanged.
func embeddedIPv4(ip netip.Addr) netip.Addr {
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte(b[12:16]))
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte(b[2:6]))
	}
	return ip
}

// control returns the check run after name resolution, on the address
// about to be dialed.
func control(exempt []netip.AddrPort) func(_, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		if !Public(ap.Addr()) && !slices.Contains(exempt, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())) {
			return fmt.Errorf("%w: %s", ErrPrivateAddress, ap.Addr())
		}
		return nil
	}
}

// New returns an HTTP client with the guard, the timeout and the redirect
// rule of o. Proxies from the environment are not used: they would dial on
// the client's behalf and escape the guard.
func New(o Options) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !o.AllowPrivate {
		dialer.Control = control(o.Exempt)
	}
	ua := o.UserAgent
	if ua == "" {
		ua = "chatsvc"
	}
	transport := &http.Transport{
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: o.Timeout,
	}
	return &http.Client{
		Transport: userAgent{ua, transport},
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > o.MaxRedirects {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
}

// IsPrivateAddress reports whether err comes from the guard refusing an address.
func IsPrivateAddress(err error) bool { return errors.Is(err, ErrPrivateAddress) }

// Reason says in a few fixed words why a request of a client with the given
// timeout got no answer, or "" for an error it does not know. Go's own
// error text is never shown to the team: it names the resolver's and the
// remote side's addresses and the client's internals.
func Reason(err error, timeout time.Duration) string {
	var dns *net.DNSError
	var tlsErr *tls.CertificateVerificationError
	var alert tls.AlertError
	var record tls.RecordHeaderError
	var ne net.Error
	switch {
	case IsPrivateAddress(err):
		return "refused: private address (network.allow_private is false)"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &dns) && dns.IsNotFound:
		return "DNS lookup failed: no such host"
	case errors.As(err, &dns):
		return "DNS lookup failed"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		if timeout > 0 {
			return "timed out after " + timeout.String()
		}
		return "timed out"
	case errors.As(err, &tlsErr):
		return "TLS error: certificate not valid"
	case errors.As(err, &alert), errors.As(err, &record):
		return "TLS error"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed without a response"
	}
	return ""
}

type userAgent struct {
	ua   string
	next http.RoundTripper
}

func (u userAgent) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("User-Agent") == "" {
		r = r.Clone(r.Context())
		r.Header.Set("User-Agent", u.ua)
	}
	return u.next.RoundTrip(r)
}

// CloseIdleConnections passes http.Client.CloseIdleConnections on to the
// transport, so a client made per task (a crawl) leaves no connection open.
func (u userAgent) CloseIdleConnections() {
	if c, ok := u.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
