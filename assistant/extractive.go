package assistant

import (
	"context"
	"math"
	"sort"
	"strings"

	"chatsvc/search"
	"chatsvc/support"
)

// Extractive is the default provider: it needs no network and answers with
// the sentences of the best passage that answer the question, after the
// title of their page.
type Extractive struct {
	MaxChars int // answer length bound; 0 means 400
}

// answerSentences is how many sentences an answer quotes at most.
const answerSentences = 2

// Compose quotes the sentences of the best passage that hold most of the
// question's rarer words: a word every sentence of the passage repeats
// (the page's subject) says little about which sentence answers. It cites
// every passage given: the others are where else to read.
func (e Extractive) Compose(_ context.Context, question string, _ []*support.Message, passages []search.Passage) (Draft, error) {
	if len(passages) == 0 {
		return Draft{}, nil
	}
	limit := e.MaxChars
	if limit <= 0 {
		limit = 400
	}
	best := passages[0]
	sents := sentences(best.Text)
	pick := answering(Terms(question), sents)
	var b strings.Builder
	if t := strings.TrimSpace(best.Title); t != "" && len(pick) > 0 && !strings.HasPrefix(sents[pick[0]], t) {
		b.WriteString(t + ": ")
	}
	prefix := b.Len()
	for _, i := range pick {
		s := sents[i]
		if b.Len() > prefix && b.Len()+1+len(s) > limit {
			break
		}
		if b.Len() > prefix {
			b.WriteByte(' ')
		}
		if b.Len()+len(s) > limit {
			s = cut(s, limit-b.Len())
		}
		b.WriteString(s)
	}
	used := make([]int, len(passages))
	for i := range used {
		used[i] = i
	}
	return Draft{Body: b.String(), Used: used, Known: b.Len() > prefix}, nil
}

// answering returns, in text order, the sentences with the highest sum of
// the weights of the question's terms they hold, a term weighing more the
// fewer sentences have it; with no term in any, the first sentence.
func answering(question []string, sents []string) []int {
	if len(sents) == 0 {
		return nil
	}
	has := make([]map[string]bool, len(sents))
	df := map[string]int{}
	for i, s := range sents {
		has[i] = map[string]bool{}
		for _, t := range Terms(s) {
			if !has[i][t] {
				has[i][t] = true
				df[t]++
			}
		}
	}
	type scored struct {
		i     int
		score float64
	}
	ranked := make([]scored, len(sents))
	seen := map[string]bool{}
	for _, t := range question {
		if seen[t] || df[t] == 0 {
			continue
		}
		seen[t] = true
		w := 1 + math.Log(float64(len(sents))/float64(df[t]))
		for i := range sents {
			if has[i][t] {
				ranked[i].score += w
			}
		}
	}
	for i := range ranked {
		ranked[i].i = i
	}
	sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].score > ranked[b].score })
	var pick []int
	for _, r := range ranked {
		if len(pick) == answerSentences || (r.score == 0 && len(pick) > 0) {
			break
		}
		pick = append(pick, r.i)
	}
	sort.Ints(pick)
	return pick
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
