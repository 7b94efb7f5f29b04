package assistant_test

import (
	"testing"

	"chatsvc/testenv"
)

// TestMain makes the package's cached results depend on the evaluation's
// corpora being installed, so that installing one runs the evaluation
// instead of replaying a run that skipped it.
func TestMain(m *testing.M) { testenv.Main(m) }
