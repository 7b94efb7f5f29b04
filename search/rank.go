package search

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Default and largest number of passages a search returns.
const (
	DefaultLimit = 5
	MaxLimit     = 50
)

// Ranking settings, measured on the development evaluation (docs/assistant.md).
const (
	poolSize      = 80   // chunks read to rank pages from
	synonymWeight = 0.6  // a thesaurus word counts this much of the customer's own
	maxSynonyms   = 5    // thesaurus words searched per word of the question, in the thesaurus's order
	moreChunks    = 0.02 // each further matching chunk of a page adds this share of its score
	textCredit    = 0.5  // a word only in a page's text counts this much of one the page is about
	pageSize      = 0.2  // a long page's best chunk is discounted by 1 + pageSize·ln(its chunks)
)

// fieldBoosts weigh where a question's words are found: the page's title,
// opening and URL say what the page is about, a heading what the passage is.
var fieldBoosts = []struct {
	field string
	boost float64
}{{"text", 1}, {"heading", 2}, {"title", 2}, {"lead", 2}, {"path", 0.5}}

// Search returns the best passage of each of the pages best matching
// q.Text, among the chunks of q.Mode whose source serves q.SiteID or every
// site, best page first.
func (x *Index) Search(ctx context.Context, q Query) ([]Passage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	terms := questionTerms(q.Text, q.Synonyms)
	if len(terms) == 0 {
		return []Passage{}, nil
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(termsQuery(terms), scope(q)), poolSize, 0, false)
	req.Fields = []string{"source_id", "url", "title", "heading", "text", "lead", "path", "chunks"}
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	// Ties in a stable order, the same after a rebuild. Sorted here, among
	// the pool only: asking bleve to sort by id reads every match's id.
	sort.SliceStable(res.Hits, func(i, j int) bool {
		a, b := res.Hits[i], res.Hits[j]
		return a.Score > b.Score || a.Score == b.Score && a.ID < b.ID
	})
	concepts, err := x.concepts(ctx, terms)
	if err != nil {
		return nil, err
	}
	pages := x.rankPages(res.Hits, concepts)
	out := make([]Passage, 0, min(limit, len(pages)))
	for _, p := range pages[:min(limit, len(pages))] {
		out = append(out, p.best)
	}
	return out, nil
}

// termsQuery matches the question's terms, and their synonyms at a lower
// weight, in every text field.
func termsQuery(terms []term) query.Query {
	var words, syns []string
	for _, t := range terms {
		words = append(words, t.text)
		syns = append(syns, t.syns...)
	}
	any := bleve.NewDisjunctionQuery()
	for _, f := range fieldBoosts {
		m := bleve.NewMatchQuery(strings.Join(words, " "))
		m.SetField(f.field)
		m.SetBoost(f.boost)
		any.AddQuery(m)
		if len(syns) > 0 {
			s := bleve.NewMatchQuery(strings.Join(syns, " "))
			s.SetField(f.field)
			s.SetBoost(f.boost * synonymWeight)
			any.AddQuery(s)
		}
	}
	return any
}

// scope keeps to the chunks of the query's mode and site.
func scope(q Query) query.Query {
	filter := func(field, value string) *query.TermQuery {
		t := bleve.NewTermQuery(value)
		t.SetField(field)
		t.SetBoost(0) // filters decide membership, not rank
		return t
	}
	sites := bleve.NewDisjunctionQuery(filter("site_id", allSites))
	if q.SiteID != "" {
		sites.AddQuery(filter("site_id", q.SiteID))
	}
	return bleve.NewConjunctionQuery(sites, filter("mode", string(q.Mode)))
}

// concept is one term of the question: the stems of the term and of each
// synonym (an expression has several, all needed), weighted by how rare the
// term is in the index (a term no page has weighs most).
type concept struct {
	alts   [][]string
	weight float64
	absent bool // no page has the term itself
}

