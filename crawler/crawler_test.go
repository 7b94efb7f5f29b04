package crawler_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chatsvc/crawler"
)

// site is a local web site that counts the requests it serves, by path.
type site struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newSite(t *testing.T, routes map[string]http.HandlerFunc) *site {
	t.Helper()
	s := &site{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		h, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func html(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

func page(title, text string, links ...string) http.HandlerFunc {
	var a strings.Builder
	for _, l := range links {
		fmt.Fprintf(&a, `<a href="%s">link</a> `, l)
	}
	return html(fmt.Sprintf(`<!doctype html><html><head><title>%s</title></head><body>
<nav><a href="/">Home</a> Navigation menu</nav><main><h1>%s</h1><p>%s</p>%s</main>
<footer>Copyright footer</footer></body></html>`, title, title, text, a.String()))
}

func serve(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write(body)
	}
}

// options are the settings tests crawl local sites with.
func options() crawler.Options {
	return crawler.Options{MaxPages: 100, MaxDepth: 3, RespectRobots: true, Parallelism: 4,
		Timeout: 5 * time.Second, MaxPageBytes: 64 << 10, AllowPrivate: true}
}

func urls(res *crawler.Result, base string) []string {
	var out []string
	for _, p := range res.Pages {
		out = append(out, strings.TrimPrefix(p.URL, base))
	}
	return out
}

func TestCrawlURLSource(t *testing.T) {
	t.Parallel()
	other := newSite(t, map[string]http.HandlerFunc{"/elsewhere": page("Elsewhere", "Another host.")})
	about := `<html><head><title>About</title><link rel="canonical" href="/about"></head>
		<body><main><h2>Team</h2><p>We are a small team.</p><a href="/">home</a></main></body></html>`
	var a *site
	a = newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": serve("text/plain", []byte("User-agent: *\nDisallow: /private\n")),
		"/": page("Home", "Welcome to the help centre.", "/about", "/about#team", "/dup", "/docs/", "/loop-a",
			"/missing", "/file.pdf", "/big", "/old", "/private", "/noindex", "/notes.txt", "#top",
			"mailto:help@example.com", "javascript:void(0)", "/away", "/rel"),
		"/rel": html(`<html><head><title>Rel</title></head><body><main><p>Links the crawler is asked not to follow.</p>
			<a rel="nofollow" href="/nofollowed">x</a></main></body></html>`),
		"/nofollowed": page("Nofollowed", "Never requested."),
		"/about":      html(about),
		"/dup": html(strings.Replace(strings.Replace(about, "<title>About</title>", "<title>About (copy)</title>", 1),
			"small team", "small team (copy)", 1)),
		"/away": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
		},
		"/docs/":    page("Docs", "Documentation index.", "/docs/1"),
		"/docs/1":   page("Docs 1", "First level.", "/docs/2"),
		"/docs/2":   page("Docs 2", "Second level.", "/docs/3"),
		"/docs/3":   page("Docs 3", "Third level, too deep.", "/docs/4"),
		"/loop-a":   page("Loop A", "Loop page A.", "/loop-b", "/"),
		"/loop-b":   page("Loop B", "Loop page B.", "/loop-a", "/"),
		"/file.pdf": serve("application/pdf", []byte("%PDF-1.4 not a page")),
		"/big":      page("Big", strings.Repeat("Too large. ", 8000)),
		"/old":      func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusMovedPermanently) },
		"/new":      page("New", "The page that moved.", "/old"),
		"/private":  page("Private", "Robots say no."),
		"/noindex": html(`<html><head><title>Hidden</title><meta name="robots" content="noindex"></head>
			<body><p>Not for the index.</p><a href="/">home</a></body></html>`),
		"/notes.txt": serve("text/plain; charset=utf-8", []byte("Plain notes.\n\nSecond paragraph.")),
	})
	// A link across hosts: the other server must never be asked.
	a.Config.Handler = wrapLink(a.Config.Handler, "/", other.URL+"/elsewhere")

	res, err := crawler.Crawl(context.Background(), options(), crawler.KindURL, a.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/", "/about", "/docs/", "/docs/1", "/docs/2", "/loop-a", "/loop-b", "/new", "/notes.txt", "/rel"}
	if got := urls(res, a.URL); !reflect.DeepEqual(got, want) {
		t.Fatalf("pages %v, want %v\nskipped: %v", got, want, res.Skipped)
	}
	for path, n := range map[string]int{"/private": 0, "/nofollowed": 0, "/docs/3": 0, "/robots.txt": 1, "/": 1, "/loop-a": 1} {
		if got := a.hit(path); got != n {
			t.Errorf("%s requested %d times, want %d", path, got, n)
		}
	}
	// /dup names /about as its canonical URL: /about is indexed with its
	// own title and text, whichever of the two was read first.
	if why := res.Skipped[a.URL+"/dup"]; why != "its canonical URL is "+a.URL+"/about" {
		t.Errorf("/dup skipped for %q", why)
	}
	for _, p := range res.Pages {
		if p.URL == a.URL+"/about" && (p.Title != "About" || strings.Contains(p.Chunks[0].Text, "copy")) {
			t.Errorf("/about indexed as %q: %+v", p.Title, p.Chunks)
		}
	}
	if other.hit("/elsewhere") != 0 {
		t.Error("the crawler left the site")
	}
	for _, why := range []string{"/missing", "/file.pdf", "/big", "/away"} {
		if res.Skipped[a.URL+why] == "" {
			t.Errorf("%s: no reason recorded in %v", why, res.Skipped)
		}
	}
	home := res.Pages[0]
	if home.Title != "Home" || len(home.Chunks) != 1 || home.Chunks[0].Heading != "Home" ||
		!strings.Contains(home.Chunks[0].Text, "Welcome to the help centre.") {
		t.Fatalf("home page %+v", home)
	}
	for _, p := range res.Pages {
		for _, c := range p.Chunks {
			if strings.Contains(c.Text, "Navigation menu") || strings.Contains(c.Text, "Copyright footer") {
				t.Errorf("%s: boilerplate kept: %q", p.URL, c.Text)
			}
		}
	}
	if res.Pages[1].Title != "About" && res.Pages[1].Title != "About (copy)" || res.Pages[1].Chunks[0].Heading != "Team" {
		t.Errorf("about page %+v", res.Pages[1])
	}
}

