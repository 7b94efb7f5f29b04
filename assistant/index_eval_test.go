package assistant_test

import (
	"context"
	"testing"

	"chatsvc/crawler"
	"chatsvc/search"
	"chatsvc/support"
)

// TestRetrievalQualityOnTheProductIndex runs the same evaluation over the
// bleve index the product uses, each page chunked as a sync chunks it.
func TestRetrievalQualityOnTheProductIndex(t *testing.T) {
	idx, err := search.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var chunks []search.Chunk
	for _, p := range docPages(t, support.Live) {
		for _, c := range crawler.TextChunks(p.Text) {
			chunks = append(chunks, search.Chunk{SourceID: p.SourceID, Mode: p.Mode, URL: p.URL, Title: p.Title,
				Heading: c.Heading, Text: c.Text})
		}
	}
	if err := idx.Replace(context.Background(), "src_docs", chunks); err != nil {
		t.Fatal(err)
	}
	rate := evalHitRate(t, idx, support.Live)
	t.Logf("retrieval hit rate on the bleve index: %.1f%% of %d questions (%d chunks)", 100*rate, len(evalSet), len(chunks))
	if rate < 0.85 {
		t.Fatalf("hit rate %.1f%%, want at least 85%%", 100*rate)
	}
}
