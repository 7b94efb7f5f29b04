// Package crawler reads a team's web pages for the assistant: a site from
// its first page, or every page of a sitemap. It fetches through the
// project's SSRF-guarded client (package outbound), so every request —
// pages, robots.txt, sitemaps, redirects — is refused at dial time when it
// would reach a private address. It keeps to one site, obeys robots.txt,
// waits between requests to a host, skips what is not HTML or text or is
// too large, and turns each page into chunks of main text.
package crawler

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/gocolly/colly/v2"

	"chatsvc/outbound"
)

// Options are the crawler's settings (crawler.* and network.allow_private).
type Options struct {
	MaxPages      int           // pages requested per crawl
	MaxDepth      int           // links followed away from the first page (url sources)
	RespectRobots bool          // obey robots.txt
	Delay         time.Duration // pause after each request to a host
	Parallelism   int           // requests in flight per host; 0: 1
	Timeout       time.Duration // per request, body included
	MaxPageBytes  int           // larger pages are skipped (counted decompressed)
	AllowPrivate  bool          // network.allow_private
	UserAgent     string        // "" : chatsvc
	// Exempt: addresses reachable although private (see outbound.Options).
	Exempt []netip.AddrPort
	// MaxSitemapBytes: a larger sitemap (counted decompressed) fails the
	// source; 0: maxSitemapBytes.
	MaxSitemapBytes int
}

// Kinds of crawl, as knowledge source types.
const (
	KindURL     = "url"
	KindSitemap = "sitemap"
)

// maxSitemaps bounds the sitemap documents read for one sitemap source
// (an index and its children).
const maxSitemaps = 50

// maxSitemapBytes is the sitemap protocol's own size limit.
const maxSitemapBytes = 50 << 20

// Page is one page read, in chunks.
type Page struct {
	URL    string // canonical URL
	Title  string
	Lang   string // the language the page says it is in (<html lang>, else Content-Language); "" when it does not
	Chunks []Chunk
}

// Result is what a crawl found.
type Result struct {
	Pages   []Page            // sorted by URL
	Skipped map[string]string // URL → why it was not indexed, for the team
}

// Failure is a crawl that found nothing to index; Reason says why in words
// meant for the team that configured the source.
type Failure struct{ Reason string }

func (f *Failure) Error() string { return f.Reason }

// Crawl reads the pages of a url source (rawURL and the same-site pages it
// links to) or a sitemap source (every same-site page the sitemap lists).
// It returns a *Failure when no page could be indexed, and ctx's error when
// ctx ends first.
func Crawl(ctx context.Context, o Options, kind, rawURL string) (*Result, error) {
	start, err := url.Parse(rawURL)
	if err != nil || (start.Scheme != "http" && start.Scheme != "https") || start.Host == "" {
		return nil, &Failure{Reason: fmt.Sprintf("%q is not an http(s) URL.", rawURL)}
	}
	cr := newCrawl(ctx, o, start)
	defer cr.client.CloseIdleConnections() // each crawl has its own client: leave nothing open
	cr.pages.Limit(limitRule(o, cr.crawlDelay(ctx, start)))
	switch kind {
	case KindURL:
		cr.follow = true
		cr.visitStart(normalize(start))
	case KindSitemap:
		cr.readSitemaps(normalize(start))
		if cr.mapsErr != nil {
			return nil, cr.mapsErr
		}
		for _, u := range cr.sitemapPages(o.MaxPages) {
			if err := cr.pages.Visit(u); err != nil {
				cr.fail(u, describe(u, 0, err))
			}
		}
	default:
		return nil, fmt.Errorf("crawler: unknown kind %q", kind)
	}
	cr.pages.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return cr.result(kind)
}

// crawl is one crawl in progress. Colly calls its callbacks from several
// goroutines; mu guards the maps.
type crawl struct {
	o       Options
	site    string // host (without "www.") every page must be on; see rebase
	start   string
	follow  bool // follow links (url sources)
	pages   *colly.Collector
	client  *http.Client
	mu      sync.Mutex
	found   map[string]*Page    // by canonical URL
	digests map[[32]byte]string // text digest → URL, to drop the same page under two URLs
	skipped map[string]string
	asked   map[string]bool // links passed to colly (ask)
	listed  []string        // page URLs listed by sitemaps
	nmaps   int             // sitemap documents requested
	nreq    int             // page requests made
	startEr error           // why the first page (or sitemap) failed
	mapsErr error           // a sitemap that fails the whole source
}

