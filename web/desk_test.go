package web_test

import (
	"net/url"
	"strings"
	"testing"

	"chatsvc/chat"
)

func TestCannedReplies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.test("POST", "/v1/canned-replies", map[string]any{"shortcut": "ship-ca", "title": "Shipping to Canada",
		"body": "Hi {{contact.name}}, yes we ship to Canada."}).ok(t, 201)
	id := c["id"].(string)
	if !strings.HasPrefix(id, "cnr_") || c["object"] != "canned_reply" || c["shortcut"] != "ship-ca" {
		t.Fatalf("created: %v", c)
	}
	e.test("POST", "/v1/canned-replies", map[string]any{"shortcut": "ship-ca", "title": "Again", "body": "x"}).
		fails(t, 409, "resource_conflict", "shortcut")
	// Shortcuts are unique per mode: live mode may reuse it and does not see test's.
	e.live("POST", "/v1/canned-replies", map[string]any{"shortcut": "ship-ca", "title": "Live", "body": "x"}).ok(t, 201)
	e.live("GET", "/v1/canned-replies/"+id, nil).fails(t, 404, "resource_missing", "id")

	got := e.test("PATCH", "/v1/canned-replies/"+id, map[string]any{"title": "Canada"}).ok(t, 200)
	if got["title"] != "Canada" || got["shortcut"] != "ship-ca" || got["body"] != c["body"] {
		t.Fatalf("patched: %v", got)
	}
	other := e.test("POST", "/v1/canned-replies", map[string]any{"shortcut": "refund", "title": "Refunds",
		"body": "{{agent.name}} here."}).ok(t, 201)["id"].(string)
	e.test("PATCH", "/v1/canned-replies/"+other, map[string]any{"shortcut": "ship-ca"}).
		fails(t, 409, "resource_conflict", "shortcut")
	if ids := e.all(e.testKey, "/v1/canned-replies", 1); len(ids) != 2 || ids[0] != other || ids[1] != id {
		t.Fatalf("list, newest first: %v", ids)
	}
	if e.test("GET", "/v1/canned-replies/"+id, nil).ok(t, 200)["title"] != "Canada" {
		t.Fatal("retrieve")
	}
	d := e.test("DELETE", "/v1/canned-replies/"+id, nil).ok(t, 200)
	if d["deleted"] != true || d["object"] != "canned_reply" {
		t.Fatalf("deleted: %v", d)
	}
	e.test("DELETE", "/v1/canned-replies/"+id, nil).fails(t, 404, "resource_missing", "id")
	e.test("PATCH", "/v1/canned-replies/"+id, map[string]any{"title": "x"}).fails(t, 404, "resource_missing", "id")
}

func TestCannedReplyLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
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
		e.test("POST", "/v1/canned-replies", b).fails(t, 400, c.code, c.field)
	}
	// The limits themselves are allowed.
	b := map[string]any{"shortcut": strings.Repeat("a", 32), "title": strings.Repeat("t", 100), "body": strings.Repeat("b", 4000)}
	id := e.test("POST", "/v1/canned-replies", b).ok(t, 201)["id"].(string)
	e.test("PATCH", "/v1/canned-replies/"+id, map[string]any{"title": nil}).fails(t, 400, "parameter_invalid", "title")
	e.test("PATCH", "/v1/canned-replies/"+id, map[string]any{"colour": "red"}).fails(t, 400, "parameter_unknown", "colour")
	e.test("GET", "/v1/canned-replies?limit=0", nil).fails(t, 400, "parameter_invalid", "limit")
}

