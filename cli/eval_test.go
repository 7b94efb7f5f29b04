package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEvalScoresARunningServer adds a text source to a served fresh data
// dir, then scores the assistant with `chatsvc eval`: one question answered
// from the page, one the pages cannot answer.
func TestEvalScoresARunningServer(t *testing.T) {
	in := newInstall(t)
	srv := in.serve()
	defer srv.stop(t)
	key := regexp.MustCompile(`csk_test_[A-Za-z0-9]+`).FindString(srv.out.String())
	in.readySource(key, "Opening hours", "# Opening hours\nThe shop is open from nine to five, Monday to Friday.")
	file := filepath.Join(t.TempDir(), "questions.yaml")
	os.WriteFile(file, []byte(`- q: When is the shop open?
  expect: [Opening hours]
- q: Do you sell bicycles?
  expect: none
- q: Do you deliver to Norway?
  expect: [/shipping]
`), 0o600)

	code, out, errOut := in.run("eval", file, "--key", key)
	if code != 0 || last(out) != "any-source 1/2, first-source 1/2, abstain 1/1" {
		t.Fatalf("eval: exit %d, stderr %q\n%s", code, errOut, out)
	}
	for _, want := range []string{"first    When is the shop open?", "1. Opening hours 1.00", "abstain  Do you sell bicycles?", "miss     Do you deliver to Norway?"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "<>") {
		t.Errorf("a text source's empty URL is printed:\n%s", out)
	}
	// Below a minimum: exit status 1, the summary still printed last.
	code, out, errOut = in.run("eval", file, "--key", key, "--url", "http://"+in.addr, "--min-any", "0.9")
	if code != 1 || last(out) != "any-source 1/2, first-source 1/2, abstain 1/1" || !strings.Contains(errOut, "any-source 0.50 < 0.90") {
		t.Fatalf("eval with a minimum: exit %d, stderr %q\n%s", code, errOut, out)
	}
	// A bad key, a missing file, a malformed file and a bad minimum fail with a reason.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("- q: Hours?\n  expect: maybe\n"), 0o600)
	for _, args := range [][]string{
		{"eval", file, "--key", "csk_test_nope"},
		{"eval", filepath.Join(t.TempDir(), "missing.yaml"), "--key", key},
		{"eval", bad, "--key", key},
		{"eval", file},
		{"eval", file, "--key", key, "--min-first", "90"},
	} {
		if code, _, errOut := in.run(args...); code != 1 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
