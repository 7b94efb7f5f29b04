package app

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"chatsvc/knowledge"
	"chatsvc/storage"
)

// Embedder turns texts into vectors: an OpenAI-compatible embeddings
// server (assistant.embeddings).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Model() string
}

// Vectors is the optional semantic half of the assistant's search: it
// keeps a vector of every knowledge chunk in the database (the embed
// worker fills them in) and finds the pages nearest a question. It is a
// knowledge.Searcher; knowledge.Fused merges it with the lexical index.
type Vectors struct {
	db       *storage.DB
	embedder Embedder

	mu     sync.Mutex
	gen    uint64 // bumped whenever chunks or vectors change
	loaded uint64 // the gen the cache was read at (0: never)
	cache  []storage.VectorChunk
}

// Embedding settings: chunks per request to the server, and how long a
// question may wait for its vector before the lexical search answers alone.
const (
	embedBatch    = 32
	questionWait  = 3 * time.Second
	minSimilarity = 0.5 // a page this close to the question just reaches search's citing gate
)

// NewVectors returns the semantic search over db's chunks, with vectors
// from embedder.
func NewVectors(db *storage.DB, embedder Embedder) *Vectors {
	return &Vectors{db: db, embedder: embedder, gen: 1}
}

// changed drops the cache: a sync or an embed step changed the chunks.
func (v *Vectors) changed() {
	if v == nil {
		return
	}
	v.mu.Lock()
	v.gen++
	v.mu.Unlock()
}

// Step embeds a batch of chunks that have no vector of the current model.
func (v *Vectors) Step(ctx context.Context) (bool, error) {
	model := v.embedder.Model()
	todo, err := v.db.Read().ChunksWithoutVector(ctx, model, embedBatch)
	if err != nil || len(todo) == 0 {
		return false, err
	}
	texts := make([]string, len(todo))
	for i, c := range todo {
		texts[i] = chunkText(c.Title, c.Heading, c.Text)
	}
	vecs, err := v.embedder.Embed(ctx, texts)
	if err != nil {
		return false, fmt.Errorf("embed %d chunks: %w", len(texts), err)
	}
	if len(vecs) != len(todo) {
		return false, fmt.Errorf("embed %d chunks: the server returned %d vectors", len(todo), len(vecs))
	}
	err = v.db.Write(ctx, func(q *storage.Q) error {
		for i, c := range todo {
			if err := q.PutVector(ctx, c.ChunkRef, model, unit(vecs[i])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	v.changed()
	return len(todo) == embedBatch, nil
}

// chunkText is what is embedded of a chunk: its page title and heading say
// what the passage is about.
func chunkText(title, heading, text string) string {
	if heading != "" && heading != title {
		title += " — " + heading
	}
	return title + "\n" + text
}

// Search returns the pages whose chunks are nearest the question, best
// first, each with its nearest chunk; Match rescales the similarity so that
// minSimilarity reaches the assistant's citing gate.
func (v *Vectors) Search(ctx context.Context, q knowledge.Query) ([]knowledge.Passage, error) {
	ctx, cancel := context.WithTimeout(ctx, questionWait)
	defer cancel()
	qv, err := v.embedder.Embed(ctx, []string{q.Text})
	if err != nil || len(qv) != 1 {
		return nil, fmt.Errorf("embed the question: %w", err)
	}
	chunks, err := v.chunks(ctx)
	if err != nil {
		return nil, err
	}
	want := unit(qv[0])
	best := map[string]knowledge.Passage{}
	for _, c := range chunks {
		if c.Mode != q.Mode || c.SiteID != "" && c.SiteID != q.SiteID || len(c.Vector) != len(want) {
			continue
		}
		sim := dot(want, c.Vector)
		key := c.SourceID + "\x00" + c.URL + "\x00" + c.Title
		if p, ok := best[key]; ok && p.Score >= sim {
			continue
		}
		best[key] = knowledge.Passage{SourceID: c.SourceID, URL: c.URL, Title: c.Title, Heading: c.Heading,
			Text: c.Text, Score: sim, Match: rescale(sim)}
	}
	out := make([]knowledge.Passage, 0, len(best))
	for _, p := range best {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Score > out[j].Score || out[i].Score == out[j].Score && out[i].URL < out[j].URL
	})
	return out[:min(len(out), max(q.Limit, knowledge.DefaultLimit))], nil
}

// chunks returns every chunk with a vector, read again after a change.
func (v *Vectors) chunks(ctx context.Context) ([]storage.VectorChunk, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.loaded == v.gen {
		return v.cache, nil
	}
	gen := v.gen
	var all []storage.VectorChunk
	err := v.db.Read().EachVectorChunk(ctx, v.embedder.Model(), func(c storage.VectorChunk) error {
		all = append(all, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.cache, v.loaded = all, gen
	return all, nil
}

// rescale maps a cosine similarity to the 0..1 match scale of the lexical
// search: minSimilarity becomes the citing gate (0.35), 1 stays 1, and
// anything below minSimilarity falls under the gate.
func rescale(sim float64) float64 {
	const gate = 0.35
	if sim < minSimilarity {
		return max(0, gate*sim/minSimilarity-0.01)
	}
	return min(1, gate+(1-gate)*(sim-minSimilarity)/(1-minSimilarity))
}

func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return v
	}
	n := float32(1 / math.Sqrt(s))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * n
	}
	return out
}

func dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}
