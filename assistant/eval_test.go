package assistant_test

import (
	"context"
	"testing"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/chat"
	"chatsvc/knowledge"
)

// evalSet pairs visitor questions, worded as visitors write them rather
// than as the pages do, with the page that answers each.
var evalSet = []struct{ question, page string }{
	{"Which port does the server listen on?", "install"},
	{"Where is my data stored on disk?", "install"},
	{"How do I rotate an API key?", "api-keys"},
	{"I lost my secret key, can you show it again?", "api-keys"},
	{"Why does my test key get 404 for live conversations?", "modes"},
	{"How do I put the chat on my website?", "widget-install"},
	{"Can other websites embed our widget? How do I restrict domains?", "widget-domains"},
	{"How is user_hash computed for identity verification?", "identity"},
	{"What does the bot do when it doesn't find an answer?", "assistant"},
	{"Can I plug in my own language model instead of the extractive answers?", "assistant-openai"},
	{"What happens to a conversation when an agent replies while it is waiting?", "handoff"},
	{"Is the handoff note visible to the visitor?", "handoff"},
	{"What if the visitor writes again after I closed the conversation?", "closing"},
	{"Can a solved ticket be reopened?", "tickets"},
	{"What priority does a new ticket get by default?", "tickets"},
	{"How do I stop the confirmation e-mail for a ticket?", "ticket-email"},
	{"What happens to mail when no SMTP host is configured?", "ticket-email"},
	{"Are contact e-mail addresses case sensitive?", "contacts"},
	{"How do we honour a GDPR erasure request?", "erasure"},
	{"What kinds of knowledge sources can I add? Is there a size limit for text?", "knowledge"},
	{"When does the nightly sync run?", "sync"},
	{"Why do I get 429 when I sync a source?", "sync"},
	{"How many pages does the crawler read, and does it follow robots.txt?", "crawler"},
	{"How long do I have to answer a webhook request?", "webhooks"},
	{"My webhook endpoint got disabled, how do I turn it back on?", "webhook-retries"},
	{"How do I verify the webhook signature header?", "webhook-signature"},
	{"What is the request id in error responses for?", "errors"},
	{"How do I get the next page of results?", "pagination"},
	{"Can I take a backup while the server is running?", "backup"},
	{"How do I set the SMTP host with an environment variable?", "configuration"},
	{"How do team members sign in to the inbox?", "dashboard"},
}

// evalHitRate asks the assistant every question of evalSet and returns the
// share whose first source is the expected page. It takes any
// knowledge.Searcher, so the same evaluation runs over the product's index
// once that index is fed the pages of docPages.
func evalHitRate(t *testing.T, index knowledge.Searcher, mode chat.Mode) float64 {
	t.Helper()
	a := assistant.New(index, assistant.Extractive{})
	hits := 0
	for _, c := range evalSet {
		ans, err := a.Respond(context.Background(), app.Question{Mode: mode, SiteID: "site_docs", Text: c.question})
		if err != nil {
			t.Fatal(err)
		}
		want := docsBase + c.page
		if len(ans.Sources) > 0 && ans.Sources[0].URL == want {
			hits++
			continue
		}
		t.Logf("miss: %q -> %v (want %s)", c.question, ans.Sources, want)
	}
	return float64(hits) / float64(len(evalSet))
}

// TestRetrievalQuality runs the evaluation over the in-memory index; the
// assistant must answer at least 85% of the questions from the right page.
func TestRetrievalQuality(t *testing.T) {
	if len(evalSet) < 20 {
		t.Fatalf("the evaluation needs at least 20 questions, has %d", len(evalSet))
	}
	rate := evalHitRate(t, docsIndex(t, chat.Live), chat.Live)
	t.Logf("retrieval hit rate: %.1f%% of %d questions", 100*rate, len(evalSet))
	if rate < 0.85 {
		t.Fatalf("hit rate %.1f%%, want at least 85%%", 100*rate)
	}
}
