package knowledge

import (
	"context"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"chatsvc/lang"
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
	moreChunks    = 0.07 // each further matching chunk of a page adds this share of its score (0.05–0.1 alike on 83 corpora)
	textCredit    = 0.5  // a word only in a page's text counts this much of one the page is about
	pageSize      = 0.2  // a long page's best chunk is discounted by 1 + pageSize·ln(its chunks)
	// commerceInText is how many words of commerce a knowledge base's text
	// has when it sells, with no page about it: business FAQs have four to
	// eleven, the manuals of the evaluation two or three.
	commerceInText = 4
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
	r, err := x.reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	language := x.questionLang(r, q)
	concepts, err := x.concepts(ctx, r, questionTerms(q.Text, q.Synonyms, language), language)
	if err != nil || len(concepts) == 0 {
		return []Passage{}, err
	}
	mark := markOf(concepts)
	var find query.Query = conceptsQuery(concepts, mark)
	if filters := scope(ctx, r, q); len(filters) > 0 {
		find = bleve.NewConjunctionQuery(append([]query.Query{find}, filters...)...)
	}
	req := bleve.NewSearchRequestOptions(find, poolSize, 0, false)
	req.Fields = []string{"source_id", "url", "title", "heading", "text", "lead", "path", "chunks", "lang"}
	if mark != "" {
		req.Fields = append(req.Fields, "marks") // read only when asked: a stored field costs each match a read
	}
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
	pages := x.rankPages(res.Hits, concepts)
	out := make([]Passage, 0, min(limit, len(pages)))
	for _, p := range pages[:min(limit, len(pages))] {
		out = append(out, p.best)
	}
	return out, nil
}

func (x *Index) reader() (index.IndexReader, error) {
	adv, err := x.idx.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}

// questionLang is the language a question is read in: its own (q.Lang, or
// detected), unless the index has no page in it, when it is the language
// most of the index's pages are in: a visitor who writes "Versandkosten?"
// on an English site is still searched for.
func (x *Index) questionLang(r index.IndexReader, q Query) string {
	want := lang.Base(q.Lang)
	if want == "" {
		want = lang.Detect(q.Text, "")
	}
	d, err := r.FieldDict("lang")
	if err != nil {
		return want
	}
	defer d.Close()
	most, count := want, uint64(0)
	for e, err := d.Next(); err == nil && e != nil; e, err = d.Next() {
		if e.Term == want {
			return want
		}
		if e.Count > count {
			most, count = e.Term, e.Count
		}
	}
	return most
}

// conceptsQuery matches the question's concepts, and their synonyms at a
// lower weight, in every text field, and the passages marked with mark
// ("" for none) that the question asks for.
func conceptsQuery(concepts []concept, mark string) query.Query {
	var own, syns []string
	for _, c := range concepts {
		own = append(own, c.alts[0]...)
		for _, alt := range c.alts[1:] {
			syns = append(syns, alt...)
		}
	}
	any := bleve.NewDisjunctionQuery()
	for _, f := range fieldBoosts {
		any.AddQuery(stemsQuery(f.field, own, f.boost))
		if len(syns) > 0 {
			any.AddQuery(stemsQuery(f.field, syns, f.boost*synonymWeight))
		}
	}
	// A passage's marks are searched only by the word of one: the other
	// words would only lengthen every search.
	if mark != "" {
		any.AddQuery(stemsQuery("marks", []string{mark}, 1))
	}
	return any
}

// markOf is the stem of the mark the concepts ask for, "" for none.
func markOf(concepts []concept) string {
	for _, c := range concepts {
		for _, alt := range c.alts {
			if i := slices.IndexFunc(alt, isMark); i >= 0 {
				return alt[i]
			}
		}
	}
	return ""
}

// stemsQuery matches any of stems in field, as a match query of their
// words would.
func stemsQuery(field string, stems []string, boost float64) query.Query {
	qs := make([]query.Query, len(stems))
	for i, s := range stems {
		t := bleve.NewTermQuery(s)
		t.SetField(field)
		t.SetBoost(boost)
		qs[i] = t
	}
	d := bleve.NewDisjunctionQuery(qs...)
	d.SetMin(1)
	d.SetBoost(boost)
	return d
}

// scope returns the filters that keep a search to the chunks of the
// query's mode and site: none where every chunk is of them (one mode,
// every source for every site), where a filter would only cost each match
// a lookup, a third of a search at 5,000 pages.
func scope(ctx context.Context, r index.IndexReader, q Query) []query.Query {
	n, err := r.DocCount()
	if err != nil {
		n = 0
	}
	filter := func(field, value string) *query.TermQuery {
		t := bleve.NewTermQuery(value)
		t.SetField(field)
		t.SetBoost(0) // filters decide membership, not rank
		return t
	}
	var out []query.Query
	if termCount(ctx, r, "mode", string(q.Mode)) != n {
		out = append(out, filter("mode", string(q.Mode)))
	}
	if termCount(ctx, r, "site_id", allSites) != n {
		sites := bleve.NewDisjunctionQuery(filter("site_id", allSites))
		if q.SiteID != "" {
			sites.AddQuery(filter("site_id", q.SiteID))
		}
		out = append(out, sites)
	}
	return out
}

