package assistant_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/chat"
	"chatsvc/knowledge"
	"chatsvc/knowledge/knowledgetest"
	"chatsvc/outbound"
)

func TestAsksForPerson(t *testing.T) {
	for text, want := range map[string]bool{
		"Can I talk to a human please?":            true,
		"human":                                    true,
		"Agent!":                                   true,
		"I want to speak to someone":               true,
		"let me speak with a real person":          true,
		"connect me to an agent":                   true,
		"I need a person, not a bot":               true,
		"How do I add an agent to the inbox?":      false,
		"What is a human-readable ticket number?":  false,
		"How do I reset my password?":              false,
		"Does the person who wrote in get e-mail?": false,
	} {
		if got := assistant.AsksForPerson(text); got != want {
			t.Errorf("AsksForPerson(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestRespond(t *testing.T) {
	idx := docsIndex(t, chat.Live)
	idx.Add(knowledgetest.Page{SiteID: "site_a", Mode: chat.Live, URL: "https://a.example.com/opening-hours",
		Title: "Opening hours", Text: "Our shop in Lyon is open from 9 to 18, Monday to Saturday."})
	a := assistant.New(idx, assistant.Extractive{})
	ask := func(mode chat.Mode, site, text string) app.Answer {
		t.Helper()
		ans, err := a.Respond(context.Background(), app.Question{Mode: mode, SiteID: site, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	ans := ask(chat.Live, "site_a", "How often are failed webhook deliveries retried?")
	if len(ans.Sources) == 0 || len(ans.Sources) > assistant.Cited || ans.Sources[0].URL != docsBase+"webhook-retries" ||
		ans.Sources[0].Title != "Webhook retries" || !strings.Contains(ans.Body, "6 hours") || len(ans.Body) > 400 || ans.HandOff {
		t.Fatalf("answer %+v", ans)
	}
	if ans := ask(chat.Live, "site_a", "talk to a person"); !ans.HandOff || len(ans.Sources) != 0 {
		t.Fatalf("asking for a person: %+v", ans)
	}
	if ans := ask(chat.Live, "site_a", "Hello!"); ans.Body != assistant.GreetingReply {
		t.Fatalf("greeting: %+v", ans)
	}
	for _, text := range []string{"Ich möchte mit einem Menschen sprechen.", "Je voudrais parler à une personne.",
		"Quiero hablar con una persona.", "Ik wil met een mens praten."} {
		if ans := ask(chat.Live, "site_a", text); !ans.HandOff || strings.Contains(ans.Body, "Sure,") {
			t.Errorf("%q: %+v", text, ans)
		}
	}
	// Thanks and goodbyes are no question, and no gap in the pages.
	for _, text := range []string{"thanks", "Thank you!", "ok thanks", "Bye", "great, that helps, thanks a lot"} {
		if ans := ask(chat.Live, "site_a", text); ans.Body != assistant.ThanksReply || ans.Abstained || ans.HandOff {
			t.Errorf("%q: %+v", text, ans)
		}
	}
	if ans := ask(chat.Live, "site_a", "thanks, how often are failed webhook deliveries retried?"); len(ans.Sources) == 0 {
		t.Errorf("a question after thanks: %+v", ans)
	}
	for _, c := range []struct {
		name       string
		mode       chat.Mode
		site, text string
	}{
		{"unrelated", chat.Live, "site_a", "Do you sell blue bicycles?"},
		{"other mode", chat.Test, "site_a", "How often are failed webhook deliveries retried?"},
		{"other site", chat.Live, "site_b", "When is the Lyon shop open?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ans := ask(c.mode, c.site, c.text)
			if ans.Body != assistant.UnknownReply || len(ans.Sources) != 0 || ans.HandOff {
				t.Fatalf("answer %+v", ans)
			}
		})
	}
	if ans := ask(chat.Live, "site_a", "When is the Lyon shop open?"); len(ans.Sources) != 1 ||
		ans.Sources[0].URL != "https://a.example.com/opening-hours" {
		t.Fatalf("site source: %+v", ans)
	}
}

type failingIndex struct{}

func (failingIndex) Search(context.Context, knowledge.Query) ([]knowledge.Passage, error) {
	return nil, errors.New("index unavailable")
}

func TestRespondIndexFailure(t *testing.T) {
	a := assistant.New(failingIndex{}, assistant.Extractive{})
	if _, err := a.Respond(context.Background(), app.Question{Mode: chat.Live, Text: "How do I rotate a key?"}); err == nil {
		t.Fatal("no error from a failing index")
	}
}

// chatServer speaks the chat-completions protocol; reply decides the answer.
func chatServer(t *testing.T, reply func(req map[string]any) (int, string)) (*httptest.Server, *[]map[string]any) {
	var got []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, "bad request line", 400)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var req map[string]any
		json.Unmarshal(raw, &req)
		got = append(got, req)
		status, content := reply(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestOpenAIProvider(t *testing.T) {
	idx := docsIndex(t, chat.Live)
	answer := "Failed deliveries are retried after 1 minute, 5 minutes, 30 minutes and 2 hours, then every 6 hours [1]."
	srv, reqs := chatServer(t, func(req map[string]any) (int, string) {
		msgs := req["messages"].([]any)
		last := msgs[len(msgs)-1].(map[string]any)["content"].(string)
		switch {
		case strings.Contains(last, "broken"):
			return 500, ""
		case strings.Contains(last, "refund"):
			return 200, "NO_ANSWER"
		}
		return 200, answer
	})
	p := assistant.OpenAI{BaseURL: srv.URL + "/v1/", APIKey: "sk-test", Model: "test-model",
		Client: outbound.New(outbound.Options{AllowPrivate: true, Timeout: 5 * time.Second})}
	a := assistant.New(idx, p)
	history := []*chat.Message{{Author: chat.Author{Type: chat.AuthorContact}, Body: "hi"},
		{Author: chat.Author{Type: chat.AuthorBot}, Body: assistant.GreetingReply}}
	ans, err := a.Respond(context.Background(), app.Question{Mode: chat.Live, Text: "How often are failed webhook deliveries retried?", History: history})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ans.Body, "[1]") || !strings.Contains(ans.Body, "every 6 hours") ||
		len(ans.Sources) != 1 || ans.Sources[0].URL != docsBase+"webhook-retries" {
		t.Fatalf("answer %+v", ans)
	}
	req := (*reqs)[0]
	msgs := req["messages"].([]any)
	sys := msgs[0].(map[string]any)
	if req["model"] != "test-model" || sys["role"] != "system" || !strings.Contains(sys["content"].(string), "[1] Webhook retries") ||
		len(msgs) != 4 || msgs[1].(map[string]any)["role"] != "user" || msgs[2].(map[string]any)["role"] != "assistant" {
		t.Fatalf("request %v", req)
	}
	// The model finds no answer in the passages: the assistant says so.
	ans, err = a.Respond(context.Background(), app.Question{Mode: chat.Live, Text: "How long does a webhook refund take?"})
	if err != nil || ans.Body != assistant.UnknownReply || len(ans.Sources) != 0 {
		t.Fatalf("no answer: %+v %v", ans, err)
	}
	// A failing service is an error, which the queue retries and then falls back on.
	if _, err := a.Respond(context.Background(), app.Question{Mode: chat.Live, Text: "webhook retries broken"}); err == nil {
		t.Fatal("no error from a failing service")
	}
	// The outbound guard applies: without allow_private, a loopback URL is refused.
	p.Client = outbound.New(outbound.Options{Timeout: 5 * time.Second})
	_, err = assistant.New(idx, p).Respond(context.Background(), app.Question{Mode: chat.Live, Text: "How often are failed webhook deliveries retried?"})
	if !outbound.IsPrivateAddress(err) {
		t.Fatalf("loopback call: %v", err)
	}
}
