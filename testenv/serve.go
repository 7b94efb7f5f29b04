package testenv

import (
	"bufio"
	"io"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// listening is the line `chatsvc serve` logs once it accepts connections.
var listening = regexp.MustCompile(`chatsvc listening.* addr=(\S+)`)

// startPatience is how long a process may take to listen: a restart after
// SIGKILL recovers the log and opens the index, which under the race
// detector beside the other packages' tests has taken longer than Patience.
const startPatience = 6 * Patience

// StartServe starts cmd, a process running `chatsvc serve` on a port the
// system picks, and returns the address it logs once it listens. A process
// still running when the test ends is killed.
func StartServe(tb testing.TB, cmd *exec.Cmd) string {
	tb.Helper()
	logs, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	select {
	case addr := <-Scan(logs, listening):
		return addr
	case <-time.After(startPatience):
		tb.Fatal("serve did not start listening")
		return ""
	}
}

// Scan sends the first match of re in r (its first group, if it has one)
// on the channel it returns, and reads r to its end so the process writing
// it never blocks on a full pipe.
func Scan(r io.Reader, re *regexp.Regexp) <-chan string {
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sent := false; sc.Scan(); {
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[len(m)-1]
				sent = true
			}
		}
	}()
	return found
}
