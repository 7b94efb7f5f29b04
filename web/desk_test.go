package web_test

import (
	"net/url"
	"strings"
	"testing"

	"chatsvc/chat"
	"chatsvc/testenv/webenv"
)

func TestCannedReplies(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	c := e.Test("POST", "/v1/canned-replies", map[string]any{"shortcut": "ship-ca", "title": "Shipping to Canada",
		"body": "Hi {{contact.name}}, yes we ship to Canada."}).OK(t, 201)
	id := c["id"].(string)
	if !strings.HasPrefix(id, "cnr_") || c["object"] != "canned_reply" || c["shortcut"] != "ship-ca" {
		t.Fatalf("created: %v", c)
	}
	e.Test("POST", "/v1/canned-replies", map[string]any{"shortcut": "ship-ca", "title": "Again", "body": "x"}).
		Fails(t, 409, "resource_conflict", "shortcut")
	// Shortcuts are unique per mode: live mode may reuse it and does not see test's.
	e.Live("POST", "/v1/canned-replies", map[string]any{"shortcut": "ship-ca", "title": "Live", "body": "x"}).OK(t, 201)
	e.Live("GET", "/v1/canned-replies/"+id, nil).Fails(t, 404, "resource_missing", "id")

	got := e.Test("PATCH", "/v1/canned-replies/"+id, map[string]any{"title": "Canada"}).OK(t, 200)
	if got["title"] != "Canada" || got["shortcut"] != "ship-ca" || got["body"] != c["body"] {
		t.Fatalf("patched: %v", got)
	}
	other := e.Test("POST", "/v1/canned-replies", map[string]any{"shortcut": "refund", "title": "Refunds",
		"body": "{{agent.name}} here."}).OK(t, 201)["id"].(string)
	e.Test("PATCH", "/v1/canned-replies/"+other, map[string]any{"shortcut": "ship-ca"}).
		Fails(t, 409, "resource_conflict", "shortcut")
	if ids := e.All(e.TestKey, "/v1/canned-replies", 1); len(ids) != 2 || ids[0] != other || ids[1] != id {
		t.Fatalf("list, newest first: %v", ids)
	}
	if e.Test("GET", "/v1/canned-replies/"+id, nil).OK(t, 200)["title"] != "Canada" {
		t.Fatal("retrieve")
	}
	d := e.Test("DELETE", "/v1/canned-replies/"+id, nil).OK(t, 200)
	if d["deleted"] != true || d["object"] != "canned_reply" {
		t.Fatalf("deleted: %v", d)
	}
	e.Test("DELETE", "/v1/canned-replies/"+id, nil).Fails(t, 404, "resource_missing", "id")
	e.Test("PATCH", "/v1/canned-replies/"+id, map[string]any{"title": "x"}).Fails(t, 404, "resource_missing", "id")
}

func TestCannedReplyLimits(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	valid := func() map[string]any { return map[string]any{"shortcut": "a", "title": "T", "body": "B"} }
	cases := []struct {
		field string
		value any
		code  string
	}{
		{"shortcut", nil, "parameter_missing"},
		{"shortcut", "Upper", "parameter_invalid"},
		{"shortcut", "has space", "parameter_invalid"},
		{"shortcut", strings.Repeat("a", 33), "parameter_invalid"},
		{"shortcut", "", "parameter_invalid"},
		{"title", nil, "parameter_missing"},
		{"title", " ", "parameter_invalid"},
		{"title", strings.Repeat("t", 101), "parameter_invalid"},
		{"body", nil, "parameter_missing"},
		{"body", strings.Repeat("b", 4001), "parameter_invalid"},
	}
	for _, c := range cases {
		b := valid()
		if c.value == nil {
			delete(b, c.field)
		} else {
			b[c.field] = c.value
		}
		e.Test("POST", "/v1/canned-replies", b).Fails(t, 400, c.code, c.field)
	}
	// The limits themselves are allowed.
	b := map[string]any{"shortcut": strings.Repeat("a", 32), "title": strings.Repeat("t", 100), "body": strings.Repeat("b", 4000)}
	id := e.Test("POST", "/v1/canned-replies", b).OK(t, 201)["id"].(string)
	e.Test("PATCH", "/v1/canned-replies/"+id, map[string]any{"title": nil}).Fails(t, 400, "parameter_invalid", "title")
	e.Test("PATCH", "/v1/canned-replies/"+id, map[string]any{"colour": "red"}).Fails(t, 400, "parameter_unknown", "colour")
	e.Test("GET", "/v1/canned-replies?limit=0", nil).Fails(t, 400, "parameter_invalid", "limit")
}

// searchIDs runs a search and returns "type:id" of each result, in order.
func searchIDs(t *testing.T, e *webenv.Env, key, query string) []string {
	t.Helper()
	b := e.Do("GET", "/v1/search?"+query, key, nil).OK(t, 200)
	var out []string
	for _, r := range b["data"].([]any) {
		m := r.(map[string]any)
		if m["object"] != "search_result" {
			t.Fatalf("result: %v", m)
		}
		out = append(out, m["type"].(string)+":"+m["id"].(string))
	}
	return out
}

