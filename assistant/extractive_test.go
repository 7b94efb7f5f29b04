package assistant_test

import (
	"context"
	"strings"
	"testing"

	"chatsvc/assistant"
	"chatsvc/search"
)

// TestExtractiveQuotesTheAnsweringSentence: the sentence that answers holds
// the question's rarer words, while the others repeat the page's subject.
func TestExtractiveQuotesTheAnsweringSentence(t *testing.T) {
	refunds := search.Passage{URL: "https://shop.example.com/refunds", Title: "Refunds", Text: "Refunds, refund requests and " +
		"refund notes are listed under Refunds in your account. A refund can be cancelled before the refund is sent. " +
		"The money reaches your card within 5 working days. Gift cards are never refunded."}
	other := search.Passage{URL: "https://shop.example.com/cards", Title: "Payment cards", Text: "We take all major cards."}
	d, err := assistant.Extractive{}.Compose(context.Background(), "How long until a refund reaches my card?", nil,
		[]search.Passage{refunds, other})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Known || !strings.HasPrefix(d.Body, "Refunds: ") || !strings.Contains(d.Body, "within 5 working days") ||
		strings.Contains(d.Body, "listed under") || len(d.Used) != 2 {
		t.Fatalf("draft %+v", d)
	}
	// The title is not repeated when the quoted sentence starts with it; the bound holds.
	d, _ = assistant.Extractive{MaxChars: 60}.Compose(context.Background(), "refund notes", nil, []search.Passage{refunds})
	if strings.HasPrefix(d.Body, "Refunds: ") || !strings.HasPrefix(d.Body, "Refunds, refund requests") || len(d.Body) > 60+len("…") {
		t.Fatalf("bounded draft %q", d.Body)
	}
}

// TestRelevantAsksMoreOfQuestionsAboutTheTeam: a page that matches half of
// a how-to question answers it; a question addressed to the team, or about
// dealings with it, needs a closer match, and the latter a page about them
// (by its title or heading), however many of the question's words another
// page has.
func TestRelevantAsksMoreOfQuestionsAboutTheTeam(t *testing.T) {
	half := []search.Passage{{URL: "https://help.example.com/setup", Title: "Setup", Match: 0.5}}
	about := []search.Passage{{URL: "https://help.example.com/hours", Title: "Opening hours", Match: 0.8}}
	mentions := []search.Passage{{URL: "https://help.example.com/fetch", Title: "Fetch", Heading: "Download objects", Match: 0.8}}
	delivery := []search.Passage{{Title: "Delivery FAQ", Match: 0.8}}
	account := []search.Passage{{URL: "https://help.example.com/account", Title: "Settings", Heading: "Deleting your account", Match: 0.8}}
	for _, c := range []struct {
		q     string
		found []search.Passage
		cited int
	}{
		{"How do I set up the printer?", half, 1},
		{"How do you set up the printer?", half, 1}, // "how do you" asks how a thing is done
		{"Do you set up printers for customers?", half, 0},
		{"What are your opening hours?", half, 0},
		{"What are your opening hours?", about, 1},
		{"How much does the setup cost?", half, 0},
		{"How do I get a refund?", about, 1},
		{"How do I cancel my order?", half, 0},
		{"Where is my parcel?", half, 0},
		{"How do I put the steps in order?", half, 1}, // an order of things, not a purchase
		{"Where can I download my receipts?", mentions, 0},
		{"Is there a free trial?", mentions, 0},
		{"Do you have any job openings?", mentions, 0},
		{"Can you download objects for me?", mentions, 1}, // addressed to the team, naming no dealings
		{"When are parcels delivered?", delivery, 1},      // a page about dealings with the team
		{"How do I delete my account?", account, 1},
		{"How do I delete my account?", mentions, 0},
	} {
		if got := assistant.Relevant(c.q, c.found); len(got) != c.cited {
			t.Errorf("%q with match %.1f: %d cited, want %d", c.q, c.found[0].Match, len(got), c.cited)
		}
	}
}
