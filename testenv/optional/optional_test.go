package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"chatsvc/testenv"
)

// TestMain steps into the dependencies' folders first, so that installing
// one runs this check again instead of replaying its cached result.
func TestMain(m *testing.M) { testenv.Main(m) }

// TestSkippedOnThisMachine prints one line naming the optional tests this
// machine skips and why, and fails in CI. A plain `go test ./...` shows
// nothing of a passing package's output, so the line also goes to the
// terminal itself, when there is one (elsewhere the command this package
// builds prints it); and while something is missing this check is never
// taken from the cache (it steps into its own build folder, which the next
// run will not have), so the line is printed on every run, not only the
// first.
func TestSkippedOnThisMachine(t *testing.T) {
	line := testenv.SkipLine()
	if line == "" {
		t.Log("every optional test can run on this machine")
		return
	}
	if testenv.InCI() {
		t.Fatal(line + ", and CI must run them all")
	}
	fmt.Println(line)
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		fmt.Fprintln(tty, line)
		tty.Close()
	}
	if here, err := os.Getwd(); err == nil {
		os.Chdir(filepath.Dir(os.Args[0]))
		os.Chdir(here)
	}
}

// TestReport: the command prints the skip line and succeeds, fails in CI
// with the line on stderr, and is silent when nothing is missing.
func TestReport(t *testing.T) {
	const line = "chatsvc: skipped browser tests (no /usr/bin/chromium); apt-get install -y chromium to run them"
	for _, c := range []struct {
		line           string
		ci             bool
		code           int
		stdout, stderr string
	}{
		{"", false, 0, "", ""},
		{"", true, 0, "", ""},
		{line, false, 0, line + "\n", ""},
		{line, true, 1, "", line + ", and CI must run them all\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := report(&stdout, &stderr, c.line, c.ci)
		if code != c.code || stdout.String() != c.stdout || stderr.String() != c.stderr {
			t.Errorf("report(%q, CI %v) = %d, stdout %q, stderr %q; want %d, %q, %q",
				c.line, c.ci, code, stdout.String(), stderr.String(), c.code, c.stdout, c.stderr)
		}
	}
}
