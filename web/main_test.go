package web_test

import (
	"testing"

	"chatsvc/testenv"
)

// TestMain makes the package's cached results depend on Chromium being
// installed, so that installing it runs the browser tests instead of
// replaying a run that skipped them.
func TestMain(m *testing.M) { testenv.Main(m) }
