package cli

import (
	"context"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/config"
	"chatsvc/outbound"
	"chatsvc/search"
)

// newAssistant builds the assistant the configuration asks for, over index.
func newAssistant(cfg *config.Config, index search.Searcher) app.Responder {
	var p assistant.Provider = assistant.Extractive{}
	if cfg.Assistant.Provider == "openai" {
		o := cfg.Assistant.OpenAI
		p = assistant.OpenAI{BaseURL: o.BaseURL, APIKey: o.APIKey, Model: o.Model,
			Client: outbound.New(outbound.Options{AllowPrivate: cfg.Network.AllowPrivate, Timeout: 25 * time.Second})}
	}
	return assistant.New(index, p)
}

// noIndex is the knowledge index until one is configured: it finds
// nothing, so the assistant offers a person.
type noIndex struct{}

func (noIndex) Search(context.Context, search.Query) ([]search.Passage, error) { return nil, nil }
