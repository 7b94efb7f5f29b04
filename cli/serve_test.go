package cli_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"chatsvc/cli"
)

// TestServeRefusesAnAddressBeforeProvisioning starts serve on a busy port
// and on malformed addresses: each fails with a message naming the address,
// prints no key and creates nothing, so the first real start still prints
// the once-only test key.
func TestServeRefusesAnAddressBeforeProvisioning(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	in := newInstall(t)
	for _, c := range []struct{ addr, want string }{
		{busy.Addr().String(), "address already in use"},
		{"19085", "is not HOST:PORT"},
		{":99999", "the port must be a number from 0 to 65535"},
		{"nohost:abc", "the port must be a number from 0 to 65535"},
	} {
		code, out, errOut := in.run("serve", "--addr", c.addr)
		if code == 0 || !strings.Contains(errOut, c.addr) || !strings.Contains(errOut, c.want) {
			t.Errorf("serve --addr %s: exit %d, stderr %q; want a failure saying %q", c.addr, code, errOut, c.want)
		}
		if out != "" {
			t.Errorf("serve --addr %s printed before failing:\n%s", c.addr, out)
		}
		if _, err := os.Stat(in.data); !os.IsNotExist(err) {
			t.Fatalf("serve --addr %s created the data dir (%v)", c.addr, err)
		}
	}
	srv := in.serve()
	defer srv.stop(t)
	if !regexp.MustCompile(`test key: csk_test_\w+`).MatchString(srv.out.String()) {
		t.Fatalf("the first start that listens must print the test key:\n%s", srv.out)
	}
}

// TestServeCommandRunsUntilCancelled runs the serve command itself on a port
// the system picks: the banner's URLs name that port, the server answers
// there, and it exits 0 when its context ends.
func TestServeCommandRunsUntilCancelled(t *testing.T) {
	in := newInstall(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, done := in.serveCommand(ctx)
	api, line := "", regexp.MustCompile(`API:\s+(http://127\.0\.0\.1:\d+)/v1$`)
	for sc := bufio.NewScanner(out); api == "" && sc.Scan(); {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			api = m[1]
		}
	}
	if api == "" || strings.HasSuffix(api, ":0") {
		t.Fatalf("the banner must name the port serve listens on, got %q", api)
	}
	go io.Copy(io.Discard, out)
	res, err := http.Get(api + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET /healthz: %d", res.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not shut down")
	}
}

// serveCommand runs the serve command in this process until ctx ends, and
// returns its output, to read as it comes, and its exit code once it ends.
func (in *install) serveCommand(ctx context.Context) (io.Reader, <-chan int) {
	out, w := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- cli.Execute(ctx, in.defaults, "1.2.3", []string{"serve", "--config", in.config}, w, io.Discard)
		w.Close()
	}()
	return out, done
}
