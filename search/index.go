package search

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/analyzer/keyword" // registers "keyword"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"          // registers "en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	bolterrors "go.etcd.io/bbolt/errors"

	"chatsvc/support"
)

// DirName is the index's folder inside the data dir.
const DirName = "index.bleve"

// allSites is the site_id of chunks of sources that serve every site.
const allSites = "*"

// Chunk is one indexed passage of a source, with what queries filter on.
type Chunk struct {
	SourceID string
	SiteID   string // "" for a source of every site
	Mode     support.Mode
	URL      string
	Title    string
	Heading  string
	Text     string
}

// doc is a chunk as bleve stores it.
type doc struct {
	SourceID string `json:"source_id"`
	SiteID   string `json:"site_id"`
	Mode     string `json:"mode"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Heading  string `json:"heading"`
	Text     string `json:"text"`
}

// Index is the bleve index of every source's chunks. It implements
// Searcher for the assistant and Replace for the indexing worker.
type Index struct {
	mu  sync.Mutex // one Replace at a time: each reads, then swaps, a source's documents
	idx bleve.Index

	once     sync.Once
	closeErr error
}

// ErrInUse is returned when another process (a running serve) holds the index.
var ErrInUse = errors.New("the search index is in use by another chatsvc process")

// Open opens the index in dataDir, creating it when missing.
func Open(dataDir string) (*Index, error) {
	return open(filepath.Join(dataDir, DirName))
}

func open(path string) (*Index, error) {
	// bolt_timeout: a second process gets ErrInUse instead of waiting forever.
	idx, err := bleve.OpenUsing(path, map[string]any{"bolt_timeout": "1s"})
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		idx, err = bleve.NewUsing(path, indexMapping(), scorch.Name, scorch.Name, map[string]any{"bolt_timeout": "1s"})
	}
	if err != nil {
		if isTimeout(err) {
			return nil, ErrInUse
		}
		return nil, fmt.Errorf("open search index %s: %w", path, err)
	}
	return &Index{idx: idx}, nil
}

// isTimeout recognises bolt's lock timeout: another process has the index.
func isTimeout(err error) bool {
	return errors.Is(err, bolterrors.ErrTimeout) || strings.HasSuffix(err.Error(), bolterrors.ErrTimeout.Error())
}

// indexMapping: the text fields are analysed as English (stemmed, stop
// words dropped) and stored, so a passage is returned without a database
// read; the filters are exact keywords.
func indexMapping() mapping.IndexMapping {
	text := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = "en"
		f.IncludeTermVectors = false
		return f
	}
	keyword := bleve.NewKeywordFieldMapping()
	stored := bleve.NewKeywordFieldMapping()
	stored.Index = false
	stored.IncludeInAll = false

	d := bleve.NewDocumentStaticMapping()
	d.AddFieldMappingsAt("source_id", keyword)
	d.AddFieldMappingsAt("site_id", keyword)
	d.AddFieldMappingsAt("mode", keyword)
	d.AddFieldMappingsAt("url", stored)
	d.AddFieldMappingsAt("title", text())
	d.AddFieldMappingsAt("heading", text())
	d.AddFieldMappingsAt("text", text())

	m := bleve.NewIndexMapping()
	m.DefaultMapping = d
	m.DefaultAnalyzer = "en"
	return m
}

// Close closes the index; closing it again does nothing.
func (x *Index) Close() error {
	x.once.Do(func() { x.closeErr = x.idx.Close() })
	return x.closeErr
}

// Replace makes chunks the whole of a source's documents (none: the
// source is removed). Old and new documents change in one batch, which
// readers see all at once: never half a source.
func (x *Index) Replace(ctx context.Context, sourceID string, chunks []Chunk) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	old, err := x.docIDs(sourceID)
	if err != nil {
		return err
	}
	b := x.idx.NewBatch()
	keep := make(map[string]bool, len(chunks))
	for i, c := range chunks {
		id := docID(sourceID, i)
		keep[id] = true
		if err := b.Index(id, toDoc(c)); err != nil {
			return err
		}
	}
	for _, id := range old {
		if !keep[id] {
			b.Delete(id)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return x.idx.Batch(b)
}

func docID(sourceID string, i int) string { return sourceID + "/" + strconv.Itoa(i) }

func toDoc(c Chunk) doc {
	site := c.SiteID
	if site == "" {
		site = allSites
	}
	return doc{SourceID: c.SourceID, SiteID: site, Mode: string(c.Mode), URL: c.URL, Title: c.Title,
		Heading: c.Heading, Text: c.Text}
}

// docIDs lists the documents of a source.
func (x *Index) docIDs(sourceID string) ([]string, error) {
	q := bleve.NewTermQuery(sourceID)
	q.SetField("source_id")
	var ids []string
	const page = 1000
	for from := 0; ; from += page {
		req := bleve.NewSearchRequestOptions(q, page, from, false)
		res, err := x.idx.Search(req)
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		if len(res.Hits) < page {
			return ids, nil
		}
	}
}

// Count returns how many documents the index holds.
func (x *Index) Count() (uint64, error) { return x.idx.DocCount() }

// Default and largest number of passages a search returns.
const (
	DefaultLimit = 5
	MaxLimit     = 50
)

// Search returns the passages best matching q.Text among the chunks of
// q.Mode whose source serves q.SiteID or every site.
func (x *Index) Search(ctx context.Context, q Query) ([]Passage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	match := func(field string, boost float64) query.Query {
		m := bleve.NewMatchQuery(q.Text)
		m.SetField(field)
		m.SetBoost(boost)
		return m
	}
	words := bleve.NewDisjunctionQuery(match("text", 1), match("title", 2), match("heading", 1.5))
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
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(words, sites, filter("mode", string(q.Mode))),
		limit, 0, false)
	req.Fields = []string{"source_id", "url", "title", "heading", "text"}
	req.SortBy([]string{"-_score", "_id"}) // ties in a stable order, the same after a rebuild
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	out := make([]Passage, 0, len(res.Hits))
	for _, h := range res.Hits {
		str := func(k string) string { s, _ := h.Fields[k].(string); return s }
		out = append(out, Passage{SourceID: str("source_id"), URL: str("url"), Title: str("title"),
			Heading: str("heading"), Text: str("text"), Score: h.Score})
	}
	return out, nil
}
