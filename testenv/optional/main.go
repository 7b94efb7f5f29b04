// Command optional prints one line naming the tests this machine skips for
// want of an optional dependency (headless Chromium, the documentation the
// assistant's evaluation crawls) and how to install it, and nothing when
// every optional test can run. With CI set, a missing dependency is an
// error: it says so and exits 1.
//
// The README's test command runs it after go test ./..., whose package list
// mode shows nothing of a passing package's output, fresh or cached.
package main

import (
	"fmt"
	"io"
	"os"

	"chatsvc/testenv"
)

func main() { os.Exit(report(os.Stdout, os.Stderr, testenv.SkipLine(), testenv.InCI())) }

// report writes the skip line, if there is one, and returns the exit code:
// 1 when something is missing in CI.
func report(stdout, stderr io.Writer, line string, ci bool) int {
	switch {
	case line == "":
		return 0
	case ci:
		fmt.Fprintln(stderr, line+", and CI must run them all")
		return 1
	default:
		fmt.Fprintln(stdout, line)
		return 0
	}
}