// wrapLink adds a link to href on the page at path.
func wrapLink(h http.Handler, path, href string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
		w.Write(bytes.Replace(rec.Body.Bytes(), []byte("</main>"), []byte(`<a href="`+href+`">x</a></main>`), 1))
	})
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func urlset(locs ...string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>", l)
	}
	b.WriteString("</urlset>")
	return []byte(b.String())
}

func TestCrawlSitemapIndexWithGzippedChild(t *testing.T) {
	t.Parallel()
	other := newSite(t, map[string]http.HandlerFunc{"/x": page("X", "Other host.")})
	var s *site
	routes := map[string]http.HandlerFunc{
		"/a":      page("A", "Page A.", "/hidden"),
		"/b":      page("B", "Page B."),
		"/c":      page("C", "Page C."),
		"/hidden": page("Hidden", "Only linked, not listed."),
	}
	s = newSite(t, routes)
	routes["/sitemap_index.xml"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/sitemap-pages.xml</loc></sitemap><sitemap><loc>%[1]s/sitemap-more.xml.gz</loc></sitemap>
</sitemapindex>`, s.URL)
	}
	routes["/sitemap-pages.xml"] = func(w http.ResponseWriter, r *http.Request) {
		serve("application/xml", urlset(s.URL+"/a", s.URL+"/b", s.URL+"/missing", other.URL+"/x"))(w, r)
	}
	routes["/sitemap-more.xml.gz"] = func(w http.ResponseWriter, r *http.Request) {
		serve("application/gzip", gz(urlset(s.URL+"/c", s.URL+"/a")))(w, r)
	}

	res, err := crawler.Crawl(context.Background(), options(), crawler.KindSitemap, s.URL+"/sitemap_index.xml")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := urls(res, s.URL), []string{"/a", "/b", "/c"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pages %v, want %v\nskipped: %v", got, want, res.Skipped)
	}
	if s.hit("/hidden") != 0 || other.hit("/x") != 0 || s.hit("/a") != 1 {
		t.Errorf("hits: hidden %d, other host %d, /a %d", s.hit("/hidden"), other.hit("/x"), s.hit("/a"))
	}
}

func TestFirstURLMayMoveTheSite(t *testing.T) {
	t.Parallel()
	help := newSite(t, map[string]http.HandlerFunc{
		"/":    page("Help", "Help home.", "/faq"),
		"/faq": page("FAQ", "Questions."),
	})
	var old *site
	old = newSite(t, map[string]http.HandlerFunc{
		"/help": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, help.URL+"/", http.StatusMovedPermanently)
		},
	})
	res, err := crawler.Crawl(context.Background(), options(), crawler.KindURL, old.URL+"/help")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := urls(res, help.URL), []string{"/", "/faq"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pages %v, want %v", got, want)
	}
}

func TestPagesInOtherCharsetsAreReadAsUTF8(t *testing.T) {
	t.Parallel()
	latin1 := []byte("<html><head><title>Caf\xe9</title></head><body><main><p>Le caf\xe9 ouvre \xe0 neuf heures, " +
		"le d\xe9jeuner est servi \xe0 midi et la client\xe8le est pri\xe9e de r\xe9server.</p></main></body></html>")
	s := newSite(t, map[string]http.HandlerFunc{
		"/named":   serve("text/html; charset=iso-8859-1", latin1),
		"/unnamed": serve("text/html", latin1),
	})
	for _, path := range []string{"/named", "/unnamed"} {
		res, err := crawler.Crawl(context.Background(), options(), crawler.KindURL, s.URL+path)
		if err != nil {
			t.Fatal(err)
		}
		if p := res.Pages[0]; p.Title != "Café" || !strings.Contains(p.Chunks[0].Text, "déjeuner est servi à midi") {
			t.Errorf("%s: %q %q", path, p.Title, p.Chunks[0].Text)
		}
	}
}

func TestCrawlStopsAtMaxPages(t *testing.T) {
	t.Parallel()
	routes := map[string]http.HandlerFunc{}
	routes["/"] = page("Home", "Start.", "/1")
	for i := 1; i < 10; i++ {
		routes[fmt.Sprintf("/%d", i)] = page(fmt.Sprint("Page ", i), fmt.Sprint("Text ", i), fmt.Sprintf("/%d", i+1))
	}
	s := newSite(t, routes)
	o := options()
	o.MaxPages, o.MaxDepth = 3, 50
	res, err := crawler.Crawl(context.Background(), o, crawler.KindURL, s.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := urls(res, s.URL), []string{"/", "/1", "/2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pages %v, want %v", got, want)
	}
	if s.hit("/3") != 0 {
		t.Error("a page beyond max_pages was requested")
	}
}

func TestCrawlKeepsToParallelismPerHost(t *testing.T) {
	t.Parallel()
	var inFlight, most atomic.Int32
	routes := map[string]http.HandlerFunc{}
	var links []string
	for i := 0; i < 12; i++ {
		links = append(links, fmt.Sprintf("/p%d", i))
	}
	for i, l := range links {
		h := page("P", fmt.Sprint("Page ", i))
		routes[l] = func(w http.ResponseWriter, r *http.Request) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(5 * time.Millisecond) // keep the request open so overlaps show
			h(w, r)
		}
	}
	routes["/"] = page("Home", "Home.", links...)
	s := newSite(t, routes)
	o := options()
	o.Parallelism = 2
	res, err := crawler.Crawl(context.Background(), o, crawler.KindURL, s.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 13 {
		t.Fatalf("%d pages, want 13", len(res.Pages))
	}
	if m := most.Load(); m > 2 {
		t.Fatalf("%d requests in flight at once, want at most 2", m)
	}
}

func TestPrivateAddressesAreRefused(t *testing.T) {
	t.Parallel()
	target := newSite(t, map[string]http.HandlerFunc{"/": page("Internal", "Internal page.")})
	// front stands in for a public site: the guard lets its exact address
	// through, and so checks only where it leads.
	front := newSite(t, map[string]http.HandlerFunc{
		"/":    func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, target.URL+"/", http.StatusFound) },
		"/hop": func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusFound) },

		"/sitemap":  serve("application/xml", urlset()),
		"/page.xml": serve("application/xml", urlset()),
	})
	// A site whose robots.txt lives elsewhere: followed, and guarded too.
	robots := newSite(t, map[string]http.HandlerFunc{
		"/": page("Public", "A public page."),
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/robots.txt", http.StatusFound)
		},
	})
	exempt := []netip.AddrPort{netip.MustParseAddrPort(strings.TrimPrefix(front.URL, "http://")),
		netip.MustParseAddrPort(strings.TrimPrefix(robots.URL, "http://"))}
	_, port, _ := strings.Cut(strings.TrimPrefix(target.URL, "http://"), ":")

	cases := []struct {
		name, url string
	}{
		{"address", target.URL + "/"},
		{"host name resolving to 127.0.0.1", "http://localhost:" + port + "/"},
		{"redirect", front.URL + "/"},
		{"two redirects", front.URL + "/hop"},
		{"robots.txt redirect", robots.URL + "/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := options()
			o.AllowPrivate = false
			o.Exempt = exempt
			res, err := crawler.Crawl(context.Background(), o, crawler.KindURL, c.url)
			var f *crawler.Failure
			if !errors.As(err, &f) {
				t.Fatalf("result %+v, err %v; want a failure", res, err)
			}
			if !strings.Contains(f.Reason, "private or local network address") {
				t.Fatalf("reason %q does not say why", f.Reason)
			}
		})
	}
	if robots.hit("/") != 0 {
		t.Error("a page was read although its robots.txt could not be")
	}
	if n := target.hit("/") + target.hit("/robots.txt"); n != 0 {
		t.Fatalf("the private server was reached %d times", n)
	}
}

func TestUnreachableStartFailsWithReason(t *testing.T) {
	t.Parallel()
	s := newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": serve("text/plain", []byte("User-agent: *\nDisallow: /\n")),
		"/doc.pdf":    serve("application/pdf", []byte("%PDF")),
	})
	for _, c := range []struct {
		url, kind, robots, reason string
	}{
		{s.URL + "/missing", crawler.KindURL, "no", "HTTP 404"},
		{s.URL + "/doc.pdf", crawler.KindURL, "no", "not HTML or text"},
		{s.URL + "/", crawler.KindURL, "yes", "robots.txt"},
		{s.URL + "/nothing.xml", crawler.KindSitemap, "no", "HTTP 404"},
		{"ftp://example.com/", crawler.KindURL, "no", "not an http(s) URL"},
	} {
		o := options()
		o.RespectRobots = c.robots == "yes"
		_, err := crawler.Crawl(context.Background(), o, c.kind, c.url)
		var f *crawler.Failure
		if !errors.As(err, &f) || !strings.Contains(f.Reason, c.reason) {
			t.Errorf("%s (%s): %v, want a failure mentioning %q", c.url, c.kind, err, c.reason)
		}
	}
}

func TestCanceledCrawlReportsTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	s := newSite(t, map[string]http.HandlerFunc{
		"/": func(w http.ResponseWriter, r *http.Request) { cancel(); page("Home", "Home.")(w, r) },
	})
	_, err := crawler.Crawl(ctx, options(), crawler.KindURL, s.URL+"/")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}

// pacedSite serves a home page linking to n pages and notes when each
// page request arrives and how many were in flight at once.
func pacedSite(t *testing.T, robots string, n int) (*site, func() ([]time.Time, int32)) {
	t.Helper()
	var mu sync.Mutex
	var arrivals []time.Time
	var inFlight, most atomic.Int32
	routes := map[string]http.HandlerFunc{"/robots.txt": serve("text/plain", []byte(robots))}
	var links []string
	for i := 0; i < n; i++ {
		links = append(links, fmt.Sprintf("/p%d", i))
	}
	routes["/"] = page("Home", "Home.", links...)
	for i, l := range append([]string{"/"}, links...) {
		h := routes[l]
		if h == nil {
			h = page("P", fmt.Sprint("Page ", i))
		}
		routes[l] = func(w http.ResponseWriter, r *http.Request) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			mu.Lock()
			arrivals = append(arrivals, time.Now())
			mu.Unlock()
			time.Sleep(2 * time.Millisecond) // keep the request open so overlaps show
			h(w, r)
		}
	}
	return newSite(t, routes), func() ([]time.Time, int32) {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(arrivals), most.Load()
	}
}

func TestOwnSiteIsCrawledWithoutPause(t *testing.T) {
	t.Parallel()
	s, seen := pacedSite(t, "User-agent: *\nDisallow: /p3\n", 6)
	o := options()
	o.Delay, o.Parallelism = time.Hour, 1 // polite, this crawl would not end
	own := o.ForOwnSite()
	if own.Delay != 0 || own.Parallelism != runtime.NumCPU() {
		t.Fatalf("own site: delay %v, parallelism %d; want 0 and %d", own.Delay, own.Parallelism, runtime.NumCPU())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := crawler.Crawl(ctx, own, crawler.KindURL, s.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 6 {
		t.Fatalf("%d pages, want 6 (robots.txt still keeps /p3 out)", len(res.Pages))
	}
	if s.hit("/p3") != 0 || s.hit("/robots.txt") == 0 {
		t.Fatalf("robots.txt read %d times, /p3 requested %d times", s.hit("/robots.txt"), s.hit("/p3"))
	}
	if _, most := seen(); runtime.NumCPU() > 1 && most < 2 {
		t.Errorf("at most %d request in flight, want up to %d", most, runtime.NumCPU())
	}
}

func TestRobotsCrawlDelayIsHonoured(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		o    func(crawler.Options) crawler.Options
	}{
		{"polite", func(o crawler.Options) crawler.Options { return o }},
		{"own site", crawler.Options.ForOwnSite},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, seen := pacedSite(t, "User-agent: *\nCrawl-delay: 0.2\n", 3)
			o := options() // no delay of its own, 4 requests in flight
			res, err := crawler.Crawl(context.Background(), c.o(o), crawler.KindURL, s.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pages) != 4 {
				t.Fatalf("%d pages, want 4", len(res.Pages))
			}
			arrivals, most := seen()
			if most != 1 {
				t.Errorf("%d requests in flight at once, want 1 under a Crawl-delay", most)
			}
			for i := 1; i < len(arrivals); i++ {
				if gap := arrivals[i].Sub(arrivals[i-1]); gap < 200*time.Millisecond {
					t.Errorf("request %d came %v after the one before, want at least the Crawl-delay of 200ms", i, gap)
				}
			}
		})
	}
}
