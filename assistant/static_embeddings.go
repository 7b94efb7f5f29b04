package assistant

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
)

// StaticModel is a static embedding model in the model2vec format, read
// from a folder: tokenizer.json (a Hugging Face tokenizer), model.safetensors
// (the tensor "embeddings": one row per token) and, optionally, config.json
// (its "normalize", true when absent). A text's vector is the mean of its
// tokens' rows: no server, no network, microseconds a text. The files are
// read on first use; until they load, Embed fails and the word search
// answers alone, as when an embeddings server is down. app.Embedder.
type StaticModel struct {
	Dir string

	once sync.Once
	m    *staticModel
	err  error
}

// staticModel is the loaded model.
type staticModel struct {
	mu        sync.Mutex // the tokenizer keeps state while it encodes
	tok       *tokenizer.Tokenizer
	unk       int       // the unknown token's id, left out of the mean; -1 when none
	rows      []float32 // vocabulary × dim
	dim       int
	normalize bool
}

// Files of a model2vec folder.
const (
	TokenizerFile = "tokenizer.json"
	WeightsFile   = "model.safetensors"
	modelConfig   = "config.json"
)

// maxTokens is how many tokens of a text count, as in model2vec.
const maxTokens = 512

// Model names the model by its folder and its weights' size and time, so a
// model put in its place is used to embed every chunk again.
func (s *StaticModel) Model() string {
	name := "model2vec:" + filepath.Base(s.Dir)
	if fi, err := os.Stat(filepath.Join(s.Dir, WeightsFile)); err == nil {
		name += fmt.Sprintf(":%d:%d", fi.Size(), fi.ModTime().Unix())
	}
	return name
}

// Embed returns one vector per text, in the order of texts.
func (s *StaticModel) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	s.once.Do(func() { s.m, s.err = loadStaticModel(s.Dir) })
	if s.err != nil {
		return nil, s.err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := s.m.embed(t)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (m *staticModel) embed(text string) ([]float32, error) {
	m.mu.Lock()
	enc, err := m.tok.EncodeSingle(text, false)
	m.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("model2vec: tokenize: %w", err)
	}
	v := make([]float32, m.dim)
	n := 0
	for _, id := range enc.Ids[:min(len(enc.Ids), maxTokens)] {
		if id == m.unk || id < 0 || (id+1)*m.dim > len(m.rows) {
			continue
		}
		for j, x := range m.rows[id*m.dim : (id+1)*m.dim] {
			v[j] += x
		}
		n++
	}
	if n == 0 {
		return v, nil
	}
	var norm float64
	for j := range v {
		v[j] /= float32(n)
		norm += float64(v[j]) * float64(v[j])
	}
	if m.normalize && norm > 0 {
		scale := float32(1 / math.Sqrt(norm))
		for j := range v {
			v[j] *= scale
		}
	}
	return v, nil
}

func loadStaticModel(dir string) (*staticModel, error) {
	tok, err := pretrained.FromFile(filepath.Join(dir, TokenizerFile))
	if err != nil {
		return nil, fmt.Errorf("model2vec: %s: %w", TokenizerFile, err)
	}
	rows, dim, err := readEmbeddings(filepath.Join(dir, WeightsFile))
	if err != nil {
		return nil, fmt.Errorf("model2vec: %s: %w", WeightsFile, err)
	}
	m := &staticModel{tok: tok, unk: -1, rows: rows, dim: dim, normalize: true}
	if id, ok := tok.TokenToId("[UNK]"); ok {
		m.unk = id
	}
	if raw, err := os.ReadFile(filepath.Join(dir, modelConfig)); err == nil {
		var cfg struct {
			Normalize *bool `json:"normalize"`
		}
		if err := json.Unmarshal(raw, &cfg); err != nil {
			return nil, fmt.Errorf("model2vec: %s: %w", modelConfig, err)
		}
		if cfg.Normalize != nil {
			m.normalize = *cfg.Normalize
		}
	}
	return m, nil
}

// readEmbeddings reads the tensor "embeddings" of a safetensors file: an
// 8-byte little-endian header length, a JSON header naming each tensor's
// type, shape and bytes, then the bytes. F32 and F16 are read.
func readEmbeddings(path string) ([]float32, int, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(raw) < 8 {
		return nil, 0, errors.New("too short for a safetensors file")
	}
	n := binary.LittleEndian.Uint64(raw)
	if n > uint64(len(raw)-8) {
		return nil, 0, errors.New("its header is longer than the file")
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(raw[8:8+n], &header); err != nil {
		return nil, 0, fmt.Errorf("header: %w", err)
	}
	var t struct {
		DType   string   `json:"dtype"`
		Shape   []int    `json:"shape"`
		Offsets [2]int64 `json:"data_offsets"`
	}
	if err := json.Unmarshal(header["embeddings"], &t); err != nil || len(t.Shape) != 2 {
		return nil, 0, errors.New(`no two-dimensional tensor "embeddings"`)
	}
	data := raw[8+n:]
	if t.Offsets[0] < 0 || t.Offsets[0] > t.Offsets[1] || t.Offsets[1] > int64(len(data)) {
		return nil, 0, errors.New("the tensor's bytes are outside the file")
	}
	data = data[t.Offsets[0]:t.Offsets[1]]
	count := t.Shape[0] * t.Shape[1]
	out := make([]float32, count)
	switch t.DType {
	case "F32":
		if len(data) != 4*count {
			return nil, 0, errors.New("the tensor's size does not match its shape")
		}
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
	case "F16":
		if len(data) != 2*count {
			return nil, 0, errors.New("the tensor's size does not match its shape")
		}
		for i := range out {
			out[i] = halfToFloat(binary.LittleEndian.Uint16(data[2*i:]))
		}
	default:
		return nil, 0, fmt.Errorf("tensor type %s is not read (F32 and F16 are)", t.DType)
	}
	return out, t.Shape[1], nil
}

// halfToFloat converts an IEEE 754 half-precision number.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0: // zero or subnormal: frac × 2⁻²⁴
		return math.Float32frombits(sign | math.Float32bits(float32(frac)/(1<<24)))
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
