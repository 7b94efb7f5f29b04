package crawler_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"chatsvc/crawler"
)

// bombSize is what the test bombs inflate to; the limits tests set are far
// below it.
const bombSize = 64 << 20

// bomb is a small gzip stream that inflates to bombSize bytes: head, spaces,
// then tail, so that read whole it is a valid document.
func bomb(t *testing.T, head, tail string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write([]byte(head))
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for n := len(head) + len(tail); n < bombSize; n += len(spaces) {
		w.Write(spaces)
	}
	w.Write([]byte(tail))
	w.Close()
	return buf.Bytes()
}

// served answers with body and the given headers.
func served(body []byte, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Write(body)
	}
}

// allocated returns the bytes allocated while fn ran: a body read whole
// would cost at least its inflated size.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestCompressedBodiesAreBoundedOnceInflated(t *testing.T) {
	t.Parallel()
	routes := map[string]http.HandlerFunc{"/a": page("A", "Page A.")}
	s := newSite(t, routes)
	sitemap := bomb(t, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+
		s.URL+`/a</loc></url>`, `</urlset>`)
	html := bomb(t, "<html><head><title>Bomb</title></head><body><main><p>Inflated.</p>", "</main></body></html>")
	routes["/sitemap.xml.gz"] = served(sitemap, "Content-Type", "application/gzip")
	routes["/sitemap.xml"] = served(sitemap, "Content-Type", "application/xml", "Content-Encoding", "gzip")
	routes["/sitemap-x.xml"] = served(sitemap, "Content-Type", "application/xml", "Content-Encoding", "x-gzip")
	routes["/index.xml"] = served([]byte(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>`+s.URL+`/small.xml</loc></sitemap><sitemap><loc>`+s.URL+`/sitemap.xml.gz</loc></sitemap></sitemapindex>`),
		"Content-Type", "application/xml")
	routes["/small.xml"] = served(urlset(s.URL+"/a"), "Content-Type", "application/xml")
	routes["/page"] = served(html, "Content-Type", "text/html", "Content-Encoding", "gzip")
	routes["/page-x"] = served(html, "Content-Type", "text/html", "Content-Encoding", "x-gzip")
	routes["/page.xml.gz"] = served(html, "Content-Type", "text/html")

	robots := bomb(t, "User-agent: *\n", "Allow: /\n")
	robotsSite := func(encoding string) string {
		return newSite(t, map[string]http.HandlerFunc{"/a": page("A", "Page A."),
			"/robots.txt": served(robots, "Content-Type", "text/plain", "Content-Encoding", encoding)}).URL + "/a"
	}
	robotsGzip, robotsXGzip := robotsSite("gzip"), robotsSite("x-gzip")

	for _, c := range []struct{ kind, url string }{
		{crawler.KindSitemap, s.URL + "/sitemap.xml.gz"},
		{crawler.KindSitemap, s.URL + "/sitemap.xml"},   // inflated by Go's transport
		{crawler.KindSitemap, s.URL + "/sitemap-x.xml"}, // an encoding the transport leaves alone
		{crawler.KindSitemap, s.URL + "/index.xml"},     // one bomb among the children fails the source
		{crawler.KindURL, s.URL + "/page"},
		{crawler.KindURL, s.URL + "/page-x"},
		{crawler.KindURL, s.URL + "/page.xml.gz"},
		{crawler.KindURL, robotsGzip},  // robots.txt inflated by Go's transport
		{crawler.KindURL, robotsXGzip}, // robots.txt in another encoding
	} {
		t.Run(c.kind+strings.ReplaceAll(c.url, "/", "_"), func(t *testing.T) {
			o := options()
			o.MaxPageBytes, o.MaxSitemapBytes = 64<<10, 1<<20
			hitsBefore := s.hit("/a")
			var err error
			if n := allocated(func() { _, err = crawler.Crawl(context.Background(), o, c.kind, c.url) }); n > bombSize/4 {
				t.Errorf("the crawl allocated %d MiB: the body was inflated past its limit", n>>20)
			}
			var f *crawler.Failure
			if !errors.As(err, &f) || !strings.Contains(f.Reason, "bytes once decompressed") {
				t.Fatalf("err %v, want a failure naming the size limit", err)
			}
			if c.kind == crawler.KindSitemap && s.hit("/a") != hitsBefore {
				t.Error("a page was read although its sitemap failed")
			}
		})
	}
}

// TestCrawlLeavesNoConnectionOpen: each crawl has its own client, so its
// pooled connections must be closed when it ends.
func TestCrawlLeavesNoConnectionOpen(t *testing.T) {
	t.Parallel()
	var open atomic.Int32
	closed := make(chan struct{}, 16)
	srv := httptest.NewUnstartedServer(page("Home", "Home."))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			open.Add(1)
		case http.StateClosed, http.StateHijacked:
			closed <- struct{}{}
		}
	}
	srv.Start()
	defer srv.Close()
	if _, err := crawler.Crawl(context.Background(), options(), crawler.KindURL, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	for n := open.Load(); n > 0; n-- {
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d of %d connections still open after the crawl", n, open.Load())
		}
	}
}
