package bench

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/bench/helpsite"
	"chatsvc/chat"
	"chatsvc/crawler"
	"chatsvc/knowledge"
)

// sitePages is the size of the local site the crawl benchmark reads.
const sitePages = 2000

// BenchmarkKnowledge reports, in one run, pages crawled/s from a local site
// of 2,000 pages (plus its 41 section pages; no politeness delay, 8
// requests in flight, robots.txt obeyed) and chunks indexed/s into a fresh
// bleve index, in batches of one source's chunks as a sync writes them.
//
//	go test ./bench -run '^$' -bench Knowledge -benchtime 1x
func BenchmarkKnowledge(b *testing.B) {
	for b.Loop() {
		pages, crawlRate := crawlSite(b)
		chunks, indexRate := indexChunks(b)
		b.ReportMetric(crawlRate, "pages_crawled/s")
		b.ReportMetric(indexRate, "chunks_indexed/s")
		b.Logf("crawled %d pages at %.0f pages/s; indexed %d chunks at %.0f chunks/s", pages, crawlRate, chunks, indexRate)
	}
}

// crawlSite serves a home page linking to 40 sections of 50 pages each and
// crawls it.
func crawlSite(b *testing.B) (int, float64) {
	const sections = 40
	srv := httptest.NewServer(helpsite.Handler(sections, sitePages))
	defer srv.Close()
	o := crawler.Options{MaxPages: sitePages + sections + 1, MaxDepth: 3, RespectRobots: true, Parallelism: 8,
		Timeout: 10 * time.Second, MaxPageBytes: 2 << 20, AllowPrivate: true}
	start := time.Now()
	res, err := crawler.Crawl(context.Background(), o, crawler.KindURL, srv.URL+"/")
	took := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Pages) != sitePages+sections+1 {
		b.Fatalf("crawled %d pages, want %d", len(res.Pages), sitePages+sections+1)
	}
	return len(res.Pages), float64(len(res.Pages)) / took.Seconds()
}

// indexChunks indexes 40 sources of 500 chunks of about 900 characters.
func indexChunks(b *testing.B) (int, float64) {
	idx, err := knowledge.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	words := strings.Fields("order shipping parcel refund return card payment account password invoice delivery " +
		"warehouse customs tracking subscription plan upgrade cancel discount voucher support opening hours")
	const sources, perSource = 40, 500
	batches := make([][]knowledge.Chunk, sources)
	for s := range batches {
		batches[s] = make([]knowledge.Chunk, perSource)
		for i := range batches[s] {
			var t strings.Builder
			for w := 0; t.Len() < 900; w++ {
				t.WriteString(words[(s*7+i*13+w*w)%len(words)])
				t.WriteByte(' ')
			}
			batches[s][i] = knowledge.Chunk{SourceID: fmt.Sprintf("src_%d", s), Mode: chat.Test,
				URL: fmt.Sprintf("https://example.com/%d/%d", s, i), Title: "Help page", Heading: "Section",
				Text: t.String()}
		}
	}
	start := time.Now()
	for s, chunks := range batches {
		if err := idx.Replace(context.Background(), fmt.Sprintf("src_%d", s), chunks); err != nil {
			b.Fatal(err)
		}
	}
	took := time.Since(start)
	return sources * perSource, float64(sources*perSource) / took.Seconds()
}

// BenchmarkWidgetRoundTripProductIndex is BenchmarkWidgetRoundTrip with the
// assistant searching the bleve index the product uses (each page chunked
// as a sync chunks it), beside the in-memory index in the same run.
//
//	go test ./bench -run '^$' -bench WidgetRoundTripProductIndex -benchtime 1x
func BenchmarkWidgetRoundTripProductIndex(b *testing.B) {
	for b.Loop() {
		pages, questions := benchDocs()
		idx, err := knowledge.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		var chunks []knowledge.Chunk
		for _, p := range pages {
			for _, c := range crawler.TextChunks(p.Text) {
				chunks = append(chunks, knowledge.Chunk{SourceID: p.SourceID, Mode: p.Mode, URL: p.URL, Title: p.Title,
					Heading: c.Heading, Text: c.Text})
			}
		}
		if err := idx.Replace(context.Background(), "src_bench", chunks); err != nil {
			b.Fatal(err)
		}
		product, lat := newWidgetBench(b, assistant.New(idx, assistant.Extractive{})).run(b, questions, true)
		memIdx, _ := benchIndex()
		memory, _ := newWidgetBench(b, assistant.New(memIdx, assistant.Extractive{})).run(b, questions, true)
		idx.Close()
		p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
		b.ReportMetric(product, "round_trips/s")
		b.ReportMetric(float64(p50.Microseconds())/1000, "p50_ms")
		b.ReportMetric(float64(p99.Microseconds())/1000, "p99_ms")
		b.ReportMetric(product/memory, "product/in_memory")
		b.Logf("%d chunks in bleve; %d visitors: %.0f round trips/s, p50 %v, p99 %v; in-memory index %.0f/s (ratio %.2f)",
			len(chunks), clients, product, p50, p99, memory, product/memory)
	}
}

// ownSitePages is the size of the site BenchmarkCrawlOwnSite reads: a home
// page, 10 section pages and 189 pages, as the harness's crawl rows.
const ownSitePages = 200

// BenchmarkCrawlOwnSite reports pages/s for a url source with politeness
// own over a local site of 200 pages, from the start of its sync until it
// is recorded ready: the crawl, the chunks written to the database and
// the pages put in the bleve index, as the knowledge-sync worker does it.
// The goal is 500 pages/s or more.
//
//	go test ./bench -run '^$' -bench CrawlOwnSite -benchtime 20x
func BenchmarkCrawlOwnSite(b *testing.B) {
	ctx := context.Background()
	const sections = 10
	srv := httptest.NewServer(helpsite.Handler(sections, ownSitePages-1-sections))
	defer srv.Close()
	idx, err := knowledge.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	s := newBenchService(b, app.Options{Knowledge: &app.Knowledge{Index: idx, Crawler: crawler.Options{MaxPages: 500,
		MaxDepth: 3, RespectRobots: true, Delay: 100 * time.Millisecond, Parallelism: 2, Timeout: 10 * time.Second,
		MaxPageBytes: 2 << 20, AllowPrivate: true}}})
	var took time.Duration
	for i := 0; b.Loop(); i++ {
		k, err := s.svc.CreateKnowledgeSource(ctx, chat.Test, app.SourceCreate{Type: app.Value("url"),
			Name: app.Value(fmt.Sprintf("Site %d", i)), URL: app.Value(srv.URL + "/"), Politeness: app.Value(app.SourceOwn)})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := s.svc.SyncStep(ctx); err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
		if k, err = s.svc.KnowledgeSource(ctx, chat.Test, k.ID); err != nil {
			b.Fatal(err)
		}
		if k.Status != app.SourceReady || k.PageCount != ownSitePages {
			b.Fatalf("source %s: %d pages, want %d", k.Status, k.PageCount, ownSitePages)
		}
	}
	b.ReportMetric(float64(b.N*ownSitePages)/took.Seconds(), "pages/s")
}
