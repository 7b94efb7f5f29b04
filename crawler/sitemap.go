package crawler

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/gocolly/colly/v2"
)

// readSitemaps reads the sitemap at u and, when it is a sitemap index, the
// sitemaps it lists (gzipped ones included: boundedBodies inflates *.xml.gz
// and gzip responses), collecting the same-site page URLs they list.
func (cr *crawl) readSitemaps(u string) {
	maps := cr.pages.Clone() // same guarded client, robots.txt cache and rate limit
	limit := cr.o.MaxSitemapBytes
	if limit == 0 {
		limit = maxSitemapBytes
	}
	maps.Context = withBodyLimit(maps.Context, limit)
	maps.MaxDepth = 0
	maps.OnRequest(func(r *colly.Request) {
		cr.mu.Lock()
		defer cr.mu.Unlock()
		if cr.nmaps >= maxSitemaps {
			cr.skipped[r.URL.String()] = "too many sitemaps"
			r.Abort()
			return
		}
		cr.nmaps++
	})
	maps.OnResponse(cr.rebase)
	maps.OnXML("//sitemapindex/sitemap/loc", func(e *colly.XMLElement) {
		if l, ok := cr.listedURL(e.Text); ok {
			e.Request.Visit(l)
		}
	})
	maps.OnXML("//urlset/url/loc", func(e *colly.XMLElement) {
		if l, ok := cr.listedURL(e.Text); ok {
			cr.mu.Lock()
			cr.listed = append(cr.listed, l)
			cr.mu.Unlock()
		}
	})
	maps.OnError(func(r *colly.Response, err error) {
		u := r.Request.URL.String()
		if isTooLarge(err) {
			cr.tooLargeSitemap(u, err)
		}
		cr.fail(u, describe(u, r.StatusCode, err))
	})
	if err := maps.Visit(u); err != nil {
		cr.fail(u, describe(u, 0, err))
	}
	maps.Wait()
}

// tooLargeSitemap fails the source: a sitemap past the protocol's limit is
// broken or hostile, and indexing what the others list would hide it.
func (cr *crawl) tooLargeSitemap(u string, err error) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.mapsErr == nil {
		cr.mapsErr = &Failure{Reason: fmt.Sprintf("The sitemap %s is %v.", u, err)}
	}
}

// listedURL reads a <loc>; sitemaps may only list pages of their own site.
func (cr *crawl) listedURL(loc string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(loc))
	if err != nil || !cr.onSite(u) {
		if err == nil {
			cr.skip(u.String(), "not on the sitemap's site")
		}
		return "", false
	}
	return normalize(u), true
}

// sitemapPages returns the listed page URLs, each once, in a stable order,
// at most limit of them.
func (cr *crawl) sitemapPages(limit int) []string {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	urls := slices.Clone(cr.listed)
	slices.Sort(urls)
	urls = slices.Compact(urls)
	if len(urls) > limit {
		for _, u := range urls[limit:] {
			cr.skipped[u] = "crawler.max_pages reached"
		}
		urls = urls[:limit]
	}
	return urls
}
