package cli_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

func TestServePrintsDemoPage(t *testing.T) {
	in := newInstall(t)
	srv := in.serve()
	defer srv.stop(t)
	demo := regexp.MustCompile(`http://\S+/demo\?site=site_[A-Za-z0-9]+`).FindString(srv.out.String())
	if demo == "" {
		t.Fatalf("first start must print the demo page's URL:\n%s", srv.out)
	}
	for _, url := range []string{demo, "http://" + in.addr + "/widget.js"} {
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), "widget") {
			t.Fatalf("GET %s: %d %.200s", url, res.StatusCode, body)
		}
	}
}

func TestSitesIdentitySecret(t *testing.T) {
	in := newInstall(t)
	site := in.mustLast(`^site_`, "sites", "create", "--name", "Shop")
	first := in.mustLast(`^isk_[A-Za-z0-9]{40}$`, "sites", "identity-secret", site)
	if second := in.mustLast(`^isk_`, "sites", "identity-secret", site); second == first {
		t.Fatal("a new secret must replace the old one")
	}
	in.mustLast(`no longer verified`, "sites", "identity-secret", site, "--clear")
	if code, _, errOut := in.run("sites", "identity-secret", "site_nope"); code == 0 || !strings.Contains(errOut, "site_nope") {
		t.Fatalf("unknown site: exit %d, %q", code, errOut)
	}
}
