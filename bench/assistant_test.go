package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/chat"
	"chatsvc/knowledge"
)

// BenchmarkAssistantAnswer5000Pages reports, in one run, pages indexed/s
// into a fresh index of 5,000 pages (100 sources of 50 pages, 4 chunks of
// about 700 characters each), then the p50 and p99 of search plus answer
// (assistant.Respond with the extractive provider) over 500 questions.
//
//	go test ./bench -run '^$' -bench AssistantAnswer5000Pages -benchtime 1x
func BenchmarkAssistantAnswer5000Pages(b *testing.B) {
	for b.Loop() {
		idx, err := knowledge.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		vocab := benchVocabulary(rng)
		const sources, perSource, perPage = 100, 50, 4
		start := time.Now()
		for s := 0; s < sources; s++ {
			var chunks []knowledge.Chunk
			for p := 0; p < perSource; p++ {
				title := strings.Join(pickWords(rng, vocab, 3), " ")
				for c := 0; c < perPage; c++ {
					chunks = append(chunks, knowledge.Chunk{SourceID: fmt.Sprintf("src_%d", s), Mode: chat.Test,
						URL: fmt.Sprintf("https://docs.example.com/%d/%s", s, strings.ReplaceAll(title, " ", "-")), Title: title,
						Heading: strings.Join(pickWords(rng, vocab, 2), " "), Text: benchSentences(rng, vocab, 700)})
				}
			}
			if err := idx.Replace(context.Background(), fmt.Sprintf("src_%d", s), chunks); err != nil {
				b.Fatal(err)
			}
		}
		rate := float64(sources*perSource) / time.Since(start).Seconds()
		a := assistant.New(idx, assistant.Extractive{})
		p50, p99 := answerTimes(b, a, rng, vocab)
		// The same with one source of the other mode: every search then
		// filters by mode, as a knowledge base with live and test sources does.
		live := make([]knowledge.Chunk, 4)
		for i := range live {
			live[i] = knowledge.Chunk{SourceID: "src_live", Mode: chat.Live, URL: fmt.Sprintf("https://docs.example.com/live/%d", i),
				Title: "live", Text: benchSentences(rng, vocab, 700)}
		}
		if err := idx.Replace(context.Background(), "src_live", live); err != nil {
			b.Fatal(err)
		}
		m50, m99 := answerTimes(b, a, rng, vocab)
		idx.Close()
		b.ReportMetric(rate, "pages_indexed/s")
		b.ReportMetric(ms(p50), "answer_p50_ms")
		b.ReportMetric(ms(p99), "answer_p99_ms")
		b.ReportMetric(ms(m99), "two_modes_p99_ms")
		b.Logf("5,000 pages indexed at %.0f pages/s; search plus answer p50 %v, p99 %v; with a source of the other mode p50 %v, p99 %v",
			rate, p50, p99, m50, m99)
	}
}

// answerTimes asks 500 questions in test mode and returns the p50 and p99
// of search plus answer.
func answerTimes(b *testing.B, a *assistant.Assistant, rng *rand.Rand, vocab []string) (p50, p99 time.Duration) {
	var lat []time.Duration
	for q := 0; q < 500; q++ {
		text := "How do I " + strings.Join(pickWords(rng, vocab, 2+q%4), " ") + "?"
		t0 := time.Now()
		if _, err := a.Respond(context.Background(), app.Question{Mode: chat.Test, Text: text}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	return lat[len(lat)/2], lat[len(lat)*99/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchVocabulary is 3,000 made-up words whose frequencies fall off like a
// language's (picked with a skew), plus common English.
func benchVocabulary(rng *rand.Rand) []string {
	words := strings.Fields("the a to of and in is for on with you your can how when order account page file " +
		"setting change remove install update error server user password backup")
	for len(words) < 3000 {
		var w strings.Builder
		for n := 2 + rng.IntN(3); n > 0; n-- {
			w.WriteString([]string{"ka", "to", "ri", "mon", "sel", "dar", "ven", "lo", "pi", "tra", "zu", "ne"}[rng.IntN(12)])
		}
		words = append(words, w.String())
	}
	return words
}

func pickWords(rng *rand.Rand, vocab []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = vocab[int(float64(len(vocab))*rng.Float64()*rng.Float64())]
	}
	return out
}

func benchSentences(rng *rand.Rand, vocab []string, size int) string {
	var t strings.Builder
	for t.Len() < size {
		t.WriteString(strings.Join(pickWords(rng, vocab, 6+rng.IntN(10)), " "))
		t.WriteString(". ")
	}
	return t.String()
}
