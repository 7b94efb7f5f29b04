package server

import (
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