// concept is one term of the question: the stems of the term and of each
// synonym (an expression has several, all needed), weighted by how rare the
// term is in the index. A term no page has weighs most: what no page
// mentions ("payroll", "wifi") is what the pages do not answer. A
// customer's context before the question's own sentence is left out of its
// focus (coverage), so a word of context no page has does not decline the
// question.
type concept struct {
	alts   [][]string
	weight float64
	absent bool // no page has the term itself, nor a word one typo away
	// unbacked is a word of dealings with a business ("price",
	// "delivery") in a knowledge base that has no page about its
	// dealings: its pages use the word in another sense ("mail
	// delivery"), so none covers it.
	unbacked bool
	context  bool // said before the question's own sentence
	// lacking is a word of a thing the question asks the business to
	// offer that no page has: no page answers the question.
	lacking bool
	thing   thingRole
}

// concepts analyses the question's terms as the index does, in language.
// A word no page has is read as the index's word one typo away from it,
// when there is one.
func (x *Index) concepts(ctx context.Context, r index.IndexReader, terms []term, language string) ([]concept, error) {
	an := x.analyzer(language)
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
	count := func(stem, field string) uint64 { return termCount(ctx, r, field, stem) }
	df := func(stem string) uint64 { // the chunks whose text has it, else those whose title has it
		if n := count(stem, "text"); n > 0 {
			return n
		}
		return count(stem, "title")
	}
	// sells reports whether the knowledge base has a page about its
	// dealings: a title, heading or opening with a word of commerce, or,
	// for a text without headings (a pasted FAQ), several of them in its
	// text, where a manual mentions two or three in passing ("the price
	// of", "Courier", "WITHOUT ANY WARRANTY"). Looked up once a question
	// needs it.
	sells := sync.OnceValue(func() bool {
		mentioned := map[string]bool{}
		for w := range commerce[language] {
			for _, st := range stems(w) {
				if count(st, "title")+count(st, "heading")+count(st, "lead") > 0 {
					return true
				}
				if count(st, "text") > 0 {
					mentioned[st] = true
				}
			}
		}
		return len(mentioned) >= commerceInText
	})
	known := func(w string) string { // the stem of w, if a page has it
		if st := stems(w); len(st) == 1 && df(st[0]) > 0 {
			return st[0]
		}
		return ""
	}
	spelled := func(word string) string { // the word as the other side of the Atlantic spells it, if the pages do
		if language != lang.English {
			return ""
		}
		return otherSpelling(word, known)
	}
	apart := func(left, right string) bool { return x.writesApart(ctx, left, right, stems) }
	var out []concept
	for _, t := range terms {
		own := stems(t.text)
		if len(own) == 0 {
			continue // a stop word of the analyser
		}
		var head []string // of a compound read as two words, the last
		if len(own) == 1 && df(own[0]) == 0 {
			if misspeltFiller(language, t.text) {
				continue // how the question is asked, misspelt ("polcy", "pleese")
			}
			if other := spelled(t.text); other != "" {
				own = []string{other}
			} else if code := otherCode(t.text, known); code != "" {
				own = []string{code}
			} else if fixed := correct(r, t.text, own[0]); fixed != "" {
				own = []string{fixed}
			} else if parts := split(language, an, t.text, df, apart); parts != nil {
				own, head = parts, parts[1:]
			} else if form := otherForm(r, language, own[0]); form != "" {
				own = []string{form}
			} else if again := redone(language, an, t.text, df); again != "" {
				own = []string{again}
			}
		}
		c := concept{alts: [][]string{own}, context: t.context}
		if head != nil {
			c.alts = append(c.alts, head)
		}
		least := uint64(n) // an expression is as rare as its rarest word
		for _, s := range own {
			least = min(least, df(s))
		}
		c.weight = math.Log(1 + float64(n+1)/float64(least+1))
		c.absent = least == 0
		c.unbacked = dealings[language][strings.ToLower(t.text)] && !sells()
		c.thing = t.thing
		c.lacking = t.thing != notThing && c.absent && len(t.syns) == 0
		if c.absent && circumstantial(language, t.text) && len(t.syns) == 0 {
			continue // the asker's life, which no page is about
		}
		for _, s := range t.syns {
			if st := stems(s); len(st) > 0 {
				c.alts = append(c.alts, st)
			}
		}
		out = append(out, c)
	}
	// A thing the thesaurus reads in the pages' words ("vegan" for
	// "plant-based") may have their own noun too ("recipes" for "meals").
	inTheirWords := slices.ContainsFunc(out, func(c concept) bool { return c.thing != notThing && c.absent && len(c.alts) > 1 })
	for i := range out {
		if inTheirWords && out[i].thing == thingHead {
			out[i].lacking = false
		}
	}
	return out, nil
}