// concepts analyses the question's terms as the index does.
func (x *Index) concepts(ctx context.Context, terms []term) ([]concept, error) {
	an := x.idx.Mapping().AnalyzerNamed("en")
	adv, err := x.idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	n, err := r.DocCount()
	if err != nil {
		return nil, err
	}
	stems := func(s string) []string {
		var out []string
		for _, t := range an.Analyze([]byte(s)) {
			out = append(out, string(t.Term))
		}
		return out
	}
	var out []concept
	for _, t := range terms {
		own := stems(t.text)
		if len(own) == 0 {
			continue // a stop word of the analyser
		}
		c := concept{alts: [][]string{own}}
		df := uint64(n) // an expression is as rare as its rarest word
		for _, s := range own {
			if tfr, err := r.TermFieldReader(ctx, []byte(s), "text", false, false, false); err == nil {
				df = min(df, tfr.Count())
				tfr.Close()
			}
		}
		c.weight = math.Log(1 + float64(n+1)/float64(df+1))
		c.absent = df == 0
		for _, s := range t.syns {
			if st := stems(s); len(st) > 0 {
				c.alts = append(c.alts, st)
			}
		}
		out = append(out, c)
	}
	return unknownWords(out), nil
}

// unknownWords weighs the words no page has like an average word: a
// customer's own word ("laptop") is not a sign that the question is off the
// pages' subject, but a question of nothing else is.
func unknownWords(cs []concept) []concept {
	var sum float64
	known := 0
	for _, c := range cs {
		if !c.absent {
			sum += c.weight
			known++
		}
	}
	for i := range cs {
		if cs[i].absent && known > 0 {
			cs[i].weight = sum / float64(known)
		}
	}
	return cs
}

// page is a candidate page: its best passage and its score.
type page struct {
	best         Passage
	score        float64         // BM25 of its best chunks, adjusted by coverage
	about, words map[string]bool // the stems of its title, lead, path and best heading; of its matching text
}

// rankPages groups the hits by page and ranks the pages: the best chunk's
// score, discounted on long pages (which have more chunks to match a word
// by chance), plus a share of the next ones (a page that answers in
// several places), times the square of how much of the question the page
// covers: what the page is about outweighs one passage's word counts.
func (x *Index) rankPages(hits search.DocumentMatchCollection, concepts []concept) []*page {
	byKey := map[string]*page{}
	var order []*page
	for _, h := range hits {
		str := func(k string) string { s, _ := h.Fields[k].(string); return s }
		key := str("source_id") + "\x00" + str("url") + "\x00" + str("title")
		p, ok := byKey[key]
		if !ok {
			p = &page{best: Passage{SourceID: str("source_id"), URL: str("url"), Title: str("title"),
				Heading: str("heading"), Text: str("text"), Score: h.Score}, about: map[string]bool{}, words: map[string]bool{}}
			byKey[key] = p
			order = append(order, p)
			for _, f := range []string{"title", "lead", "path", "heading"} {
				x.stems.add(p.about, str(f))
			}
			p.score = h.Score
			if n, ok := h.Fields["chunks"].(float64); ok && n > 1 {
				p.score /= 1 + pageSize*math.Log(n)
			}
		} else {
			p.score += moreChunks * h.Score
		}
		x.stems.add(p.words, str("heading"))
		x.stems.add(p.words, str("text"))
	}
	for _, p := range order {
		p.best.Match = coverage(concepts, p.about, p.words)
		p.score *= (0.25 + p.best.Match) * (0.25 + p.best.Match)
		p.best.Score = p.score
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].score > order[j].score })
	return order
}

// coverage is the weighted share of the concepts the page has a stem of:
// in full where the page is about it, in part where its text mentions it.
func coverage(concepts []concept, about, words map[string]bool) float64 {
	var got, all float64
	for _, c := range concepts {
		all += c.weight
		credit := 0.0
		for _, alt := range c.alts {
			if allIn(alt, about, nil) {
				credit = 1
				break
			}
			if allIn(alt, about, words) {
				credit = textCredit
			}
		}
		got += credit * c.weight
	}
	if all == 0 {
		return 0
	}
	return got / all
}

// allIn reports whether every stem is in a or b.
func allIn(stems []string, a, b map[string]bool) bool {
	for _, s := range stems {
		if !a[s] && !b[s] {
			return false
		}
	}
	return true
}
