package cli_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestMembersSetPassword sets a member's password from the CLI, while
// serve runs, and signs in to the dashboard with it.
func TestMembersSetPassword(t *testing.T) {
	in := newInstall(t)
	id := in.mustLast(`^mem_\w+$`, "members", "create", "--email", "ops@example.com", "--name", "Ops")
	s := in.serve()
	defer s.stop(t)
	signIn := func(password string) int {
		t.Helper()
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.PostForm("http://"+in.addr+"/app/sign-in", url.Values{"email": {"ops@example.com"}, "password": {password}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := signIn("a long passphrase"); got != http.StatusUnauthorized {
		t.Fatalf("sign-in without a password set: %d", got)
	}
	if got := in.mustLast(`^mem_`, "members", "set-password", "--email", "OPS@example.com", "--password", "a long passphrase"); got != id {
		t.Errorf("set-password printed %q, want %s", got, id)
	}
	if got := signIn("a long passphrase"); got != http.StatusSeeOther {
		t.Errorf("sign-in with the new password: %d", got)
	}
	for _, args := range [][]string{
		{"members", "set-password", "--email", "nobody@example.com", "--password", "a long passphrase"},
		{"members", "set-password", "--email", "ops@example.com", "--password", "short"},
		{"members", "set-password", "--email", "ops@example.com", "--password", strings.Repeat("long ", 15)},
		{"members", "create", "--email", "new@example.com", "--name", "New", "--password", strings.Repeat("long ", 15)},
	} {
		if code, _, errOut := in.run(args...); code == 0 || !strings.Contains(errOut, "password") && !strings.Contains(errOut, "member") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if _, out, _ := in.run("members", "list"); !strings.Contains(out, "yes") {
		t.Errorf("members list does not show the password:\n%s", out)
	}
}