// searchIDs runs a search and returns "type:id" of each result, in order.
func searchIDs(t *testing.T, e *env, key, query string) []string {
	t.Helper()
	b := e.do("GET", "/v1/search?"+query, key, nil).ok(t, 200)
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
	e := newEnv(t)
	conv := e.conversation(chat.Test, "Do you ship to Canada? My parcel is late.")
	noted := e.conversation(chat.Test, "Hello there")
	e.test("POST", cvPath(noted, "/notes"), map[string]any{"body": "Refund approved by finance", "author_id": e.member}).ok(t, 201)
	tkt := e.test("POST", "/v1/tickets", map[string]any{"subject": "Broken umbrella", "description": "The handle snapped",
		"contact_id": e.contact("grace@example.com")}).ok(t, 201)["id"].(string)
	e.test("POST", "/v1/tickets/"+tkt+"/comments", map[string]any{"body": "Replacement handle sent under warranty",
		"author_id": e.member, "public": false}).ok(t, 201)
	ctc := e.test("POST", "/v1/contacts", map[string]any{"email": "zelda@example.com", "name": "Zelda Fitzgerald"}).ok(t, 201)["id"].(string)
	liveConv := e.conversation(chat.Live, "Canada shipping for live mode")
	e.searchIndexed()

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
		if got := searchIDs(t, e, e.testKey, q); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %v, want [%s]", q, got, want)
		}
	}
	if got := searchIDs(t, e, e.testKey, "q=canada&type=ticket"); len(got) != 0 {
		t.Errorf("type=ticket: %v", got)
	}
	if got := searchIDs(t, e, e.liveKey, "q=canada"); len(got) != 1 || got[0] != "conversation:"+liveConv {
		t.Errorf("live mode sees only its own: %v", got)
	}
	// Every word is required, and FTS5 syntax in the query is only text.
	if got := searchIDs(t, e, e.testKey, "q="+url.QueryEscape(`canada NOT "refund" OR umbrella`)); len(got) != 0 {
		t.Errorf("operators: %v", got)
	}
	r := e.test("GET", "/v1/search?q=canada", nil).ok(t, 200)["data"].([]any)[0].(map[string]any)
	if r["title"] == "" || !strings.Contains(r["snippet"].(string), "Canada") {
		t.Errorf("result: %v", r)
	}
	e.test("POST", "/v1/tickets", map[string]any{"subject": "Lost kettle", "contact_id": e.contact("kay@example.com")}).ok(t, 201)
	e.searchIndexed()
	// A ticket with no description: its subject, nothing after it.
	if r := e.test("GET", "/v1/search?q=kettle", nil).ok(t, 200)["data"].([]any)[0].(map[string]any); r["snippet"] != "Lost kettle" {
		t.Errorf("snippet %q, want %q", r["snippet"], "Lost kettle")
	}

	e.test("GET", "/v1/search", nil).fails(t, 400, "parameter_missing", "q")
	e.test("GET", "/v1/search?q=%20%21%3F", nil).fails(t, 400, "parameter_invalid", "q")
	e.test("GET", "/v1/search?q=%20%20", nil).fails(t, 400, "parameter_invalid", "q") // spaces only: a q with no word
	e.test("GET", "/v1/search?q="+strings.Repeat("a", 201), nil).fails(t, 400, "parameter_invalid", "q")
	e.test("GET", "/v1/search?q="+strings.Repeat("a+", 11), nil).fails(t, 400, "parameter_invalid", "q")
	e.test("GET", "/v1/search?q=a&type=note", nil).fails(t, 400, "parameter_invalid", "type")
	e.test("GET", "/v1/search?q=a&sort=new", nil).fails(t, 400, "parameter_unknown", "sort")
}

func TestSearchPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	want := map[string]bool{}
	for i := 0; i < 5; i++ {
		want[e.conversation(chat.Test, "Where is my invoice?")] = true
	}
	e.searchIndexed()
	ids := e.all(e.testKey, "/v1/search?q=invoice", 2)
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
	e := newEnv(t)
	ctc := e.test("POST", "/v1/contacts", map[string]any{"email": erasedEmail, "name": erasedName}).ok(t, 201)["id"].(string)
	conv := cvStart(t, e, chat.Test, e.site, ctc, "I am Ada Lovelace and my order is missing")
	e.test("POST", cvPath(conv, "/notes"), map[string]any{"body": "Lovelace is a regular", "author_id": e.member}).ok(t, 201)
	e.searchIndexed()
	if got := searchIDs(t, e, e.testKey, "q=lovelace"); len(got) != 2 {
		t.Fatalf("before erasure: %v", got)
	}
	e.test("DELETE", "/v1/contacts/"+ctc, nil).ok(t, 200)
	gone := func(when string) {
		for _, q := range []string{"q=lovelace", "q=ada", "q=example"} {
			if got := searchIDs(t, e, e.testKey, q); len(got) != 0 {
				t.Errorf("%s %s: %v", q, when, got)
			}
		}
	}
	gone("after erasure")
	e.searchIndexed()
	gone("once the erased texts are indexed again")
	if got := searchIDs(t, e, e.testKey, "q=missing"); len(got) != 1 || got[0] != "conversation:"+conv {
		t.Errorf("the rest of an erased text: %v", got)
	}
}
