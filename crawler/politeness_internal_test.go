package crawler

import (
	"testing"
	"time"
)

func TestLimitRule(t *testing.T) {
	t.Parallel()
	polite := Options{Delay: 100 * time.Millisecond, Parallelism: 2}
	for _, c := range []struct {
		name       string
		o          Options
		crawlDelay time.Duration
		delay      time.Duration
		parallel   int
	}{
		{"no Crawl-delay", polite, 0, 100 * time.Millisecond, 2},
		{"a shorter Crawl-delay", polite, 50 * time.Millisecond, 100 * time.Millisecond, 2},
		{"a longer Crawl-delay", polite, 2 * time.Second, 2 * time.Second, 1},
		{"a Crawl-delay past the bound", polite, time.Hour, maxCrawlDelay, 1},
		{"own site", polite.ForOwnSite(), 0, 0, polite.ForOwnSite().Parallelism},
		{"own site with a Crawl-delay", polite.ForOwnSite(), time.Second, time.Second, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := limitRule(c.o, c.crawlDelay)
			if r.Delay != c.delay || r.Parallelism != c.parallel {
				t.Fatalf("delay %v, parallelism %d; want %v and %d", r.Delay, r.Parallelism, c.delay, c.parallel)
			}
		})
	}
}
