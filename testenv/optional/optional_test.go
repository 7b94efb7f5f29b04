package optional

import (
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
// machine skips and why. A plain `go test ./...` shows a passing package's
// output only on a terminal, so the line also goes to the terminal itself;
// and while something is missing this check is never taken from the cache
// (it steps into its own build folder, which the next run will not have), so
// the line is printed on every run, not only the first.
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