// writesApart reports whether a page writes left and right as two words
// or hyphened ("second hand", "second-hand"): of the chunks whose text has
// both, the first few are read.
func (x *Index) writesApart(ctx context.Context, left, right string, stems func(string) []string) bool {
	l, r := stems(left), stems(right)
	if len(l) != 1 || len(r) != 1 {
		return false
	}
	both := bleve.NewConjunctionQuery(stemsQuery("text", l, 1), stemsQuery("text", r, 1))
	req := bleve.NewSearchRequestOptions(both, 10, 0, false)
	req.Fields = []string{"text"}
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return false
	}
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(left) + `[ -]` + regexp.QuoteMeta(right))
	for _, h := range res.Hits {
		if text, _ := h.Fields["text"].(string); re.MatchString(text) {
			return true
		}
	}
	return false
}

// termCount is the number of chunks whose field has term.
func termCount(ctx context.Context, r index.IndexReader, field, term string) uint64 {
	tfr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, false)
	if err != nil {
		return 0
	}
	defer tfr.Close()
	return tfr.Count()
}

// page is a candidate page: its best passage and its score.
type page struct {
	best         Passage
	score        float64         // BM25 of its best chunks, adjusted by coverage
	lang         string          // the language its words are analysed in
	about, words map[string]bool // the question's stems in its title, lead, path and best heading; in its matching text
}

// rankPages groups the hits by page and ranks the pages: the best chunk's
// score, discounted on long pages (which have more chunks to match a word
// by chance), plus a share of the next ones (a page that answers in
// several places), times the square of how much of the question the page
// covers: what the page is about outweighs one passage's word counts.
func (x *Index) rankPages(hits search.DocumentMatchCollection, concepts []concept) []*page {
	wanted := map[string]bool{} // the stems coverage looks for: a page's others are not kept
	for _, c := range concepts {
		for _, alt := range c.alts {
			for _, st := range alt {
				wanted[st] = true
			}
		}
	}
	byKey := map[string]*page{}
	var order []*page
	for _, h := range hits {
		str := func(k string) string { s, _ := h.Fields[k].(string); return s }
		key := str("source_id") + "\x00" + str("url") + "\x00" + str("title")
		p, ok := byKey[key]
		if !ok {
			p = &page{best: Passage{SourceID: str("source_id"), URL: str("url"), Title: str("title"),
				Heading: str("heading"), Text: str("text"), Lang: str("lang"), Score: h.Score}, about: map[string]bool{}, words: map[string]bool{}}
			byKey[key] = p
			order = append(order, p)
			p.lang = p.best.Lang
			for _, f := range []string{"title", "lead", "path", "heading"} {
				x.stems.add(p.lang, wanted, p.about, str(f))
			}
			p.score = h.Score
			if n, ok := h.Fields["chunks"].(float64); ok && n > 1 {
				p.score /= 1 + pageSize*math.Log(n)
			}
		} else {
			p.score += moreChunks * h.Score
			if len(p.best.More) < MorePassages {
				p.best.More = append(p.best.More, str("text"))
				p.best.MoreHeadings = append(p.best.MoreHeadings, str("heading"))
			}
		}
		x.stems.add(p.lang, wanted, p.words, str("heading"))
		x.stems.add(p.lang, wanted, p.words, str("text"))
		x.stems.add(p.lang, wanted, p.about, str("marks")) // the page holds it, as its title says what it is about
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
// A question that gives its context before asking is covered as much as
// its own sentence is, when that is more: the context is what brought the
// customer, not what they ask.
func coverage(concepts []concept, about, words map[string]bool) float64 {
	var got, all, gotFocus, focus float64
	for _, c := range concepts {
		if c.lacking {
			return 0
		}
		all += c.weight
		if !c.context {
			focus += c.weight
		}
		credit := covers(c, about, words)
		got += credit * c.weight
		if !c.context {
			gotFocus += credit * c.weight
		}
	}
	if all == 0 {
		return 0
	}
	if focus > 0 && focus < all {
		return max(got/all, gotFocus/focus)
	}
	return got / all
}

// covers is how much of concept c a page covers: all of it where the page
// is about it, textCredit where its text mentions it, none where the
// concept is unbacked.
func covers(c concept, about, words map[string]bool) float64 {
	if c.unbacked {
		return 0
	}
	credit := 0.0
	for _, alt := range c.alts {
		if allIn(alt, about, nil) {
			return 1
		}
		if allIn(alt, about, words) {
			credit = textCredit
		}
	}
	return credit
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
