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
