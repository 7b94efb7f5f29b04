package storage

import (
	"context"
	"encoding/binary"
	"math"

	"chatsvc/chat"
)

// ChunkRef names one stored knowledge chunk.
type ChunkRef struct {
	SourceID string
	Seq      int
}

// UnembeddedChunk is a chunk that has no vector of the current model yet.
type UnembeddedChunk struct {
	ChunkRef
	Title, Heading, Text string
}

// ChunksWithoutVector returns up to limit chunks lacking a vector of model.
func (q *Q) ChunksWithoutVector(ctx context.Context, model string, limit int) ([]UnembeddedChunk, error) {
	rows, err := q.query(ctx, `SELECT c.source_id, c.seq, c.title, c.heading, c.text
		FROM knowledge_chunks c LEFT JOIN knowledge_vectors v ON v.source_id = c.source_id AND v.seq = c.seq
		WHERE v.model IS NULL OR v.model <> ? ORDER BY c.source_id, c.seq LIMIT ?`, model, limit)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (UnembeddedChunk, error) {
		var c UnembeddedChunk
		err := s.Scan(&c.SourceID, &c.Seq, &c.Title, &c.Heading, &c.Text)
		return c, err
	})
}

// PutVector stores the vector of a chunk, replacing one of another model.
// A chunk deleted meanwhile (a sync replaced it) is skipped.
func (q *Q) PutVector(ctx context.Context, c ChunkRef, model string, vec []float32) error {
	_, err := q.exec(ctx, `INSERT INTO knowledge_vectors (source_id, seq, model, vector)
		SELECT source_id, seq, ?, ? FROM knowledge_chunks WHERE source_id = ? AND seq = ?
		ON CONFLICT (source_id, seq) DO UPDATE SET model = excluded.model, vector = excluded.vector`,
		model, encodeVector(vec), c.SourceID, c.Seq)
	return err
}

// VectorChunk is a chunk with its vector and what a search filters on.
type VectorChunk struct {
	KnowledgeChunk
	SiteID string // "" for a source of every site
	Mode   chat.Mode
	Vector []float32
}

// EachVectorChunk calls fn with every chunk that has a vector of model.
func (q *Q) EachVectorChunk(ctx context.Context, model string, fn func(VectorChunk) error) error {
	rows, err := q.query(ctx, `SELECT c.source_id, c.url, c.title, c.heading, c.text, COALESCE(s.site_id, ''), s.mode, v.vector
		FROM knowledge_vectors v JOIN knowledge_chunks c ON c.source_id = v.source_id AND c.seq = v.seq
		JOIN knowledge_sources s ON s.id = c.source_id WHERE v.model = ?`, model)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c VectorChunk
		var blob []byte
		if err := rows.Scan(&c.SourceID, &c.URL, &c.Title, &c.Heading, &c.Text, &c.SiteID, &c.Mode, &blob); err != nil {
			return err
		}
		c.Vector = decodeVector(blob)
		if err := fn(c); err != nil {
			return err
		}
	}
	return rows.Err()
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
