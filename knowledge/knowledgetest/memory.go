// Package knowledgetest provides an in-memory knowledge.Searcher for tests and
// benchmarks of code that depends on the search interface: a plain BM25
// ranking over paragraphs of pages, filtered by mode and site as the real
// index does. It is not the product's index.
package knowledgetest

import (
	"context"
	"math"
	"strings"
	"sync"
	"unicode"

	"chatsvc/chat"
	"chatsvc/knowledge"
)

// Page is a document to index.
type Page struct {
	SourceID string
	SiteID   string // "" for an all-site source
	Mode     chat.Mode
	URL      string
	Title    string
	Text     string // paragraphs separated by blank lines; "# " lines are headings
}

type passage struct {
	knowledge.Passage
	siteID string
	mode   chat.Mode
	length int
}

// Index is an in-memory knowledge.Searcher; safe for concurrent use.
type Index struct {
	mu       sync.RWMutex
	passages []passage
	postings map[string][]posting // term -> the passages holding it
	total    int                  // sum of passage lengths
}

// posting is one passage holding a term, and how often.
type posting struct{ passage, tf int }

// New returns an empty index.
func New() *Index { return &Index{postings: map[string][]posting{}} }

// Add indexes a page, split into passages of a few paragraphs each.
func (x *Index) Add(p Page) {
	x.mu.Lock()
	defer x.mu.Unlock()
	heading := p.Title
	var buf []string
	flush := func() {
		if len(buf) == 0 {
			return
		}
		text := strings.Join(buf, "\n\n")
		buf = nil
		terms := map[string]int{}
		n := 0
		for _, t := range tokens(p.Title + " " + heading + " " + text) {
			terms[t]++
			n++
		}
		i := len(x.passages)
		x.passages = append(x.passages, passage{Passage: knowledge.Passage{SourceID: p.SourceID, URL: p.URL,
			Title: p.Title, Heading: heading, Text: text}, siteID: p.SiteID, mode: p.Mode, length: n})
		for t, tf := range terms {
			x.postings[t] = append(x.postings[t], posting{i, tf})
		}
		x.total += n
	}
	size := 0
	for _, para := range strings.Split(p.Text, "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		if strings.HasPrefix(para, "#") {
			flush()
			size = 0
			heading = strings.TrimSpace(strings.TrimLeft(para, "#"))
			continue
		}
		if size+len(para) > 1200 {
			flush()
			size = 0
		}
		buf = append(buf, para)
		size += len(para)
	}
	flush()
}

// Len is the number of passages indexed.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.passages)
}

// Search ranks the passages of the query's mode and site (plus all-site
// ones) by BM25.
func (x *Index) Search(_ context.Context, q knowledge.Query) ([]knowledge.Passage, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(x.passages) == 0 {
		return nil, nil
	}
	const k1, b = 1.2, 0.75
	avg := float64(x.total) / float64(len(x.passages))
	scores := make([]float64, len(x.passages))
	hits := make([]int, len(x.passages)) // distinct query terms each passage has
	var touched []int
	seen := map[string]bool{}
	for _, t := range tokens(strings.Join(knowledge.QuestionWords(q.Text), " ")) {
		if seen[t] {
			continue
		}
		seen[t] = true
		post := x.postings[t]
		if len(post) == 0 {
			continue
		}
		idf := math.Log(1 + (float64(len(x.passages))-float64(len(post))+0.5)/(float64(len(post))+0.5))
		for _, po := range post {
			i, p := po.passage, &x.passages[po.passage]
			if p.mode != q.Mode || (p.siteID != "" && p.siteID != q.SiteID) {
				continue
			}
			if scores[i] == 0 {
				touched = append(touched, i)
			}
			hits[i]++
			tf := float64(po.tf)
			scores[i] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(p.length)/avg))
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	// Keep the best limit passages in order: an insertion into a short list.
	better := func(a, c int) bool { return scores[a] > scores[c] || (scores[a] == scores[c] && a < c) }
	ids := make([]int, 0, limit+1)
	for _, i := range touched {
		if len(ids) == limit && !better(i, ids[limit-1]) {
			continue
		}
		ids = append(ids, i)
		for j := len(ids) - 1; j > 0 && better(ids[j], ids[j-1]); j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
		if len(ids) > limit {
			ids = ids[:limit]
		}
	}
	out := make([]knowledge.Passage, len(ids))
	for n, i := range ids {
		out[n] = x.passages[i].Passage
		out[n].Score = scores[i]
		out[n].Match = float64(hits[i]) / float64(len(seen))
	}
	return out, nil
}

var stop = map[string]bool{"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "to": true,
	"in": true, "on": true, "is": true, "are": true, "it": true, "for": true, "with": true, "be": true,
	"how": true, "do": true, "i": true, "can": true, "what": true, "my": true, "does": true, "you": true,
	"when": true, "where": true, "why": true, "which": true, "who": true, "there": true, "your": true, "we": true,
	"our": true, "have": true, "has": true, "get": true, "me": true, "this": true, "that": true, "at": true}

func tokens(s string) []string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := words[:0]
	for _, w := range words {
		if stop[w] {
			continue
		}
		out = append(out, knowledge.LightStem(w))
	}
	return out
}
