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

// TestServeAssistantAnswers checks that serve runs the assistant: with no
// knowledge yet, it answers that it does not know and offers a person.
func TestServeAssistantAnswers(t *testing.T) {
	in := newInstall(t)
	srv := in.serve()
	defer srv.stop(t)
	site := regexp.MustCompile(`site_[A-Za-z0-9]+`).FindString(srv.out.String())
	w := "http://" + in.addr + "/widget/v1"
	res, err := http.Post(w+"/sessions", "application/json", strings.NewReader(
		`{"site_id":"`+site+`","page_url":"https://example.com/","test":true}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	token := regexp.MustCompile(`vt_[A-Za-z0-9_.-]+`).FindString(string(body))
	req, _ := http.NewRequest("POST", w+"/messages", strings.NewReader(`{"body":"Do you ship to Norway?"}`))
	req.Header.Set("X-Visitor-Token", token)
	req.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 || !strings.Contains(string(body), "talk to a person") {
		t.Fatalf("visitor message: %d %s", res.StatusCode, body)
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