func TestSearch(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Do you ship to Canada? My parcel is late.")
	noted := e.Conversation(chat.Test, "Hello there")
	e.Test("POST", cvPath(noted, "/notes"), map[string]any{"body": "Refund approved by finance", "author_id": e.Member}).OK(t, 201)
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Broken umbrella", "description": "The handle snapped",
		"contact_id": e.Contact("grace@example.com")}).OK(t, 201)["id"].(string)
	e.Test("POST", "/v1/tickets/"+tkt+"/comments", map[string]any{"body": "Replacement handle sent under warranty",
		"author_id": e.Member, "public": false}).OK(t, 201)
	ctc := e.Test("POST", "/v1/contacts", map[string]any{"email": "zelda@example.com", "name": "Zelda Fitzgerald"}).OK(t, 201)["id"].(string)
	liveConv := e.Conversation(chat.Live, "Canada shipping for live mode")
	e.SearchIndexed()

	for q, want := range map[string]string{
		"q=canada":                   "conversation:" + conv,
		"q=PARCELS":                  "conversation:" + conv, // stemmed, any case
		"q=refund":                   "conversation:" + noted,
		"q=handle":                   "ticket:" + tkt,
		"q=umbrellas":                "ticket:" + tkt, // by its stem
		"q=warranty":                 "ticket:" + tkt, // by a comment, internal ones included
		"q=zelda+fitzgerald":         "contact:" + ctc,
		"q=zelda%40example":          "contact:" + ctc,
		"q=canada&type=conversation": "conversation:" + conv,
	} {
		if got := searchIDs(t, e, e.TestKey, q); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %v, want [%s]", q, got, want)
		}
	}
	if got := searchIDs(t, e, e.TestKey, "q=canada&type=ticket"); len(got) != 0 {
		t.Errorf("type=ticket: %v", got)
	}
	if got := searchIDs(t, e, e.LiveKey, "q=canada"); len(got) != 1 || got[0] != "conversation:"+liveConv {
		t.Errorf("live mode sees only its own: %v", got)
	}
	// Every word is required, and FTS5 syntax in the query is only text.
	if got := searchIDs(t, e, e.TestKey, "q="+url.QueryEscape(`canada NOT "refund" OR umbrella`)); len(got) != 0 {
		t.Errorf("operators: %v", got)
	}
	r := e.Test("GET", "/v1/search?q=canada", nil).OK(t, 200)["data"].([]any)[0].(map[string]any)
	if r["title"] == "" || !strings.Contains(r["snippet"].(string), "Canada") {
		t.Errorf("result: %v", r)
	}
	e.Test("POST", "/v1/tickets", map[string]any{"subject": "Lost kettle", "contact_id": e.Contact("kay@example.com")}).OK(t, 201)
	e.SearchIndexed()
	// A ticket with no description: its subject, nothing after it.
	if r := e.Test("GET", "/v1/search?q=kettle", nil).OK(t, 200)["data"].([]any)[0].(map[string]any); r["snippet"] != "Lost kettle" {
		t.Errorf("snippet %q, want %q", r["snippet"], "Lost kettle")
	}

	e.Test("GET", "/v1/search", nil).Fails(t, 400, "parameter_missing", "q")
	e.Test("GET", "/v1/search?q=%20%21%3F", nil).Fails(t, 400, "parameter_invalid", "q")
	e.Test("GET", "/v1/search?q=%20%20", nil).Fails(t, 400, "parameter_invalid", "q") // spaces only: a q with no word
	e.Test("GET", "/v1/search?q="+strings.Repeat("a", 201), nil).Fails(t, 400, "parameter_invalid", "q")
	e.Test("GET", "/v1/search?q="+strings.Repeat("a+", 11), nil).Fails(t, 400, "parameter_invalid", "q")
	e.Test("GET", "/v1/search?q=a&type=note", nil).Fails(t, 400, "parameter_invalid", "type")
	e.Test("GET", "/v1/search?q=a&sort=new", nil).Fails(t, 400, "parameter_unknown", "sort")
}

func TestSearchPages(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	want := map[string]bool{}
	for i := 0; i < 5; i++ {
		want[e.Conversation(chat.Test, "Where is my invoice?")] = true
	}
	e.SearchIndexed()
	ids := e.All(e.TestKey, "/v1/search?q=invoice", 2)
	if len(ids) != 5 {
		t.Fatalf("pages: %v", ids)
	}
	for _, id := range ids {
		if !want[id] {
			t.Fatalf("unexpected or repeated %s in %v", id, ids)
		}
		delete(want, id)
	}
}

// Erasing a contact takes their words out of the search tables at once, and
// the desk-search-index worker does not bring them back.
func TestSearchErasure(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctc := e.Test("POST", "/v1/contacts", map[string]any{"email": erasedEmail, "name": erasedName}).OK(t, 201)["id"].(string)
	conv := cvStart(t, e, chat.Test, e.Site, ctc, "I am Ada Lovelace and my order is missing")
	e.Test("POST", cvPath(conv, "/notes"), map[string]any{"body": "Lovelace is a regular", "author_id": e.Member}).OK(t, 201)
	e.SearchIndexed()
	if got := searchIDs(t, e, e.TestKey, "q=lovelace"); len(got) != 2 {
		t.Fatalf("before erasure: %v", got)
	}
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	gone := func(when string) {
		for _, q := range []string{"q=lovelace", "q=ada", "q=example"} {
			if got := searchIDs(t, e, e.TestKey, q); len(got) != 0 {
				t.Errorf("%s %s: %v", q, when, got)
			}
		}
	}
	gone("after erasure")
	e.SearchIndexed()
	gone("once the erased texts are indexed again")
	if got := searchIDs(t, e, e.TestKey, "q=missing"); len(got) != 1 || got[0] != "conversation:"+conv {
		t.Errorf("the rest of an erased text: %v", got)
	}
}
