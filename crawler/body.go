package crawler

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// tooLargeError is the error of reading a body past its limit, counted in
// decompressed bytes: a small gzip file may inflate a thousandfold.
type tooLargeError struct{ limit int }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("larger than %d bytes once decompressed", e.limit)
}

// limitKey is the context key of a request's body limit; requests without
// one (pages, robots.txt) get the page limit.
type limitKey struct{}

func withBodyLimit(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, limitKey{}, n)
}

// boundedBodies is the crawler's transport. It decompresses gzip bodies
// itself, where colly would otherwise inflate them after its own size
// limit, and it fails the read of any body past its limit, so no response
// costs more memory than the limit whatever its compression.
type boundedBodies struct {
	next      http.RoundTripper
	pageLimit int
}

func (b boundedBodies) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := b.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	limit, ok := r.Context().Value(limitKey{}).(int)
	if !ok {
		limit = b.pageLimit
	}
	body := res.Body
	if !res.Uncompressed && gzipped(res, r) {
		// Go's transport inflated nothing: the encoding was not its own
		// plain "gzip" answer, or the file itself is gzip (sitemap.xml.gz).
		body = &inflate{wire: res.Body}
		res.Header.Del("Content-Encoding")
		res.Header.Del("Content-Length")
		res.ContentLength, res.Uncompressed = -1, true // colly must not inflate again
	}
	res.Body = &limited{body: body, left: limit, limit: limit}
	return res, nil
}

// CloseIdleConnections lets the crawl close its client's connections.
func (b boundedBodies) CloseIdleConnections() {
	if c, ok := b.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// gzipped reports whether the body is gzip data by colly's own rule:
// announced by Content-Encoding or Content-Type, or named *.xml.gz.
func gzipped(res *http.Response, r *http.Request) bool {
	enc := strings.ToLower(res.Header.Get("Content-Encoding"))
	return strings.Contains(enc, "gzip") ||
		enc == "" && strings.Contains(strings.ToLower(res.Header.Get("Content-Type")), "gzip") ||
		strings.HasSuffix(strings.ToLower(r.URL.Path), ".xml.gz")
}

// inflate decompresses a gzip body, opening the stream on the first read so
// that RoundTrip never waits for the body.
type inflate struct {
	wire io.ReadCloser
	gz   *gzip.Reader
}

func (z *inflate) Read(p []byte) (int, error) {
	if z.gz == nil {
		gz, err := gzip.NewReader(z.wire)
		if err != nil {
			return 0, fmt.Errorf("not valid gzip data: %w", err)
		}
		z.gz = gz
	}
	return z.gz.Read(p)
}

func (z *inflate) Close() error { return z.wire.Close() }

// limited fails a read once more than limit bytes have come.
type limited struct {
	body        io.ReadCloser
	left, limit int
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &tooLargeError{l.limit}
	}
	if len(p) > l.left+1 {
		p = p[:l.left+1] // one byte more than allowed tells an oversized body
	}
	n, err := l.body.Read(p)
	l.left -= n
	if l.left < 0 {
		return n - 1, &tooLargeError{l.limit}
	}
	return n, err
}

func (l *limited) Close() error { return l.body.Close() }

// isTooLarge reports whether err is a body read past its limit.
func isTooLarge(err error) bool {
	var e *tooLargeError
	return errors.As(err, &e)
}
