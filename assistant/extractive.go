package assistant

import (
	"context"
	"sort"
	"strings"

	"chatsvc/search"
	"chatsvc/support"
)

// Extractive is the default provider: it needs no network and answers with
// the sentences of the best passage that share most words with the question.
type Extractive struct {
	MaxChars int // answer length bound; 0 means 400
}

// Compose picks up to two sentences of the first (best) passage.
func (e Extractive) Compose(_ context.Context, question string, _ []*support.Message, passages []search.Passage) (Draft, error) {
	if len(passages) == 0 {
		return Draft{}, nil
	}
	limit := e.MaxChars
	if limit <= 0 {
		limit = 400
	}
	q := map[string]bool{}
	for _, t := range Terms(question) {
		q[t] = true
	}
	sents := sentences(passages[0].Text)
	type scored struct{ i, score int }
	var ranked []scored
	for i, s := range sents {
		n := 0
		for _, t := range Terms(s) {
			if q[t] {
				n++
			}
		}
		ranked = append(ranked, scored{i, n})
	}
	sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].score > ranked[b].score })
	var pick []int
	for _, r := range ranked {
		if len(pick) == 2 || (r.score == 0 && len(pick) > 0) {
			break
		}
		pick = append(pick, r.i)
	}
	sort.Ints(pick)
	var b strings.Builder
	for _, i := range pick {
		s := sents[i]
		if b.Len() > 0 && b.Len()+1+len(s) > limit {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if len(s) > limit {
			s = cut(s, limit)
		}
		b.WriteString(s)
	}
	return Draft{Body: b.String(), Used: []int{0}, Known: b.Len() > 0}, nil
}

// cut shortens s to at most n bytes at a word boundary, with an ellipsis.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, ' '); i > n/2 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ,;:") + "…"
}
