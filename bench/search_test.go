package bench

import (
	"context"
	"slices"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/bench/loadgen"
	"chatsvc/chat"
)

// searchQueries mix a word in every seeded message, two-word phrases, a
// rare number, a ticket word and a contact's name.
var searchQueries = []string{"plan", "team grows", "conversation 4242", "follow", "how does", "visitor 777"}

// BenchmarkSearch reports the p50 and p99 of GET /search's work (the
// service call, without HTTP) on the full seeded data set: 1,000,000
// messages, 100,000 conversations, 50,000 tickets, 100,000 contacts.
// The goal is a p99 under 50 ms.
//
//	go test ./bench -run '^$' -bench Search -benchtime 300x
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	s := newBenchService(b, app.Options{})
	s.seedFull(b, chat.Test, time.Now())
	svc := s.svc
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		t := time.Now()
		// A new search each time, not an answer kept from the last round.
		l, err := svc.Search(ctx, chat.Test, app.SearchQuery{Q: loadgen.RandomCase(searchQueries[i%len(searchQueries)])})
		if err != nil {
			b.Fatal(err)
		}
		if len(l.Data) == 0 {
			b.Fatalf("%q found nothing", searchQueries[i%len(searchQueries)])
		}
		took = append(took, time.Since(t))
	}
	slices.Sort(took)
	ms := func(p float64) float64 { return took[int(p*float64(len(took)-1))].Seconds() * 1000 }
	b.ReportMetric(ms(0.5), "p50_ms")
	b.ReportMetric(ms(0.99), "p99_ms")
}
