package replica_test

import (
	"os"
	"testing"

	"chatsvc/testenv"
)

// TestMain runs the package's tests, most of which wait for a second to
// pass (the replica's timestamps have a second's precision), side by side.
// AWS_CA_BUNDLE is cleared for the whole package: Litestream's S3 client
// refuses it (it brings its own HTTP client), the S3 server the tests use
// is plain HTTP, and a test that cleared it for itself could not run in
// parallel.
func TestMain(m *testing.M) {
	os.Unsetenv("AWS_CA_BUNDLE")
	testenv.WaitSideBySide(6)
	os.Exit(m.Run())
}
