package web_test

import (
	"context"
	"strings"
	"testing"

	"chatsvc/assistant"
)

func TestAssistantAnswersFromTheKnowledgeOfTheKeysMode(t *testing.T) {
	t.Parallel()
	k := newKsEnvWith(t, true, true)
	other, err := k.Svc.CreateSite(context.Background(), "Other", "")
	if err != nil {
		t.Fatal(err)
	}
	k.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "text", "name": "Returns",
		"content": "# Returns\n\nReturns are free for thirty days after delivery.", "site_id": k.Site}).OK(t, 201)
	k.work()
	ask := func(key string, body map[string]any) map[string]any {
		t.Helper()
		return k.Do("POST", "/v1/assistant/answers", key, body).OK(t, 200)
	}

	a := ask(k.TestKey, map[string]any{"question": "Are returns free?", "site_id": k.Site})
	srcs, _ := a["sources"].([]any)
	if a["object"] != "assistant_answer" || a["known"] != true || !strings.Contains(a["body"].(string), "thirty days") || len(srcs) != 1 {
		t.Fatalf("answer %v", a)
	}
	if s := srcs[0].(map[string]any); s["title"] != "Returns" || s["score"].(float64) <= 0 || s["score"].(float64) > 1 {
		t.Fatalf("source %v", s)
	}
	// Another site's visitors, sources of every site only, and the other mode do not see the page.
	for _, c := range []struct {
		key  string
		body map[string]any
	}{
		{k.TestKey, map[string]any{"question": "Are returns free?", "site_id": other.ID}},
		{k.TestKey, map[string]any{"question": "Are returns free?", "site_id": nil}},
		{k.LiveKey, map[string]any{"question": "Are returns free?", "site_id": k.Site}},
	} {
		if a := ask(c.key, c.body); a["known"] != false || len(a["sources"].([]any)) != 0 || a["body"] != assistant.UnknownReply {
			t.Errorf("%v: %v", c.body, a)
		}
	}
	// Nothing is stored: no conversation was opened.
	if list := k.Test("GET", "/v1/conversations", nil).OK(t, 200); len(list["data"].([]any)) != 0 {
		t.Fatalf("conversations %v", list)
	}
}

func TestAssistantAnswersValidation(t *testing.T) {
	t.Parallel()
	k := newKsEnvWith(t, true, true)
	for _, c := range []struct {
		name        string
		body        any
		code, param string
	}{
		{"no body", nil, "parameter_missing", "question"},
		{"null question", map[string]any{"question": nil}, "parameter_invalid", "question"},
		{"blank question", map[string]any{"question": "  "}, "parameter_invalid", "question"},
		{"long question", map[string]any{"question": strings.Repeat("a", 4001)}, "parameter_invalid", "question"},
		{"question not a string", map[string]any{"question": 3}, "parameter_invalid", "question"},
		{"unknown site", map[string]any{"question": "hours?", "site_id": "site_nope"}, "resource_missing", "site_id"},
		{"unknown field", map[string]any{"question": "hours?", "mode": "live"}, "parameter_unknown", "mode"},
		{"not an object", "[1]", "body_invalid", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			k.Test("POST", "/v1/assistant/answers", c.body).Fails(t, 400, c.code, c.param)
		})
	}
	k.Test("POST", "/v1/assistant/answers", map[string]any{"question": strings.Repeat("a", 4000)}).OK(t, 200)
	k.Do("POST", "/v1/assistant/answers", "", map[string]any{"question": "hours?"}).Fails(t, 401, "api_key_missing", "")
}