func newCrawl(ctx context.Context, o Options, start *url.URL) *crawl {
	if o.UserAgent == "" {
		o.UserAgent = "chatsvc"
	}
	cr := &crawl{o: o, site: siteHost(start), start: normalize(start), found: map[string]*Page{},
		digests: map[[32]byte]string{}, skipped: map[string]string{}, asked: map[string]bool{}}
	c := colly.NewCollector(colly.Async(true), colly.StdlibContext(ctx), colly.UserAgent(o.UserAgent),
		colly.MaxBodySize(0),  // colly's limit counts compressed bytes: the transport bounds bodies instead
		colly.DetectCharset()) // pages that do not name their charset are converted to UTF-8 too
	c.IgnoreRobotsTxt = !o.RespectRobots
	c.MaxDepth = o.MaxDepth + 1 // colly counts the first page as depth 1
	// The project's guarded client does every fetch, robots.txt included.
	cr.client = outbound.New(outbound.Options{AllowPrivate: o.AllowPrivate, Timeout: o.Timeout,
		MaxRedirects: 10, UserAgent: o.UserAgent, Exempt: o.Exempt})
	cr.client.Transport = &robotsMemo{next: boundedBodies{next: cr.client.Transport, pageLimit: o.MaxPageBytes}}
	c.SetClient(cr.client)
	c.SetRedirectHandler(cr.checkRedirect)
	c.OnRequest(cr.onRequest)
	c.OnResponseHeaders(cr.onHeaders)
	c.OnResponse(cr.onPage)
	c.OnError(cr.onError)
	cr.pages = c
	return cr
}

// visitStart requests the first page; a refusal before any request (robots.txt,
// an unreachable robots.txt) is the crawl's failure.
func (cr *crawl) visitStart(u string) {
	if err := cr.pages.Visit(u); err != nil {
		cr.fail(u, describe(u, 0, err))
	}
}

// checkRedirect bounds redirect chains and keeps them on the site, except
// for the first URL's, which may move the site (example.com/help to
// help.example.com, see rebase), and robots.txt's, which may be served
// from anywhere. The guard checks every hop's address.
func (cr *crawl) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("more than 10 redirects")
	}
	first := via[0].URL
	if normalize(first) != cr.start && first.Path != "/robots.txt" && !cr.onSite(req.URL) {
		return fmt.Errorf("redirect to %s leaves the site", req.URL.Redacted())
	}
	return nil
}

// rebase makes the host the first URL was redirected to the crawl's site.
// It runs before any other request is made, as the first response is the
// one that yields the next URLs.
func (cr *crawl) rebase(r *colly.Response) {
	if r.Request.Depth == 1 && !cr.onSite(r.Request.URL) {
		cr.site = siteHost(r.Request.URL)
	}
}

func (cr *crawl) onRequest(r *colly.Request) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.nreq >= cr.o.MaxPages {
		cr.skipped[r.URL.String()] = "crawler.max_pages reached"
		r.Abort()
		return
	}
	cr.nreq++
}

// onHeaders drops, before their body is read, responses that cannot be
// indexed: other content types and announced oversized bodies.
func (cr *crawl) onHeaders(r *colly.Response) {
	if r.StatusCode < 200 || r.StatusCode > 299 {
		return // reported by onError
	}
	if why := cr.refuse(r.Headers.Get("Content-Type"), r.Headers.Get("Content-Length")); why != "" {
		cr.skip(r.Request.URL.String(), why)
		r.Request.Abort()
	}
}

// refuse says why a response with these headers is not read, or "".
func (cr *crawl) refuse(contentType, contentLength string) string {
	if mt := mediaType(contentType); mt != "text/html" && mt != "application/xhtml+xml" && mt != "text/plain" {
		return fmt.Sprintf("not HTML or text (%s)", orNone(mt))
	}
	if n, err := strconv.Atoi(contentLength); err == nil && n > cr.o.MaxPageBytes {
		return fmt.Sprintf("larger than %d bytes", cr.o.MaxPageBytes)
	}
	return ""
}

func mediaType(contentType string) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	return strings.ToLower(mt)
}

func orNone(s string) string {
	if s == "" {
		return "no content type"
	}
	return s
}

