package server

import (
	"net/http"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/config"
	"chatsvc/knowledge"
	"chatsvc/outbound"
	"chatsvc/storage"
)

// newAssistant builds the assistant the configuration asks for, over
// index and, when an embeddings server is configured, vectors.
func newAssistant(cfg *config.Config, index knowledge.Searcher, vectors *app.Vectors) app.Responder {
	if vectors != nil {
		index = knowledge.Fused{Lexical: index, Semantic: vectors}
	}
	var p assistant.Provider = assistant.Extractive{}
	if cfg.Assistant.Provider == "openai" {
		o := cfg.Assistant.OpenAI
		p = assistant.OpenAI{BaseURL: o.BaseURL, APIKey: o.APIKey, Model: o.Model, Client: operatorClient(25 * time.Second)}
	}
	return assistant.New(index, p)
}

// newVectors is the semantic search when assistant.embeddings names a
// model folder or a server; nil otherwise.
func newVectors(cfg *config.Config, db *storage.DB) *app.Vectors {
	switch e := cfg.Assistant.Embeddings; {
	case e.ModelDir != "":
		return app.NewVectors(db, &assistant.StaticModel{Dir: e.ModelDir})
	case e.BaseURL != "":
		return app.NewVectors(db, assistant.Embeddings{BaseURL: e.BaseURL, APIKey: e.APIKey, Name: e.Model,
			Client: operatorClient(time.Minute)})
	}
	return nil
}

// operatorClient reaches a server the operator named in the configuration
// (a model or embeddings server): trusted, so a local one on loopback or a
// private address needs no network.allow_private. The guard stays for the
// URLs that API users supply.
func operatorClient(timeout time.Duration) *http.Client {
	return outbound.New(outbound.Options{AllowPrivate: true, Timeout: timeout})
}
