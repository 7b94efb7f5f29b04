package assistant

import (
	"context"
	"fmt"
	"net/http"
)

// Embeddings is a client of any OpenAI-compatible /embeddings endpoint
// (OpenAI, a local llama.cpp server, Ollama): app.Embedder.
type Embeddings struct {
	BaseURL string // e.g. http://127.0.0.1:11434/v1
	APIKey  string
	Name    string // the model
	Client  *http.Client
}

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Model names the model, so vectors of another model are made again.
func (e Embeddings) Model() string { return e.Name }

// Embed returns one vector per text, in the order of texts.
func (e Embeddings) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var out embeddingsResponse
	if err := postJSON(ctx, e.Client, e.BaseURL, "/embeddings", e.APIKey, embeddingsRequest{Model: e.Name, Input: texts}, &out); err != nil {
		return nil, err
	}
	vecs := make([][]float32, len(texts))
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embeddings: unexpected response")
		}
		vecs[d.Index] = d.Embedding
	}
	for _, v := range vecs {
		if v == nil {
			return nil, fmt.Errorf("embeddings: %d inputs, fewer vectors", len(texts))
		}
	}
	return vecs, nil
}
