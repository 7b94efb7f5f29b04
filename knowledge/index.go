package knowledge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	_ "github.com/blevesearch/bleve/v2/analysis/analyzer/keyword" // registers "keyword"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/de"          // registers the analysers of the supported languages
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/es"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fr"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
	bolterrors "go.etcd.io/bbolt/errors"

	"chatsvc/chat"
	"chatsvc/lang"
)

// DirName is the index's folder inside the data dir.
const DirName = "index.bleve"

// allSites is the site_id of chunks of sources that serve every site.
const allSites = "*"

// Chunk is one indexed passage of a source, with what queries filter on.
type Chunk struct {
	SourceID string
	SiteID   string // "" for a source of every site
	Mode     chat.Mode
	URL      string
	Title    string
	Heading  string
	Text     string
	Lang     string // the page's language, one of lang.Supported ("" is English)
}

// doc is a chunk as bleve stores it, with the fields of its page that
// every chunk of the page repeats: a question names the page's subject
// more often than the words of the one passage that answers it.
type doc struct {
	SourceID string  `json:"source_id"`
	SiteID   string  `json:"site_id"`
	Mode     string  `json:"mode"`
	URL      string  `json:"url"`
	Title    string  `json:"title"`
	Heading  string  `json:"heading"`
	Text     string  `json:"text"`
	Lead     string  `json:"lead"`   // the page's first passage, cut to leadChars
	Path     string  `json:"path"`   // the words of the URL's path
	Marks    string  `json:"marks"`  // what the chunk holds: a street address (marks.go)
	Chunks   float64 `json:"chunks"` // how many chunks the page has
	Lang     string  `json:"lang"`   // the page's language: its words are analysed as that language's
}

// BleveType makes a document's language its type, whose mapping analyses
// its text with the language's analyser.
func (d doc) BleveType() string { return d.Lang }

// mappingVersion changes whenever the documents or the mapping do; an index
// of another version is emptied on open, and serve refills it.
const mappingVersion = "5"

var versionKey = []byte("chatsvc_mapping_version")

// Index is the bleve index of every source's chunks. It implements
// Searcher for the assistant and Replace for the indexing worker.
type Index struct {
	mu    sync.Mutex // one Replace at a time: each reads, then swaps, a source's documents
	idx   bleve.Index
	stems *stemmer

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
	if err == nil {
		idx, err = ofThisVersion(path, idx)
	}
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		idx, err = bleve.NewUsing(path, indexMapping(), scorch.Name, scorch.Name, map[string]any{"bolt_timeout": "1s"})
		if err == nil {
			err = idx.SetInternal(versionKey, []byte(mappingVersion))
		}
	}
	if err != nil {
		if isTimeout(err) {
			return nil, ErrInUse
		}
		return nil, fmt.Errorf("open search index %s: %w", path, err)
	}
	x := &Index{idx: idx}
	x.stems = newStemmer(x.analyzer)
	return x, nil
}

// analyzer is the index's analyser of a supported language, English's for
// any other.
func (x *Index) analyzer(language string) analysis.Analyzer {
	if an := x.idx.Mapping().AnalyzerNamed(language); an != nil {
		return an
	}
	return x.idx.Mapping().AnalyzerNamed(lang.English)
}

// ofThisVersion returns idx when it was built by this version's mapping;
// otherwise it deletes it and reports the path missing, so a new one is made.
func ofThisVersion(path string, idx bleve.Index) (bleve.Index, error) {
	v, err := idx.GetInternal(versionKey)
	if err == nil && string(v) == mappingVersion {
		return idx, nil
	}
	if err := idx.Close(); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(path); err != nil {
		return nil, err
	}
	return nil, bleve.ErrorIndexPathDoesNotExist
}

// isTimeout recognises bolt's lock timeout: another process has the index.
func isTimeout(err error) bool {
	return errors.Is(err, bolterrors.ErrTimeout) || strings.HasSuffix(err.Error(), bolterrors.ErrTimeout.Error())
}

// indexMapping: the text fields are analysed in the page's language
// (stemmed, stop words dropped; a document type per language) and stored,
// so a passage is returned without a database read; the filters are exact
// keywords. Scores are BM25's, which stops a long page from winning by
// repeating a word.
func indexMapping() mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	m.ScoringModel = index.BM25Scoring
	m.DefaultMapping = docMapping(lang.English)
	m.DefaultAnalyzer = lang.English
	for _, l := range lang.Supported {
		m.AddDocumentMapping(l, docMapping(l))
	}
	return m
}

// docMapping maps the documents of one language.
func docMapping(language string) *mapping.DocumentMapping {
	text := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = language
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
	d.AddFieldMappingsAt("lead", text())
	d.AddFieldMappingsAt("path", text())
	d.AddFieldMappingsAt("marks", text())
	chunks := bleve.NewNumericFieldMapping()
	chunks.Index = false
	d.AddFieldMappingsAt("chunks", chunks)
	d.AddFieldMappingsAt("lang", keyword)
	d.DefaultAnalyzer = language
	return d
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
	for i, d := range docs(chunks) {
		id := docID(sourceID, i)
		keep[id] = true
		if err := b.Index(id, d); err != nil {
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

// docs turns chunks into documents; a page's chunks come one after the other.
func docs(chunks []Chunk) []doc {
	out := make([]doc, 0, len(chunks))
	for start := 0; start < len(chunks); {
		end := start + 1
		for end < len(chunks) && samePage(chunks[start], chunks[end]) {
			end++
		}
		out = append(out, pageDocs(chunks[start:end])...)
		start = end
	}
	return out
}

func samePage(a, b Chunk) bool {
	return a.SourceID == b.SourceID && a.URL == b.URL && a.Title == b.Title && a.Lang == b.Lang
}

// pageDocs gives every chunk of one page the page's fields: its opening,
// its URL's words and its size.
func pageDocs(page []Chunk) []doc {
	lead := cutWords(page[0].Text, leadChars)
	language := lang.Base(page[0].Lang)
	if language == "" {
		language = lang.English
	}
	out := make([]doc, len(page))
	for i, c := range page {
		site := c.SiteID
		if site == "" {
			site = allSites
		}
		out[i] = doc{SourceID: c.SourceID, SiteID: site, Mode: string(c.Mode), URL: c.URL, Title: c.Title,
			Heading: c.Heading, Text: c.Text, Lead: lead, Path: pathWords(c.URL), Marks: marks(c.Text), Chunks: float64(len(page)), Lang: language}
	}
	return out
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