// onPage reads a fetched page: its text, and for url sources its links.
func (cr *crawl) onPage(r *colly.Response) {
	u := r.Request.URL.String()
	if cr.follow {
		cr.rebase(r)
	}
	if mediaType(r.Headers.Get("Content-Type")) == "text/plain" {
		cr.add(u, path(r.Request.URL), r.Headers.Get("Content-Language"), TextChunks(string(r.Body)))
		return
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(r.Body))
	if err != nil {
		cr.skip(u, "unreadable HTML")
		return
	}
	base := r.Request.URL
	if href, ok := doc.FindMatcher(selBase).First().Attr("href"); ok {
		if b, err := base.Parse(href); err == nil {
			base = b
		}
	}
	var links []string
	doc.FindMatcher(selLinks).Each(func(_ int, a *goquery.Selection) {
		if strings.Contains(strings.ToLower(a.AttrOr("rel", "")), "nofollow") {
			return
		}
		if l, err := base.Parse(strings.TrimSpace(a.AttrOr("href", ""))); err == nil && cr.onSite(l) {
			links = append(links, normalize(l))
		}
	})
	canonical := u
	if href, ok := doc.FindMatcher(selCanonical).First().Attr("href"); ok {
		if c, err := base.Parse(href); err == nil && cr.onSite(c) {
			canonical = normalize(c)
		}
	}
	x := extract(doc) // after the links: extraction removes the page's frame
	switch {
	case x.noindex:
		cr.skip(u, "the page asks not to be indexed (meta robots)")
	case canonical != u && cr.visitCanonical(r, canonical):
		// The page at the canonical URL is read for itself: this copy
		// (a print version, a URL with tracking parameters) is not indexed
		// in its place.
		cr.skip(u, "its canonical URL is "+canonical)
	default:
		cr.add(u, x.title, pageLang(doc, r.Headers.Get("Content-Language")), x.chunks)
	}
	if !cr.follow || x.nofollow || r.Request.Depth > cr.o.MaxDepth {
		return
	}
	for _, l := range links {
		if !cr.ask(l) {
			continue
		}
		// Refusals (visited already) are expected; robots.txt's are worth telling.
		if err := r.Request.Visit(l); errors.Is(err, colly.ErrRobotsTxtBlocked) {
			cr.skip(l, "robots.txt does not allow crawling this page")
		}
	}
}

// ask reports whether a link was not yet asked for, and notes it: colly's
// Visit parses the URL again (WHATWG rules) before it finds it visited,
// and the links every page repeats (the home page, the menu) cost a site
// of n pages n of those each. A link asked for once is never asked again
// from a shallower page to better effect: links are followed only from
// pages within crawler.max_depth, so colly refuses none of them as too
// deep.
func (cr *crawl) ask(u string) bool {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.asked[u] {
		return false
	}
	cr.asked[u] = true
	return true
}

// pageLang is the language a page says it is in: its <html lang>, else the
// first of the response's Content-Language.
func pageLang(doc *goquery.Document, header string) string {
	if l := strings.TrimSpace(doc.FindMatcher(selHTML).First().AttrOr("lang", "")); l != "" {
		return l
	}
	first, _, _ := strings.Cut(header, ",")
	return strings.TrimSpace(first)
}

// visitCanonical asks for the page at a page's canonical URL, and reports
// whether it is (or was) read: when it cannot be, the page stands for itself.
func (cr *crawl) visitCanonical(r *colly.Response, canonical string) bool {
	err := r.Request.Visit(canonical)
	var seen *colly.AlreadyVisitedError
	return err == nil || errors.As(err, &seen)
}

// add records a page unless its URL or its text was seen already.
func (cr *crawl) add(fetched, title, lang string, chunks []Chunk) {
	canonical := fetched
	if len(chunks) == 0 {
		cr.skip(fetched, "no text")
		return
	}
	h := sha256.New()
	for _, c := range chunks {
		h.Write([]byte(c.Heading + "\x00" + c.Text + "\x00"))
	}
	var digest [32]byte
	h.Sum(digest[:0])
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if _, dup := cr.found[canonical]; dup {
		cr.skipped[fetched] = "same canonical URL as " + canonical
		return
	}
	if other, dup := cr.digests[digest]; dup {
		cr.skipped[fetched] = "same text as " + other
		return
	}
	if title == "" {
		title = canonical
	}
	cr.found[canonical] = &Page{URL: canonical, Title: title, Lang: lang, Chunks: chunks}
	cr.digests[digest] = canonical
}

