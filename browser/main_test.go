package browser_test

import (
	"os"
	"testing"

	"chatsvc/testenv"
)

// TestMain makes the package's cached results depend on Chromium being
// installed, so that installing it runs the browser tests instead of
// replaying a run that skipped them, and stops the browsers the tests share.
func TestMain(m *testing.M) {
	testenv.WatchOptional()
	code := m.Run()
	stopBrowsers()
	os.Exit(code)
}
