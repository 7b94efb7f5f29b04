package crawler

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/temoto/robotstxt"
)

// Politeness toward a source's site, as knowledge sources name it.
const (
	// Polite is the default: the configured pause after each request and
	// requests in flight.
	Polite = "polite"
	// Own is for the team's own site: no pause, as many requests in flight
	// as there are cores.
	Own = "own"
)

// maxCrawlDelay bounds the pause a robots.txt Crawl-delay asks for, so that
// a sync of max_pages pages still ends within the night (500 pages at 10 s
// take 83 minutes).
const maxCrawlDelay = 10 * time.Second

// ForOwnSite returns o for crawling the team's own site: no pause between
// requests and one request in flight per core. robots.txt is still read
// and obeyed, its Crawl-delay included.
func (o Options) ForOwnSite() Options {
	o.Delay = 0
	o.Parallelism = runtime.NumCPU()
	return o
}

// limitRule is the pace of a crawl: the configured pause and parallelism,
// unless the site's robots.txt asks for a longer pause between requests
// (Crawl-delay), which then holds with one request at a time.
func limitRule(o Options, crawlDelay time.Duration) *colly.LimitRule {
	rule := &colly.LimitRule{DomainGlob: "*", Parallelism: max(1, o.Parallelism), Delay: o.Delay}
	if crawlDelay = min(crawlDelay, maxCrawlDelay); crawlDelay > 0 && crawlDelay >= o.Delay {
		rule.Delay, rule.Parallelism = crawlDelay, 1
	}
	return rule
}

// crawlDelay reads the Crawl-delay robots.txt at start's host gives the
// crawler's user agent; 0 when there is none or robots.txt cannot be read
// (colly reads it again for its rules, and reports what failed).
func (cr *crawl) crawlDelay(ctx context.Context, start *url.URL) time.Duration {
	if !cr.o.RespectRobots {
		return 0
	}
	req, err := http.NewRequestWithContext(ctx, "GET", start.Scheme+"://"+start.Host+"/robots.txt", nil)
	if err != nil {
		return 0
	}
	// Colly's redirect rule notes each URL as visited: this request must
	// leave the URLs to colly's own read of robots.txt.
	probe := *cr.client
	probe.CheckRedirect = func(_ *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("more than 10 redirects")
		}
		return nil
	}
	res, err := probe.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return 0
	}
	robots, err := robotstxt.FromStatusAndBytes(res.StatusCode, body)
	if err != nil {
		return 0
	}
	if g := robots.FindGroup(cr.o.UserAgent); g != nil {
		return g.CrawlDelay
	}
	return 0
}

// robotsMemo answers a request for a robots.txt URL already read with the
// response read then: the crawl reads Crawl-delay itself before colly reads
// the rules, and the site is asked once. Failed reads are not kept.
type robotsMemo struct {
	next http.RoundTripper
	mu   sync.Mutex
	read map[string]memoized
}

type memoized struct {
	status int
	header http.Header
	body   []byte
}

func (m *robotsMemo) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != "GET" || r.URL.Path != "/robots.txt" {
		return m.next.RoundTrip(r)
	}
	key := r.URL.String()
	m.mu.Lock()
	got, ok := m.read[key]
	m.mu.Unlock()
	if !ok {
		res, err := m.next.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, err
		}
		got = memoized{status: res.StatusCode, header: res.Header, body: body}
		m.mu.Lock()
		if m.read == nil {
			m.read = map[string]memoized{}
		}
		m.read[key] = got
		m.mu.Unlock()
	}
	return &http.Response{StatusCode: got.status, Status: strconv.Itoa(got.status) + " " + http.StatusText(got.status), Proto: "HTTP/1.1",
		ProtoMajor: 1, ProtoMinor: 1, Header: got.header.Clone(), Body: io.NopCloser(bytes.NewReader(got.body)),
		ContentLength: int64(len(got.body)), Request: r}, nil
}

// CloseIdleConnections lets the crawl close its client's connections.
func (m *robotsMemo) CloseIdleConnections() {
	if c, ok := m.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
