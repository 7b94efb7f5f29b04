package web_test

import (
	"strings"
	"testing"
)

// TestSynonymsTeachTheAssistantTheCustomersWords: a question in the
// customer's words is not answered until the team says what they mean;
// then it is, in that mode only, and no longer once the group is deleted.
func TestSynonymsTeachTheAssistantTheCustomersWords(t *testing.T) {
	t.Parallel()
	k := newKsEnvWith(t, true, true)
	source := map[string]any{"type": "text", "name": "Desk",
		"content": "# Parking a draft\n\nStash a draft reply to come back to it later: it waits under Drafts."}
	k.Test("POST", "/v1/knowledge-sources", source).OK(t, 201)
	k.Do("POST", "/v1/knowledge-sources", k.LiveKey, source).OK(t, 201)
	k.work()
	question := map[string]any{"question": "Can I put on hold a reply I am writing?"}
	known := func(key string) bool {
		t.Helper()
		a := k.Do("POST", "/v1/assistant/answers", key, question).OK(t, 200)
		return a["known"] == true && strings.Contains(a["body"].(string), "Drafts")
	}
	if known(k.TestKey) {
		t.Fatal("answered before the team's synonyms")
	}

	g := k.Test("POST", "/v1/assistant/synonyms", map[string]any{"words": []string{"Stash", " put  on HOLD ", "park"}}).OK(t, 201)
	id, _ := g["id"].(string)
	if !strings.HasPrefix(id, "syn_") || g["object"] != "synonym" || strings.Join(strSlice(g["words"]), "|") != "stash|put on hold|park" {
		t.Fatalf("group %v", g)
	}
	if !known(k.TestKey) {
		t.Fatal("not answered with the team's synonyms")
	}
	k.Do("GET", "/v1/assistant/synonyms/"+id, k.LiveKey, nil).Fails(t, 404, "resource_missing", "id")
	list := k.Test("GET", "/v1/assistant/synonyms", nil).OK(t, 200)
	if data, _ := list["data"].([]any); len(data) != 1 || list["has_more"] != false {
		t.Fatalf("list %v", list)
	}
	if got := k.Test("PATCH", "/v1/assistant/synonyms/"+id, map[string]any{"words": []string{"stash", "shelve"}}).OK(t, 200); strings.Join(strSlice(got["words"]), "|") != "stash|shelve" {
		t.Fatalf("updated %v", got)
	}
	if known(k.TestKey) {
		t.Fatal("answered with the group's old words")
	}
	k.Test("POST", "/v1/assistant/synonyms", map[string]any{"words": []string{"stash", "put on hold"}}).OK(t, 201)
	if !known(k.TestKey) || known(k.LiveKey) {
		t.Fatal("a mode's synonyms serve that mode only")
	}
	k.Test("DELETE", "/v1/assistant/synonyms/"+id, nil).OK(t, 200)
	k.Test("GET", "/v1/assistant/synonyms/"+id, nil).Fails(t, 404, "resource_missing", "id")
	k.Test("DELETE", "/v1/assistant/synonyms/"+id, nil).Fails(t, 404, "resource_missing", "id")
}

func TestSynonymsValidation(t *testing.T) {
	t.Parallel()
	k := newKsEnvWith(t, true, true)
	many := make([]string, 21)
	for i := range many {
		many[i] = "word" + strings.Repeat("x", i)
	}
	for _, c := range []struct {
		name        string
		body        any
		code, param string
	}{
		{"no body", nil, "parameter_missing", "words"},
		{"null", map[string]any{"words": nil}, "parameter_invalid", "words"},
		{"not a list", map[string]any{"words": "stash"}, "parameter_invalid", "words"},
		{"one word", map[string]any{"words": []string{"stash"}}, "parameter_invalid", "words"},
		{"21 words", map[string]any{"words": many}, "parameter_invalid", "words"},
		{"empty word", map[string]any{"words": []string{"stash", "  "}}, "parameter_invalid", "words.1"},
		{"51 characters", map[string]any{"words": []string{"stash", strings.Repeat("a", 51)}}, "parameter_invalid", "words.1"},
		{"five words", map[string]any{"words": []string{"stash", "put it on hold now"}}, "parameter_invalid", "words.1"},
		{"punctuation", map[string]any{"words": []string{"stash", "hold!"}}, "parameter_invalid", "words.1"},
		{"twice", map[string]any{"words": []string{"Stash", "park", "stash"}}, "parameter_invalid", "words.2"},
		{"unknown field", map[string]any{"words": []string{"a", "b"}, "weight": 2}, "parameter_unknown", "weight"},
	} {
		t.Run(c.name, func(t *testing.T) {
			k.Test("POST", "/v1/assistant/synonyms", c.body).Fails(t, 400, c.code, c.param)
		})
	}
	// Fifty characters, four words and non-English letters are fine.
	k.Test("POST", "/v1/assistant/synonyms", map[string]any{"words": []string{strings.Repeat("a", 50), "put it on hold", "zurücklegen"}}).OK(t, 201)
	k.Test("PATCH", "/v1/assistant/synonyms/syn_nope", map[string]any{"words": []string{"a", "b"}}).Fails(t, 404, "resource_missing", "id")
}

func strSlice(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
