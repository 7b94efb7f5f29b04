// Package assistanttest writes small models for tests of the assistant's
// semantic search.
package assistanttest

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// WriteStaticModel writes a model2vec folder into dir: a WordPiece
// tokenizer (lower-cased, split at spaces and punctuation) whose vocabulary
// is "[UNK]" (a row of ones) then the words of rows, and their rows as F32, or F16 when
// half is set. Every row has the same length.
func WriteStaticModel(t testing.TB, dir string, rows map[string][]float32, half bool) {
	t.Helper()
	words := slices.Sorted(func(yield func(string) bool) {
		for w := range rows {
			if !yield(w) {
				return
			}
		}
	})
	vocab := map[string]int{"[UNK]": 0}
	dim := len(rows[words[0]])
	table := make([]float32, dim, dim*(len(words)+1))
	for i := range table { // [UNK]'s row is not zero, as in a real model: it must be left out
		table[i] = 1
	}
	for i, w := range words {
		vocab[w] = i + 1
		table = append(table, rows[w]...)
	}
	tok := map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil,
		"added_tokens": []any{map[string]any{"id": 0, "content": "[UNK]", "single_word": false, "lstrip": false,
			"rstrip": false, "normalized": false, "special": true}},
		"normalizer": map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
			"strip_accents": nil, "lowercase": true},
		"pre_tokenizer":  map[string]any{"type": "BertPreTokenizer"},
		"post_processor": nil,
		"decoder":        map[string]any{"type": "WordPiece", "prefix": "##", "cleanup": true},
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": vocab},
	}
	raw, err := json.Marshal(tok)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "tokenizer.json"), raw)
	write(t, filepath.Join(dir, "model.safetensors"), safetensors(table, len(words)+1, dim, half))
	write(t, filepath.Join(dir, "config.json"), []byte(`{"normalize": true}`))
}

// safetensors encodes one tensor, "embeddings", of rows × dim.
func safetensors(table []float32, rows, dim int, half bool) []byte {
	var data []byte
	dtype := "F32"
	for _, x := range table {
		if half {
			data = binary.LittleEndian.AppendUint16(data, toHalf(x))
		} else {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(x))
		}
	}
	if half {
		dtype = "F16"
	}
	header, _ := json.Marshal(map[string]any{"embeddings": map[string]any{"dtype": dtype, "shape": []int{rows, dim},
		"data_offsets": []int{0, len(data)}}})
	header = append(header, strings.Repeat(" ", (8-len(header)%8)%8)...)
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(out, header...), data...)
}

// toHalf rounds x, a normal number of half precision's range, to it.
func toHalf(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	if x == 0 {
		return sign
	}
	exp := int((b>>23)&0xff) - 127 + 15
	return sign | uint16(exp)<<10 | uint16((b>>13)&0x3ff)
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
