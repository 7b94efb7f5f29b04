package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"chatsvc/cli"
	"chatsvc/config"
	"chatsvc/server"
	"chatsvc/testenv"
)

// install is a data dir with a config file pointing at it; serve listens on
// a port the system picks, and addr is where the running server listens.
type install struct {
	t        *testing.T
	defaults []byte
	config   string
	data     string
	addr     string
}

func newInstall(t *testing.T) *install {
	t.Helper()
	defaults, err := os.ReadFile("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := &install{t: t, defaults: defaults, config: filepath.Join(dir, "config.yaml"), data: filepath.Join(dir, "data")}
	in.writeConfig("")
	return in
}

// writeConfig writes the config file, with a public_url when one is given.
func (in *install) writeConfig(publicURL string) {
	in.t.Helper()
	body := fmt.Sprintf("addr: \"127.0.0.1:0\"\ndata_dir: %q\n", in.data)
	if publicURL != "" {
		body += fmt.Sprintf("public_url: %q\n", publicURL)
	}
	if err := os.WriteFile(in.config, []byte(body), 0o600); err != nil {
		in.t.Fatal(err)
	}
}

// run runs a command to completion and returns its exit code and output.
func (in *install) run(args ...string) (code int, stdout, stderr string) {
	in.t.Helper()
	var out, errOut bytes.Buffer
	code = cli.Execute(context.Background(), in.defaults, "1.2.3", append(args, "--config", in.config), &out, &errOut)
	return code, out.String(), errOut.String()
}

// last returns the last non-empty line of a command's output.
func last(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func (in *install) mustLast(pattern string, args ...string) string {
	in.t.Helper()
	code, out, errOut := in.run(args...)
	if code != 0 {
		in.t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	got := last(out)
	if !regexp.MustCompile(pattern).MatchString(got) {
		in.t.Fatalf("%v: last line %q does not match %s", args, got, pattern)
	}
	return got
}

func TestProvisioningCommandsPrintTheirResultLast(t *testing.T) {
	in := newInstall(t)
	test := in.mustLast(`^csk_test_[A-Za-z0-9]{32}$`, "keys", "create", "--mode", "test")
	in.mustLast(`^csk_live_[A-Za-z0-9]{32}$`, "keys", "create", "--mode", "live", "--name", "CRM")
	in.mustLast(`^site_[A-Za-z0-9]{24}$`, "sites", "create", "--name", "Demo", "--domain", "example.com")
	in.mustLast(`^mem_[A-Za-z0-9]{24}$`, "members", "create", "--email", "a@example.com", "--name", "Agent")
	in.mustLast(`^1\.2\.3$`, "version")

	code, out, _ := in.run("keys", "list")
	if code != 0 || strings.Contains(out, test) || !strings.Contains(out, "CRM") || !strings.Contains(out, "…"+test[len(test)-4:]) {
		t.Fatalf("keys list (exit %d) must list keys without secrets:\n%s", code, out)
	}
	if code, out, _ := in.run("sites", "list"); code != 0 || !strings.Contains(out, "Demo") || !strings.Contains(out, "example.com") {
		t.Fatalf("sites list (exit %d):\n%s", code, out)
	}
	if code, out, _ := in.run("members", "list"); code != 0 || !strings.Contains(out, "a@example.com") {
		t.Fatalf("members list (exit %d):\n%s", code, out)
	}
}

// TestMembersCreateRoles checks the roles members create gives: owner to
// the first member, agent to the next, and what --role asks for.
func TestMembersCreateRoles(t *testing.T) {
	in := newInstall(t)
	in.mustLast(`^mem_`, "members", "create", "--email", "first@example.com", "--name", "First")
	in.mustLast(`^mem_`, "members", "create", "--email", "second@example.com", "--name", "Second")
	in.mustLast(`^mem_`, "members", "create", "--email", "third@example.com", "--name", "Third", "--role", "owner")
	if code, _, _ := in.run("members", "create", "--email", "x@example.com", "--name", "X", "--role", "admin"); code == 0 {
		t.Error("members create accepted the role admin")
	}
	_, out, _ := in.run("members", "list")
	for _, want := range []string{`first@example\.com +First +owner`, `second@example\.com +Second +agent`,
		`third@example\.com +Third +owner`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("members list lacks %s:\n%s", want, out)
		}
	}
}

func TestCommandsRefuseBadInput(t *testing.T) {
	in := newInstall(t)
	cases := [][]string{
		{"keys", "create", "--mode", "staging"},
		{"keys", "create"},
		{"keys", "revoke", "key_doesnotexist"},
		{"sites", "create"},
		{"members", "create", "--email", "not-an-email", "--name", "X"},
		{"members", "create", "--email", "a@example.com", "--name", "X", "--password", "short"},
		{"nonsense"},
	}
	for _, args := range cases {
		code, out, errOut := in.run(args...)
		if code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want a failure explained on stderr", args, code, errOut, out)
		}
	}
	in.mustLast(`^mem_`, "members", "create", "--email", "a@example.com", "--name", "A")
	if code, _, errOut := in.run("members", "create", "--email", "A@example.com", "--name", "B"); code == 0 || !strings.Contains(errOut, "exists") {
		t.Errorf("duplicate member e-mail: exit %d, %q", code, errOut)
	}
}

func TestConfigErrorsAreReported(t *testing.T) {
	in := newInstall(t)
	os.WriteFile(in.config, []byte("adr: \":1\"\n"), 0o600)
	if code, _, errOut := in.run("sites", "list"); code == 0 || !strings.Contains(errOut, "adr") {
		t.Fatalf("misspelt key: exit %d, %q", code, errOut)
	}
	if code, _, errOut := in.run("sites", "list", "--config", filepath.Join(t.TempDir(), "missing.yaml")); code == 0 || errOut == "" {
		t.Fatalf("missing config file: exit %d, %q", code, errOut)
	}
}

// running is the server of `chatsvc serve` running in the background.
type running struct {
	cancel context.CancelFunc
	done   chan error
	srv    *server.Server
	out    *bytes.Buffer // the first-start banner
}

// serve starts the server serve runs, with this install's configuration.
// Its public_url follows the port it gets; the config file then names that
// URL, as an operator's would, for the commands that call the server.
func (in *install) serve() *running {
	in.t.Helper()
	in.writeConfig("")
	cfg, err := config.Load(config.Sources{Defaults: in.defaults, File: in.config})
	if err != nil {
		in.t.Fatal(err)
	}
	r := &running{done: make(chan error, 1), out: &bytes.Buffer{}}
	if r.srv, err = server.New(context.Background(), cfg, server.Options{Out: r.out, Version: "1.2.3"}); err != nil {
		in.t.Fatal(err)
	}
	in.addr = r.srv.Addr()
	in.writeConfig("http://" + in.addr)
	var ctx context.Context
	ctx, r.cancel = context.WithCancel(context.Background())
	go func() { r.done <- r.srv.Run(ctx) }()
	return r
}

func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("serve ended with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not shut down")
	}
	if err := r.srv.Close(); err != nil {
		t.Fatal(err)
	}
}

