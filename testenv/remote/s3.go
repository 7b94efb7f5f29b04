package remote

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// S3 starts an S3-compatible server in memory with an empty bucket of the
// given name and returns its endpoint URL; it stops when the test ends.
// AWS_CA_BUNDLE, when set, is cleared for the test, which therefore cannot
// run in parallel: Litestream's S3 client refuses it (it brings its own
// HTTP client), and this server is plain HTTP anyway. A package whose
// tests run in parallel clears it in TestMain.
func S3(tb testing.TB, bucket string) string {
	tb.Helper()
	if _, set := os.LookupEnv("AWS_CA_BUNDLE"); set {
		if t, ok := tb.(*testing.T); ok {
			t.Setenv("AWS_CA_BUNDLE", "")
		}
	}
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	tb.Cleanup(srv.Close)
	return srv.URL
}
