package webhooks_test

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"chatsvc/app"
)

// leak matches what Go's network errors show and a receiver's owner must
// not see: addresses, ports, the resolver, the client's wording.
var leak = regexp.MustCompile(`\d+\.\d+\.\d+\.\d+|:\d+|\bdial\b|\btcp\b|lookup \S+ on|x509|Post "`)

// TestFailureReasonsAreFixedWords checks that a failed test ping and its
// logged attempt say why in a few fixed words, whatever Go's error said.
func TestFailureReasonsAreFixedWords(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake fails by design
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	// hangUp reads the request, then closes the connection without a word.
	hangUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
			c.Close()
		}
	}))
	defer hangUp.Close()
	failing := e.receiver(always(500))

	private := newEnv(t, setup{hooks: func(o *app.WebhookOptions) { o.AllowPrivate = false }})
	for _, c := range []struct {
		env       *env
		url, want string
	}{
		{e, "http://127.0.0.1:1/", "connection refused"},
		{e, "http://no-such-host.invalid/", "DNS lookup failed: no such host"},
		{e, tlsSrv.URL + "/", "TLS error: certificate not valid"},
		{e, hangUp.URL + "/", "connection closed without a response"},
		{e, failing.URL(), "HTTP 500"},
		{private, strings.Replace(failing.URL(), "127.0.0.1", "localhost", 1),
			"refused: private address (network.allow_private is false)"},
	} {
		id, _ := c.env.endpoint(c.url, "*")
		out := c.env.ok(200, "POST", "/v1/webhook-endpoints/"+id+"/test", nil)
		log := c.env.ok(200, "GET", "/v1/webhook-endpoints/"+id+"/deliveries", nil)["data"].([]any)
		logged := log[0].(map[string]any)["error"]
		if out["error"] != c.want || logged != c.want {
			t.Errorf("%s: error %q, logged %q, want %q", c.url, out["error"], logged, c.want)
		}
		if s, _ := out["error"].(string); leak.MatchString(s) {
			t.Errorf("%s: error %q shows network internals", c.url, s)
		}
	}
}
