package app

import (
	"context"

	"chatsvc/chat"
)

// AssistantAnswer is what the assistant would reply to a question, with
// the pages it used and how well each matched; nothing of it is stored.
type AssistantAnswer struct {
	Object  string         `json:"object"`
	Body    string         `json:"body"`
	Known   bool           `json:"known"`
	Sources []ScoredSource `json:"sources"`
}

// ScoredSource is a cited page with its retrieval score (0 to 1, higher
// is a closer match; comparable within one answer only).
type ScoredSource struct {
	Title string  `json:"title"`
	URL   string  `json:"url"`
	Score float64 `json:"score"`
}

// AssistantQuestion is a question asked outside a conversation: the
// question, and the site whose visitors would ask it (unset: only sources
// of every site are searched).
type AssistantQuestion struct {
	Question Field[string]
	SiteID   Field[string]
}

// AskAssistant answers a question with the widget's search and provider,
// as a visitor of the site would be answered, without storing anything.
func (s *Service) AskAssistant(ctx context.Context, mode chat.Mode, in AssistantQuestion) (*AssistantAnswer, error) {
	if !in.Question.has() {
		return nil, missing("question")
	}
	if err := checkLen("question", in.Question.V, MaxTestQuestion, true); err != nil {
		return nil, err
	}
	site := ""
	if in.SiteID.has() {
		if _, err := s.db.Read().Site(ctx, in.SiteID.V); err != nil {
			return nil, found(err, noSuchRef("site_id", "site", in.SiteID.V))
		}
		site = in.SiteID.V
	}
	a, err := s.TestAssistant(ctx, mode, site, in.Question.V)
	if err != nil {
		return nil, err
	}
	out := &AssistantAnswer{Object: "assistant_answer", Body: a.Body, Known: a.Known, Sources: []ScoredSource{}}
	for i, src := range a.Sources {
		sc := ScoredSource{Title: src.Title, URL: src.URL}
		if i < len(a.Scores) {
			sc.Score = a.Scores[i]
		}
		out.Sources = append(out.Sources, sc)
	}
	return out, nil
}

// MaxTestQuestion bounds the question of the dashboard's "test the
// assistant" box, like a visitor's message.
const MaxTestQuestion = 4000

// TestAssistant asks the assistant a question as a visitor of the site
// would (siteID "" for sources of every site), without making a conversation.
func (s *Service) TestAssistant(ctx context.Context, mode chat.Mode, siteID, text string) (*Answer, error) {
	if err := checkLen("question", text, MaxTestQuestion, true); err != nil {
		return nil, err
	}
	r := s.assistant.responder
	if r == nil {
		return nil, &Error{Kind: Forbidden, Code: CodeFeatureUnavailable, Message: "No assistant is configured."}
	}
	synonyms, err := s.teamSynonyms(ctx, mode)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, respondTimeout)
	defer cancel()
	a, err := r.Respond(ctx, Question{Mode: mode, SiteID: siteID, Text: text, Synonyms: synonyms})
	if err != nil {
		return nil, err
	}
	return &a, nil
}