func (cr *crawl) onError(r *colly.Response, err error) {
	if errors.Is(err, colly.ErrAbortedAfterHeaders) {
		return // onHeaders recorded why
	}
	cr.fail(r.Request.URL.String(), describe(r.Request.URL.String(), r.StatusCode, err))
}

// fail records why a URL was not read; for the first one, it is also the
// crawl's failure should nothing else be found.
func (cr *crawl) fail(u string, err error) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	cr.skipped[u] = err.Error()
	if u == cr.start && cr.startEr == nil {
		cr.startEr = err
	}
}

func (cr *crawl) skip(u, why string) {
	cr.mu.Lock()
	cr.skipped[u] = why
	cr.mu.Unlock()
}

// result returns the pages found, or a Failure when there are none.
func (cr *crawl) result(kind string) (*Result, error) {
	res := &Result{Skipped: cr.skipped}
	for _, p := range cr.found {
		res.Pages = append(res.Pages, *p)
	}
	slices.SortFunc(res.Pages, func(a, b Page) int { return strings.Compare(a.URL, b.URL) })
	if len(res.Pages) > 0 {
		return res, nil
	}
	switch {
	case cr.startEr != nil:
		return nil, &Failure{Reason: cr.startEr.Error()}
	case kind == KindSitemap && len(cr.listed) == 0:
		return nil, &Failure{Reason: "The sitemap " + cr.start + " lists no page of its site."}
	case cr.skipped[cr.start] != "":
		return nil, &Failure{Reason: cr.start + ": " + cr.skipped[cr.start] + "."}
	}
	return nil, &Failure{Reason: "No page with text could be read from " + cr.start + "."}
}

// describe turns a fetch error into a sentence for the team.
func describe(u string, status int, err error) error {
	var ue *url.Error
	switch {
	case outbound.IsPrivateAddress(err):
		where := u
		if errors.As(err, &ue) {
			where = ue.URL
		}
		return fmt.Errorf("%s: refused to connect to a private or local network address (%v); "+
			"the crawler reaches only public addresses unless network.allow_private is set", where, guardError(err))
	case errors.Is(err, colly.ErrRobotsTxtBlocked):
		return fmt.Errorf("%s: robots.txt does not allow crawling this page", u)
	case status >= 300:
		return fmt.Errorf("%s: the server answered HTTP %d %s", u, status, http.StatusText(status))
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("%s: no complete answer in time", u)
	}
	if r := outbound.Reason(err, 0); r != "" {
		return fmt.Errorf("%s: %s", u, r)
	}
	return fmt.Errorf("%s: %v", u, err) // the crawler's own, such as a size limit
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// guardError returns the guard's own error inside err ("address is not
// public: 127.0.0.1"), without the layers of the HTTP client around it.
func guardError(err error) error {
	for next := errors.Unwrap(err); next != nil && next != outbound.ErrPrivateAddress &&
		errors.Is(next, outbound.ErrPrivateAddress); next = errors.Unwrap(err) {
		err = next
	}
	return err
}

// onSite reports whether u is on the crawl's site: http(s) on the same
// host, where "www." and a port the scheme implies make no difference.
func (cr *crawl) onSite(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && siteHost(u) == cr.site
}

func siteHost(u *url.URL) string {
	h := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if p := u.Port(); p != "" && !(u.Scheme == "http" && p == "80") && !(u.Scheme == "https" && p == "443") {
		h += ":" + p
	}
	return h
}

// normalize gives one spelling to the URLs of one page: no fragment,
// lower-case scheme and host, no default port, "/" for an empty path.
func normalize(u *url.URL) string {
	n := *u
	n.Fragment, n.RawFragment = "", ""
	n.Scheme = strings.ToLower(n.Scheme)
	n.Host = strings.ToLower(n.Host)
	if p := n.Port(); (n.Scheme == "http" && p == "80") || (n.Scheme == "https" && p == "443") {
		n.Host = n.Hostname()
	}
	if n.Path == "" {
		n.Path = "/"
	}
	n.User = nil
	return n.String()
}

// path names a page without a title by the last part of its path.
func path(u *url.URL) string {
	p := strings.Trim(u.Path, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	if p == "" {
		return u.Host
	}
	return p
}