func (in *install) call(method, path, key, body string) (int, string) {
	in.t.Helper()
	req, _ := http.NewRequest(method, "http://"+in.addr+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		in.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestServeBootstrapsWorksWithCLIAndSurvivesRestart(t *testing.T) {
	in := newInstall(t)
	srv := in.serve()
	key := regexp.MustCompile(`csk_test_[A-Za-z0-9]+`).FindString(srv.out.String())
	site := regexp.MustCompile(`site_[A-Za-z0-9]+`).FindString(srv.out.String())
	if key == "" || site == "" {
		t.Fatalf("first start must print a site and a test key:\n%s", srv.out)
	}
	// With no team member yet, it says where the dashboard is and how to get in.
	for _, want := range []string{"dashboard: http://", "/app/", "chatsvc members create --email you@example.com --name \"Your Name\" --password "} {
		if !strings.Contains(srv.out.String(), want) {
			t.Fatalf("first start lacks %q:\n%s", want, srv.out)
		}
	}
	if code, body := in.call("POST", "/v1/tickets", key, `{"subject":"Printer on fire","contact":{"email":"ada@example.com"}}`); code != 201 {
		t.Fatalf("create ticket with the printed key: %d %s", code, body)
	}

	// Provisioning commands write while serve runs, and serve sees the result.
	live := in.mustLast(`^csk_live_`, "keys", "create", "--mode", "live")
	if code, body := in.call("GET", "/v1/tickets", live, ""); code != 200 || !strings.Contains(body, `"data": []`) {
		t.Fatalf("live key made while serving: %d %s (test tickets must not show)", code, body)
	}
	code, out, _ := in.run("keys", "list")
	keyID := regexp.MustCompile(`key_[A-Za-z0-9]+`).FindString(out)
	if code != 0 || keyID == "" {
		t.Fatalf("keys list: %d %s", code, out)
	}
	in.mustLast(`^Revoked key_`, "keys", "revoke", keyID) // the first key: the printed test key
	// serve reads the revocation marker at most once a second.
	testenv.Eventually(t, "the revoked key refused", func() bool {
		code, body := in.call("GET", "/v1/tickets", key, "")
		if code != 200 && (code != 401 || !strings.Contains(body, "api_key_invalid")) {
			t.Fatalf("revoked key: %d %s", code, body)
		}
		return code == 401
	})
	srv.stop(t)

	newKey := in.mustLast(`^csk_test_`, "keys", "create", "--mode", "test")
	srv = in.serve()
	defer srv.stop(t)
	if strings.Contains(srv.out.String(), "csk_") {
		t.Fatalf("second start must not create or print keys:\n%s", srv.out)
	}
	code, body := in.call("GET", "/v1/tickets/T-1", newKey, "")
	if code != 200 || !strings.Contains(body, "Printer on fire") {
		t.Fatalf("ticket after restart: %d %s", code, body)
	}
}

func TestBackupAndRestoreCommands(t *testing.T) {
	in := newInstall(t)
	in.mustLast(`^site_`, "sites", "create", "--name", "Before backup")
	os.WriteFile(in.config, append(mustRead(t, in.config), []byte("smtp:\n  password: hunter2\n")...), 0o600)
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	if got := in.mustLast(`\.tar\.gz$`, "backup", "--out", out); got != out {
		t.Fatalf("backup printed %q, want %q", got, out)
	}
	target := filepath.Join(t.TempDir(), "restored")
	code, stdout, errOut := in.run("restore", "--from", out, "--data", target)
	if code != 0 {
		t.Fatalf("restore: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(target, "index.bleve")); err != nil || !strings.Contains(stdout, "indexed") {
		t.Fatalf("restore must rebuild the search index (%v):\n%s", err, stdout)
	}
	conf := string(mustRead(t, filepath.Join(target, "config.from-backup.yaml")))
	if strings.Contains(conf, "hunter2") || !strings.Contains(conf, "left out") {
		t.Fatalf("secrets must stay out of a backup without --with-secrets:\n%s", conf)
	}
	code, stdout, _ = in.run("sites", "list", "--data", target)
	if code != 0 || !strings.Contains(stdout, "Before backup") {
		t.Fatalf("restored sites (exit %d):\n%s", code, stdout)
	}
	if code, _, errOut := in.run("restore", "--from", out, "--data", target); code == 0 || !strings.Contains(errOut, "--force") {
		t.Fatalf("restore over data: exit %d, %q", code, errOut)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readySource adds a text source with key and waits until serve's sync
// worker has indexed it, polling the real server.
func (in *install) readySource(key, name, content string) string {
	in.t.Helper()
	b, _ := json.Marshal(map[string]string{"type": "text", "name": name, "content": content})
	code, body := in.call("POST", "/v1/knowledge-sources", key, string(b))
	if code != 201 {
		in.t.Fatalf("create source: %d %s", code, body)
	}
	id := regexp.MustCompile(`src_[A-Za-z0-9]+`).FindString(body)
	// A served process shows its workers only through the API: no signal to wait on.
	testenv.Eventually(in.t, "the sync worker syncing the source", func() bool {
		_, body = in.call("GET", "/v1/knowledge-sources/"+id, key, "")
		return strings.Contains(body, `"status": "ready"`)
	})
	return id
}

// restore refuses a data folder that a running serve holds, even with
// --force, and says why; once serve stops, it restores.
func TestRestoreRefusesWhileServing(t *testing.T) {
	in := newInstall(t)
	in.mustLast(`^site_`, "sites", "create", "--name", "Before backup")
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	in.mustLast(`\.tar\.gz$`, "backup", "--out", out)
	srv := in.serve()
	code, _, errOut := in.run("restore", "--from", out, "--force")
	if code == 0 || !strings.Contains(errOut, "stop chatsvc serve") {
		srv.stop(t)
		t.Fatalf("restore while serving: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(in.data, "chatsvc.db")); err != nil {
		t.Fatalf("the refused restore touched the data folder: %v", err)
	}
	srv.stop(t)
	if code, _, errOut := in.run("restore", "--from", out, "--force"); code != 0 {
		t.Fatalf("restore after serve stopped: exit %d, %s", code, errOut)
	}
}
