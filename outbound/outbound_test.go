package outbound_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"chatsvc/outbound"
)

func TestPublic(t *testing.T) {
	for _, c := range []struct {
		ip     string
		public bool
	}{
		{"93.184.216.34", true}, {"2606:4700::1111", true}, {"8.8.8.8", true},
		{"127.0.0.1", false}, {"127.9.9.9", false}, {"10.1.2.3", false}, {"172.16.0.1", false}, {"172.31.255.255", false},
		{"192.168.1.1", false}, {"169.254.169.254", false}, {"100.64.0.1", false}, {"0.0.0.0", false},
		{"::1", false}, {"::", false}, {"fe80::1", false}, {"fd00::1", false}, {"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false}, {"224.0.0.1", false}, {"255.255.255.255", false}, {"64:ff9b:1::a00:1", false},
		// IPv6 forms that reach a public IPv4 address stay public.
		{"::ffff:8.8.8.8", true}, {"64:ff9b::808:808", true}, {"2002:808:808::1", true},
	} {
		if got := outbound.Public(netip.MustParseAddr(c.ip)); got != c.public {
			t.Errorf("Public(%s) = %v, want %v", c.ip, got, c.public)
		}
	}
}

// TestIPv6FormsOfPrivateAddresses lists addresses that reach a private or
// special-purpose destination through an IPv6 spelling.
func TestIPv6FormsOfPrivateAddresses(t *testing.T) {
	for _, ip := range []string{
		"64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b::a00:1", // NAT64 of 169.254.169.254, 127.0.0.1, 10.0.0.1
		"::a9fe:a9fe", "::7f00:1", "::a00:1", // IPv4-compatible
		"2002:a9fe:a9fe::1", "2002:7f00:1::", "2002:c0a8:101::1", // 6to4 of 169.254.169.254, 127.0.0.1, 192.168.1.1
		"fec0::1", "feff::1", // site-local
		"2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
		"2001:2::1", "2001:10::1", // benchmarking, ORCHID
		"3fff::1", "5f00::1", "100:0:0:1::1", // documentation (2024), SRv6, dummy prefix
		"fe80::1%eth0", // zoned link-local
	} {
		if outbound.Public(netip.MustParseAddr(ip)) {
			t.Errorf("Public(%s) = true, want false", ip)
		}
	}
}

// TestClientRefusesIPv4InIPv6Forms dials NAT64 and 6to4 addresses standing
// for 127.0.0.1 and 169.254.169.254: the guard must refuse them before any
// connection is tried, not leave it to the network to be unreachable.
func TestClientRefusesIPv4InIPv6Forms(t *testing.T) {
	for _, u := range []string{"http://[64:ff9b::7f00:1]:9/", "http://[2002:a9fe:a9fe::1]/latest/meta-data/"} {
		_, err := outbound.New(outbound.Options{}).Get(u)
		if !outbound.IsPrivateAddress(err) {
			t.Errorf("GET %s: %v, want a private-address refusal", u, err)
		}
	}
}

func TestClientRefusesPrivateAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ua=" + r.Header.Get("User-Agent")))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))

	guarded := outbound.New(outbound.Options{})
	for _, u := range []string{srv.URL, "http://localhost:" + port + "/"} { // by address and by a name resolving to it
		_, err := guarded.Get(u)
		if err == nil || !outbound.IsPrivateAddress(err) {
			t.Errorf("GET %s: %v, want a private-address refusal", u, err)
		}
	}

	open := outbound.New(outbound.Options{AllowPrivate: true})
	res, err := open.Get(srv.URL)
	if err != nil {
		t.Fatalf("with allow_private: %v", err)
	}
	defer res.Body.Close()
	buf := make([]byte, 64)
	n, _ := res.Body.Read(buf)
	if got := string(buf[:n]); got != "ua=chatsvc" {
		t.Errorf("body %q, want the default user agent", got)
	}
}

func TestRedirectsAreNotFollowedByDefault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			http.Redirect(w, r, "/next", http.StatusFound)
			return
		}
		w.Write([]byte("next"))
	}))
	defer srv.Close()
	res, err := outbound.New(outbound.Options{AllowPrivate: true}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("status %d, want the 302 itself", res.StatusCode)
	}
	res, err = outbound.New(outbound.Options{AllowPrivate: true, MaxRedirects: 3}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d with redirects allowed, want 200", res.StatusCode)
	}
}

func TestExemptAddressesOnly(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer ok.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer other.Close()
	exempt := netip.MustParseAddrPort(strings.TrimPrefix(ok.URL, "http://"))
	c := outbound.New(outbound.Options{Exempt: []netip.AddrPort{exempt}})
	res, err := c.Get(ok.URL)
	if err != nil {
		t.Fatalf("exempt address refused: %v", err)
	}
	res.Body.Close()
	if _, err := c.Get(other.URL); !outbound.IsPrivateAddress(err) {
		t.Fatalf("another port of the same address: %v, want a refusal", err)
	}
}

func TestCloseIdleConnectionsReachesTheTransport(t *testing.T) {
	closed := make(chan struct{}, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- struct{}{}
		}
	}
	srv.Start()
	defer srv.Close()
	c := outbound.New(outbound.Options{AllowPrivate: true})
	res, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close() // the connection goes back to the pool, idle
	c.CloseIdleConnections()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the idle connection was not closed")
	}
}
