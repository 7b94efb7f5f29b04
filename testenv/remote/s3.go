package remote

import (
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// S3 starts an S3-compatible server in memory with an empty bucket of the
// given name and returns its endpoint URL; it stops when the test ends.
// AWS_CA_BUNDLE is cleared for the test: Litestream's S3 client refuses it
// (it brings its own HTTP client), and this server is plain HTTP anyway.
func S3(tb testing.TB, bucket string) string {
	tb.Helper()
	if t, ok := tb.(*testing.T); ok {
		t.Setenv("AWS_CA_BUNDLE", "")
	}
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	tb.Cleanup(srv.Close)
	return srv.URL
}
