package knowledge

import (
	"context"
	"log/slog"
	"sort"
)

// rrfK damps reciprocal rank fusion: a page's fused score is the sum of
// 1/(rrfK+rank) over the rankings that found it, so agreement between the
// two rankings counts for more than the top of either one.
const rrfK = 60

// Fused merges a lexical and a semantic search by reciprocal rank. The
// lexical one decides on its own when the semantic one fails: a question
// is never left unanswered because an embeddings server is down.
type Fused struct {
	Lexical, Semantic Searcher
}

// Search runs both searches and ranks their pages together. A page keeps
// the lexical search's passage (it holds the question's words) and the
// better of the two matches.
func (f Fused) Search(ctx context.Context, q Query) ([]Passage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	wide := q
	wide.Limit = MaxLimit // a page low in one ranking may be high in the fused one
	lex, err := f.Lexical.Search(ctx, wide)
	if err != nil {
		return nil, err
	}
	sem, err := f.Semantic.Search(ctx, wide)
	if err != nil {
		slog.Warn("semantic search unavailable; answering from the lexical search alone", "err", err)
		return lex[:min(limit, len(lex))], nil
	}
	return fuse(lex, sem, limit), nil
}

func fuse(lex, sem []Passage, limit int) []Passage {
	type fusedPage struct {
		p     Passage
		score float64
	}
	byKey := map[string]*fusedPage{}
	var order []*fusedPage
	for _, ranking := range [][]Passage{lex, sem} {
		for rank, p := range ranking {
			key := p.SourceID + "\x00" + p.URL + "\x00" + p.Title
			f, ok := byKey[key]
			if !ok {
				f = &fusedPage{p: p}
				byKey[key] = f
				order = append(order, f)
			}
			f.score += 1 / float64(rrfK+rank+1)
			f.p.Match = max(f.p.Match, p.Match)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].score > order[j].score })
	out := make([]Passage, 0, min(limit, len(order)))
	for _, f := range order[:min(limit, len(order))] {
		f.p.Score = f.score
		out = append(out, f.p)
	}
	return out
}
