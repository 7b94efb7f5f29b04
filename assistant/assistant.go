// Package assistant answers visitors from the team's knowledge: it finds
// passages with a knowledge.Searcher, has a Provider write the reply from
// them, and lists the pages used as sources. It says so when it does not
// know, and asks for a person when the visitor wants one. When it may
// speak (only in `open` conversations) is decided by package app.
package assistant

import (
	"context"
	"fmt"
	"strings"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/knowledge"
	"chatsvc/lang"
)

// Provider writes a reply to a question from passages, best first. It
// reports which passages it used, or Known false when they do not answer.
type Provider interface {
	Compose(ctx context.Context, question string, history []*chat.Message, passages []knowledge.Passage) (Draft, error)
}

// Draft is a provider's reply.
type Draft struct {
	Body  string
	Used  []int // indexes into the passages given
	Known bool
}

// Passages asks the index for this many candidates.
const Passages = 5

// Assistant is an app.Responder.
type Assistant struct {
	index    knowledge.Searcher
	provider Provider
}

// New returns an assistant that searches index and writes with provider.
func New(index knowledge.Searcher, provider Provider) *Assistant {
	return &Assistant{index: index, provider: provider}
}

var _ app.Responder = (*Assistant)(nil)

// Respond answers one visitor message, in the visitor's language: the
// message's own, or the widget's when the message is too short to tell.
func (a *Assistant) Respond(ctx context.Context, q app.Question) (app.Answer, error) {
	language := lang.Detect(q.Text, q.Locale)
	say := textsIn(language)
	if AsksForPerson(q.Text) {
		return app.Answer{Body: say.handOff, HandOff: true}, nil
	}
	if isGreeting(q.Text) {
		return app.Answer{Body: say.greeting}, nil
	}
	if isThanks(q.Text) {
		return app.Answer{Body: say.thanks}, nil
	}
	found, err := a.index.Search(ctx, knowledge.Query{Mode: q.Mode, SiteID: q.SiteID, Text: q.Text, Lang: language,
		Limit: Passages, Synonyms: q.Synonyms})
	if err != nil {
		return app.Answer{}, fmt.Errorf("search: %w", err)
	}
	passages := DefaultGate.Relevant(q.Text, found)
	if Beyond(q.Text, found) {
		passages = nil
	}
	if len(passages) == 0 {
		return app.Answer{Body: say.unknown, Abstained: true}, nil
	}
	d, err := a.provider.Compose(ctx, q.Text, q.History, passages)
	if err != nil {
		return app.Answer{}, err
	}
	if !d.Known || strings.TrimSpace(d.Body) == "" {
		return app.Answer{Body: say.unknown, Abstained: true}, nil
	}
	srcs, scores := sourcesOf(passages, d.Used)
	return app.Answer{Body: strings.TrimSpace(d.Body), Sources: srcs, Scores: scores, Known: true}, nil
}

// sourcesOf lists the pages of the used passages, each page once, with
// their scores.
func sourcesOf(passages []knowledge.Passage, used []int) ([]chat.Source, []float64) {
	out, scores := []chat.Source{}, []float64{}
	seen := map[string]bool{}
	for _, i := range used {
		if i < 0 || i >= len(passages) {
			continue
		}
		p := passages[i]
		key := p.URL + "\x00" + p.Title
		if seen[key] {
			continue
		}
		seen[key] = true
		title := p.Title
		if title == "" {
			title = p.URL
		}
		out = append(out, chat.Source{Title: title, URL: p.URL})
		scores = append(scores, p.Match)
	}
	return out, scores
}
