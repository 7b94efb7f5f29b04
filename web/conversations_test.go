package web_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

// ---------------------------------------------------------------------------
// Shape helpers (shared with contacts_test.go).

// cvKind is the JSON type a field of an API object must have.
type cvKind = testenv.Kind

const (
	cvString       = testenv.String
	cvStringOrNull = testenv.StringOrNull
	cvInt          = testenv.Int
	cvObject       = testenv.Object
	cvArray        = testenv.Array
	cvTime         = testenv.Time
	cvTimeOrNull   = testenv.TimeOrNull
	cvBool         = testenv.Bool
	cvObjectOrNull = testenv.ObjectOrNull
)

// cvIsTime reports whether v is an ISO 8601 timestamp in UTC ("…Z").
func cvIsTime(v any) bool { return testenv.IsTime(v) }

// cvFields checks that obj has exactly the fields of want, each of its type.
func cvFields(t *testing.T, what string, obj map[string]any, want map[string]cvKind) {
	t.Helper()
	testenv.Fields(t, what, obj, want)
}

// cvIdent checks an object's id prefix and object value.
func cvIdent(t *testing.T, obj map[string]any, object, prefix string) {
	t.Helper()
	testenv.Ident(t, obj, object, prefix)
}

var cvConversationFields = map[string]cvKind{
	"id": cvString, "object": cvString, "site_id": cvString, "status": cvString, "subject": cvStringOrNull,
	"contact_id": cvStringOrNull, "assignee_id": cvStringOrNull, "message_count": cvInt, "page_url": cvString,
	"last_message_at": cvTime, "metadata": cvObject, "tags": cvArray, "rating": cvObjectOrNull, "created_at": cvTime, "updated_at": cvTime,
}

// cvConversation checks the shape of a conversation as the API documents it.
func cvConversation(t *testing.T, c map[string]any) {
	t.Helper()
	cvFields(t, "conversation", c, cvConversationFields)
	cvIdent(t, c, "conversation", "conv_")
	if s, _ := c["status"].(string); !slices.Contains([]string{"open", "waiting", "handed_off", "closed"}, s) {
		t.Errorf("status = %v", c["status"])
	}
	if m, ok := c["metadata"].(map[string]any); ok {
		for k, v := range m {
			if _, ok := v.(string); !ok {
				t.Errorf("metadata.%s = %#v, want a string", k, v)
			}
		}
	}
}

// cvMessage checks the shape of a message as the API documents it.
func cvMessage(t *testing.T, m map[string]any) {
	t.Helper()
	cvFields(t, "message", m, map[string]cvKind{
		"id": cvString, "object": cvString, "conversation_id": cvString, "author": cvObject, "body": cvString,
		"attachments": cvArray, "sources": cvArray, "created_at": cvTime,
	})
	cvIdent(t, m, "message", "msg_")
	if a, ok := m["author"].(map[string]any); ok {
		cvFields(t, "message.author", a, map[string]cvKind{"type": cvString, "id": cvStringOrNull, "name": cvStringOrNull})
		if s, _ := a["type"].(string); !slices.Contains([]string{"contact", "bot", "agent", "system"}, s) {
			t.Errorf("author.type = %v", a["type"])
		}
	}
	for i, x := range cvAnys(m["attachments"]) {
		o, _ := x.(map[string]any)
		cvFields(t, fmt.Sprintf("message.attachments[%d]", i), o, map[string]cvKind{"url": cvString, "name": cvString, "size": cvInt})
	}
	for i, x := range cvAnys(m["sources"]) {
		o, _ := x.(map[string]any)
		cvFields(t, fmt.Sprintf("message.sources[%d]", i), o, map[string]cvKind{"title": cvString, "url": cvString})
	}
}

func cvAnys(v any) []any { return testenv.Anys(v) }

// cvList checks a list envelope and returns its objects.
func cvList(t *testing.T, b map[string]any) []map[string]any {
	t.Helper()
	return testenv.List(t, b)
}

func cvIDs(objs []map[string]any) []string { return testenv.IDs(objs) }

// cvEqual fails unless got and want are the same JSON value.
func cvEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	testenv.Equal(t, what, got, want)
}

// cvWalk pages through a list with the given page size, calling between
// (when not nil) before each following page, and returns the ids seen. It
// fails on a duplicate id or an inconsistent envelope.
func cvWalk(t *testing.T, e *webenv.Env, key, path string, limit int, between func()) []string {
	t.Helper()
	get := func(p string) map[string]any { return e.Do("GET", p, key, nil).OK(t, 200) }
	return testenv.Walk(t, get, path, limit, between)
}

// cvListParams checks the pagination rules of a list endpoint whose list
// has at least two and at most 100 rows.
func cvListParams(t *testing.T, e *webenv.Env, path string) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	b := e.Test("GET", path+sep+"limit=1", nil).OK(t, 200)
	if n := len(cvList(t, b)); n != 1 || b["has_more"] != true {
		t.Fatalf("limit=1: %d rows, has_more %v", n, b["has_more"])
	}
	if c, _ := b["next_cursor"].(string); c == "" {
		t.Fatalf("limit=1: next_cursor %v", b["next_cursor"])
	}
	b = e.Test("GET", path+sep+"limit=100", nil).OK(t, 200)
	if n := len(cvList(t, b)); n < 2 || b["has_more"] != false || b["next_cursor"] != nil {
		t.Fatalf("limit=100: %d rows, has_more %v, next_cursor %v", n, b["has_more"], b["next_cursor"])
	}
	for _, bad := range []string{"0", "101", "-1", "abc", "1.5", "1e2", " 5"} {
		e.Test("GET", path+sep+"limit="+url.QueryEscape(bad), nil).Fails(t, 400, "parameter_invalid", "limit")
	}
	// "Zm9v" is "foo" (no dot), "eC55" is "x.y" (no number): well-formed base64, not cursors.
	for _, bad := range []string{"nope!", "Zm9v", "eC55", "%%%"} {
		e.Test("GET", path+sep+"cursor="+url.QueryEscape(bad), nil).Fails(t, 400, "parameter_invalid", "cursor")
	}
	e.Test("GET", path+sep+"limit=1&limit=2", nil).Fails(t, 400, "parameter_invalid", "limit")
	e.Test("GET", path+sep+"bogus=1", nil).Fails(t, 400, "parameter_unknown", "bogus")
}

// ---------------------------------------------------------------------------
// Conversation helpers.

func cvPath(conv string, tail ...string) string {
	return "/v1/conversations/" + conv + strings.Join(tail, "")
}

func cvGet(t *testing.T, e *webenv.Env, conv string) map[string]any {
	t.Helper()
	c := e.Test("GET", cvPath(conv), nil).OK(t, 200)
	cvConversation(t, c)
	return c
}

// cvSay posts an agent message by e.member and returns it.
func cvSay(t *testing.T, e *webenv.Env, conv, body string) map[string]any {
	t.Helper()
	m := e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": body, "author_id": e.Member}).OK(t, 201)
	cvMessage(t, m)
	return m
}

// cvMessages returns every message of a conversation (at most 100).
func cvMessages(t *testing.T, e *webenv.Env, conv string) []map[string]any {
	t.Helper()
	b := e.Test("GET", cvPath(conv, "/messages?limit=100"), nil).OK(t, 200)
	if b["has_more"] != false {
		t.Fatalf("more than 100 messages")
	}
	return cvList(t, b)
}

// cvInState opens a conversation and brings it to status.
func cvInState(t *testing.T, e *webenv.Env, status string) string {
	t.Helper()
	conv := e.Conversation(chat.Test, "Hello there. I need help with my invoice")
	switch status {
	case "open":
	case "waiting":
		e.Test("POST", cvPath(conv, "/handoff"), nil).OK(t, 200)
	case "handed_off":
		e.Test("POST", cvPath(conv, "/handoff"), map[string]any{"assignee_id": e.Member2}).OK(t, 200)
	case "closed":
		e.Test("POST", cvPath(conv, "/close"), nil).OK(t, 200)
	default:
		t.Fatalf("unknown status %s", status)
	}
	if got := cvGet(t, e, conv)["status"]; got != status {
		t.Fatalf("setup: status %v, want %s", got, status)
	}
	return conv
}

// cvStart opens a conversation through the app layer with options.
func cvStart(t *testing.T, e *webenv.Env, mode chat.Mode, site, contact, body string) string {
	t.Helper()
	c, _, err := e.Svc.StartConversation(context.Background(), mode, app.VisitorStart{
		SiteID: site, VisitorID: "vis_cv", PageURL: "https://example.com/help", ContactID: contact, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// ---------------------------------------------------------------------------
// Shapes.

func TestConversationShape(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello there. I need help with my invoice")
	c := cvGet(t, e, conv)
	want := map[string]any{"id": conv, "object": "conversation", "site_id": e.Site, "status": "open",
		"subject": "I need help with my invoice", "contact_id": nil, "assignee_id": nil, "message_count": float64(1),
		"page_url": "https://example.com/pricing", "metadata": map[string]any{}}
	for k, v := range want {
		cvEqual(t, "conversation."+k, c[k], v)
	}
	if c["last_message_at"] != c["created_at"] {
		t.Errorf("last_message_at %v != created_at %v for a conversation with one message", c["last_message_at"], c["created_at"])
	}
	if c["updated_at"].(string) < c["created_at"].(string) {
		t.Errorf("updated_at %v before created_at %v", c["updated_at"], c["created_at"])
	}

	// The list shows the same object.
	list := cvList(t, e.Test("GET", "/v1/conversations", nil).OK(t, 200))
	if len(list) != 1 {
		t.Fatalf("list has %d conversations", len(list))
	}
	cvConversation(t, list[0])
	cvEqual(t, "listed conversation", list[0], c)

	// A conversation opened by an identified contact carries its id.
	ctc := e.Contact("cv-shape@example.com")
	conv2 := cvStart(t, e, chat.Test, e.Site, ctc, "Hi")
	c2 := cvGet(t, e, conv2)
	if c2["contact_id"] != ctc || c2["subject"] != "Hi" {
		t.Errorf("contact_id %v subject %v", c2["contact_id"], c2["subject"])
	}
}

func TestMessageShape(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello there. I need help")
	msgs := cvMessages(t, e, conv)
	if len(msgs) != 1 {
		t.Fatalf("%d messages, want 1", len(msgs))
	}
	first := msgs[0]
	cvMessage(t, first)
	cvEqual(t, "first message author", first["author"], map[string]any{"type": "contact", "id": nil, "name": nil})
	cvEqual(t, "first message body", first["body"], "Hello there. I need help")
	cvEqual(t, "first message conversation_id", first["conversation_id"], conv)
	cvEqual(t, "attachments", first["attachments"], []any{})
	cvEqual(t, "sources", first["sources"], []any{})
	got := e.Test("GET", "/v1/messages/"+first["id"].(string), nil).OK(t, 200)
	cvMessage(t, got)
	cvEqual(t, "GET /messages/{id}", got, first)

	// An agent message, as POST returns it and as GET returns it.
	m := cvSay(t, e, conv, "Hi, I am on it.")
	cvEqual(t, "agent author", m["author"], map[string]any{"type": "agent", "id": e.Member, "name": "Agent Smith"})
	cvEqual(t, "agent body", m["body"], "Hi, I am on it.")
	cvEqual(t, "agent conversation_id", m["conversation_id"], conv)
	cvEqual(t, "agent attachments", m["attachments"], []any{})
	cvEqual(t, "agent sources", m["sources"], []any{})
	cvEqual(t, "GET agent message", e.Test("GET", "/v1/messages/"+m["id"].(string), nil).OK(t, 200), m)
	msgs = cvMessages(t, e, conv)
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want 2", len(msgs))
	}
	cvEqual(t, "listed agent message", msgs[1], m)

	// A contact's message names the contact.
	ctc := e.Contact("cv-msg@example.com")
	conv2 := cvStart(t, e, chat.Test, e.Site, ctc, "Hi from a known person")
	m2 := cvMessages(t, e, conv2)[0]
	cvEqual(t, "contact author", m2["author"].(map[string]any)["id"], ctc)
}

// ---------------------------------------------------------------------------
// Validation of POST /conversations/{id}/messages.

func TestMessageValidation(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello")
	att := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{"url": fmt.Sprintf("https://127.0.0.%d:1/%d.png", i+1, i), "name": "f.png"}
		}
		return out
	}
	ctc := e.Contact("cv-author@example.com")
	type tc struct {
		name   string
		body   any // nil: no body
		status int
		code   string // "" for success
		param  string
	}
	ok := func(name string, body any) tc { return tc{name: name, body: body, status: 201} }
	bad := func(name string, body any, status int, code, param string) tc {
		return tc{name, body, status, code, param}
	}
	m := func(kv ...any) map[string]any {
		out := map[string]any{"body": "hi", "author_id": e.Member}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "<absent>" {
				delete(out, kv[i].(string))
				continue
			}
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	cases := []tc{
		ok("body at 4000 characters", m("body", str("a", 4000))),
		ok("body at 4000 multibyte characters", m("body", str("é", 4000))),
		bad("body at 4001 characters", m("body", str("a", 4001)), 400, "parameter_invalid", "body"),
		bad("body at 4001 multibyte characters", m("body", str("é", 4001)), 400, "parameter_invalid", "body"),
		bad("empty body", m("body", ""), 400, "parameter_invalid", "body"),
		bad("blank body", m("body", "  \n "), 400, "parameter_invalid", "body"),
		bad("missing body", m("body", "<absent>"), 400, "parameter_missing", "body"),
		bad("null body", m("body", nil), 400, "parameter_invalid", "body"),
		bad("body not a string", m("body", 42), 400, "parameter_invalid", "body"),
		bad("no request body at all", nil, 400, "parameter_missing", "body"),
		bad("missing author_id", m("author_id", "<absent>"), 400, "parameter_missing", "author_id"),
		bad("empty author_id", m("author_id", ""), 400, "parameter_missing", "author_id"),
		bad("author_id not a member", m("author_id", "mem_doesnotexist"), 400, "resource_missing", "author_id"),
		bad("author_id of a contact", m("author_id", ctc), 400, "resource_missing", "author_id"),
		bad("author_id not a string", m("author_id", []any{e.Member}), 400, "parameter_invalid", "author_id"),
		ok("empty attachments", m("attachments", []any{})),
		// Valid requests that reach the download, which the SSRF guard stops
		// at a loopback address; attachment_test.go covers real downloads.
		bad("one attachment at a private address", m("attachments", att(1)), 400, "parameter_invalid", "attachments.0.url"),
		bad("5 attachments at private addresses", m("attachments", att(5)), 400, "parameter_invalid", "attachments.0.url"),
		bad("6 attachments", m("attachments", att(6)), 400, "parameter_invalid", "attachments"),
		bad("attachment without url", m("attachments", []any{map[string]any{"name": "a.png"}}), 400, "parameter_missing", "attachments.0.url"),
		bad("second attachment without url", m("attachments", []any{att(1)[0], map[string]any{"name": "b.png"}}), 400, "parameter_missing", "attachments.1.url"),
		bad("attachment with empty url", m("attachments", []any{map[string]any{"url": ""}}), 400, "parameter_missing", "attachments.0.url"),
		bad("attachment with null url", m("attachments", []any{map[string]any{"url": nil}}), 400, "parameter_invalid", "attachments.0.url"),
		bad("attachment over http", m("attachments", []any{map[string]any{"url": "http://files.example.com/a.png"}}), 400, "parameter_invalid", "attachments.0.url"),
		bad("attachment over ftp", m("attachments", []any{att(1)[0], map[string]any{"url": "ftp://files.example.com/a.png"}}), 400, "parameter_invalid", "attachments.1.url"),
		bad("attachment url not a string", m("attachments", []any{map[string]any{"url": 7}}), 400, "parameter_invalid", "attachments.0.url"),
		bad("attachment name not a string", m("attachments", []any{map[string]any{"url": "https://x.example/a", "name": 7}}), 400, "parameter_invalid", "attachments.0.name"),
		bad("unknown field in attachment", m("attachments", []any{map[string]any{"url": "https://x.example/a", "size": 3}}), 400, "parameter_unknown", "attachments.0.size"),
		bad("unknown field in third attachment", m("attachments", []any{att(1)[0], att(1)[0], map[string]any{"url": "https://x.example/a", "mime": "x"}}), 400, "parameter_unknown", "attachments.2.mime"),
		bad("attachment not an object", m("attachments", []any{"https://x.example/a"}), 400, "parameter_invalid", "attachments.0"),
		bad("attachments not an array", m("attachments", map[string]any{"url": "https://x.example/a"}), 400, "parameter_invalid", "attachments"),
		bad("attachments null", m("attachments", nil), 400, "parameter_invalid", "attachments"),
		bad("unknown field", m("internal", true), 400, "parameter_unknown", "internal"),
		bad("author field is not writable", m("author", map[string]any{"type": "bot"}), 400, "parameter_unknown", "author"),
		bad("body is a JSON array", "[]", 400, "body_invalid", ""),
		bad("body is a JSON string", `"hi"`, 400, "body_invalid", ""),
		bad("body is JSON null", "null", 400, "body_invalid", ""),
		bad("body is not JSON", "body=hi", 400, "body_invalid", ""),
		bad("body is truncated JSON", `{"body": "hi"`, 400, "body_invalid", ""),
	}
	count := 1
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Test("POST", cvPath(conv, "/messages"), c.body)
			if c.code == "" {
				cvMessage(t, r.OK(t, c.status))
				count++
			} else {
				r.Fails(t, c.status, c.code, c.param)
			}
			if got := cvGet(t, e, conv)["message_count"]; got != float64(count) {
				t.Fatalf("message_count %v, want %d (refused requests must create nothing)", got, count)
			}
		})
	}
	if n := len(cvMessages(t, e, conv)); n != count {
		t.Fatalf("%d messages listed, want %d", n, count)
	}
}

// ---------------------------------------------------------------------------
// PATCH /conversations/{id}.

func TestConversationMetadata(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello")
	patch := func(md any) webenv.Resp {
		t.Helper()
		return e.Test("PATCH", cvPath(conv), map[string]any{"metadata": md})
	}
	meta20 := meta(20)
	k40, k41 := str("k", 40), str("k", 41)
	cases := []struct {
		name  string
		md    any
		code  string // "" for success
		param string
		want  map[string]any // metadata after a success
	}{
		{name: "20 pairs", md: meta20, want: meta20},
		{name: "21 pairs", md: meta(21), code: "parameter_invalid", param: "metadata"},
		{name: "key of 40 characters", md: map[string]any{k40: "x"}, want: map[string]any{k40: "x"}},
		{name: "key of 40 multibyte characters", md: map[string]any{str("ü", 40): "x"}, want: map[string]any{str("ü", 40): "x"}},
		{name: "key of 41 characters", md: map[string]any{k41: "x"}, code: "parameter_invalid", param: "metadata." + k41},
		{name: "value of 500 characters", md: map[string]any{"v": str("v", 500)}, want: map[string]any{"v": str("v", 500)}},
		{name: "value of 500 multibyte characters", md: map[string]any{"v": str("ü", 500)}, want: map[string]any{"v": str("ü", 500)}},
		{name: "value of 501 characters", md: map[string]any{"v": str("v", 501)}, code: "parameter_invalid", param: "metadata.v"},
		{name: "empty key", md: map[string]any{"": "x"}, code: "parameter_invalid", param: "metadata"},
		{name: "number value", md: map[string]any{"n": 5}, code: "parameter_invalid", param: "metadata.n"},
		{name: "boolean value", md: map[string]any{"b": true}, code: "parameter_invalid", param: "metadata.b"},
		{name: "object value", md: map[string]any{"o": map[string]any{}}, code: "parameter_invalid", param: "metadata.o"},
		{name: "array value", md: map[string]any{"a": []any{"x"}}, code: "parameter_invalid", param: "metadata.a"},
		{name: "metadata a string", md: "color=red", code: "parameter_invalid", param: "metadata"},
		{name: "metadata an array", md: []any{"x"}, code: "parameter_invalid", param: "metadata"},
		{name: "metadata null", md: nil, code: "parameter_invalid", param: "metadata"},
		{name: "empty metadata changes nothing", md: map[string]any{}, want: map[string]any{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Start each case from empty metadata.
			reset := map[string]any{}
			for k := range cvGet(t, e, conv)["metadata"].(map[string]any) {
				reset[k] = nil
			}
			patch(reset).OK(t, 200)
			before := cvGet(t, e, conv)
			if len(before["metadata"].(map[string]any)) != 0 {
				t.Fatalf("metadata not cleared: %v", before["metadata"])
			}
			r := patch(c.md)
			if c.code != "" {
				r.Fails(t, 400, c.code, c.param)
				cvEqual(t, "conversation after a refused PATCH", cvGet(t, e, conv), before)
				return
			}
			got := r.OK(t, 200)
			cvConversation(t, got)
			cvEqual(t, "metadata", got["metadata"], c.want)
			cvEqual(t, "GET after PATCH", cvGet(t, e, conv), got)
		})
	}

	t.Run("merge, delete with null, count after merge", func(t *testing.T) {
		got := patch(map[string]any{"a": "1", "b": "2"}).OK(t, 200)
		cvEqual(t, "metadata", got["metadata"], map[string]any{"a": "1", "b": "2"})
		got = patch(map[string]any{"b": nil, "c": "3", "missing": nil}).OK(t, 200)
		cvEqual(t, "metadata after merge", got["metadata"], map[string]any{"a": "1", "c": "3"})
		// Fill up to 20, then one more is refused, one more with one deleted is not.
		fill := map[string]any{}
		for i := 0; i < 18; i++ {
			fill["f"+itoa(i)] = "x"
		}
		if got = patch(fill).OK(t, 200); len(got["metadata"].(map[string]any)) != 20 {
			t.Fatalf("%d pairs, want 20", len(got["metadata"].(map[string]any)))
		}
		patch(map[string]any{"extra": "x"}).Fails(t, 400, "parameter_invalid", "metadata")
		got = patch(map[string]any{"extra": "x", "a": nil}).OK(t, 200)
		md := got["metadata"].(map[string]any)
		if len(md) != 20 || md["extra"] != "x" || md["a"] != nil {
			t.Fatalf("metadata %v", md)
		}
		// Replacing a value in a full set is allowed.
		got = patch(map[string]any{"extra": "y"}).OK(t, 200)
		if got["metadata"].(map[string]any)["extra"] != "y" {
			t.Fatalf("metadata %v", got["metadata"])
		}
	})
}

func TestConversationPatch(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello")
	events := e.Events(conv)
	orig := cvGet(t, e, conv)

	got := e.Test("PATCH", cvPath(conv), map[string]any{"assignee_id": e.Member}).OK(t, 200)
	cvConversation(t, got)
	if got["assignee_id"] != e.Member || got["status"] != "open" {
		t.Fatalf("assignee_id %v status %v", got["assignee_id"], got["status"])
	}
	if got["updated_at"].(string) <= orig["updated_at"].(string) {
		t.Errorf("updated_at %v not after %v", got["updated_at"], orig["updated_at"])
	}
	cvEqual(t, "GET after PATCH", cvGet(t, e, conv), got)

	// Omitted fields stay unchanged; metadata alone keeps the assignee.
	got = e.Test("PATCH", cvPath(conv), map[string]any{"metadata": map[string]any{"plan": "pro"}}).OK(t, 200)
	if got["assignee_id"] != e.Member || got["metadata"].(map[string]any)["plan"] != "pro" {
		t.Fatalf("after metadata PATCH: %v", got)
	}
	got = e.Test("PATCH", cvPath(conv), map[string]any{"assignee_id": e.Member2}).OK(t, 200)
	if got["assignee_id"] != e.Member2 || got["metadata"].(map[string]any)["plan"] != "pro" {
		t.Fatalf("after reassign: %v", got)
	}
	// An empty body (or none) changes nothing that the caller sees but updated_at.
	for _, body := range []any{nil, map[string]any{}} {
		got2 := e.Test("PATCH", cvPath(conv), body).OK(t, 200)
		for _, k := range []string{"assignee_id", "metadata", "status", "message_count", "subject"} {
			cvEqual(t, "empty PATCH "+k, got2[k], got[k])
		}
	}
	// null removes the assignment.
	got = e.Test("PATCH", cvPath(conv), map[string]any{"assignee_id": nil}).OK(t, 200)
	if got["assignee_id"] != nil || got["status"] != "open" {
		t.Fatalf("after assignee_id null: %v", got)
	}
	cvEqual(t, "GET after unassign", cvGet(t, e, conv)["assignee_id"], nil)

	before := cvGet(t, e, conv)
	for _, c := range []struct {
		name   string
		body   any
		status int
		code   string
		param  string
	}{
		{"unknown assignee", map[string]any{"assignee_id": "mem_nope"}, 400, "resource_missing", "assignee_id"},
		{"empty assignee", map[string]any{"assignee_id": ""}, 400, "resource_missing", "assignee_id"},
		{"assignee a number", map[string]any{"assignee_id": 5}, 400, "parameter_invalid", "assignee_id"},
		{"assignee an object", map[string]any{"assignee_id": map[string]any{"id": e.Member}}, 400, "parameter_invalid", "assignee_id"},
		{"status is not writable", map[string]any{"status": "closed"}, 400, "parameter_unknown", "status"},
		{"subject is not writable", map[string]any{"subject": "x"}, 400, "parameter_unknown", "subject"},
		{"unknown fields, first in order", map[string]any{"zeta": 1, "alpha": 2}, 400, "parameter_unknown", "alpha"},
		{"unknown field beside a valid one", map[string]any{"assignee_id": e.Member, "note": "x"}, 400, "parameter_unknown", "note"},
		{"body an array", "[]", 400, "body_invalid", ""},
		{"body a number", "12", 400, "body_invalid", ""},
		{"body null", "null", 400, "body_invalid", ""},
		{"body not JSON", "{assignee_id: 1}", 400, "body_invalid", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.Test("PATCH", cvPath(conv), c.body).Fails(t, c.status, c.code, c.param)
			cvEqual(t, "conversation after refused PATCH", cvGet(t, e, conv), before)
		})
	}
	// PATCH records no event.
	cvEqual(t, "events", e.Events(conv), events)
}

// ---------------------------------------------------------------------------
// Lists and filters.

func TestConversationListFilters(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	site2, err := e.Svc.CreateSite(context.Background(), "Second site", "second.example.com")
	if err != nil {
		t.Fatal(err)
	}
	ctc := e.Contact("cv-filter@example.com")
	open := cvInState(t, e, "open")
	waiting := cvInState(t, e, "waiting")
	handed := cvInState(t, e, "handed_off")
	closed := cvInState(t, e, "closed")
	other := cvStart(t, e, chat.Test, site2.ID, ctc, "From the second site")
	mine := cvStart(t, e, chat.Test, e.Site, ctc, "Known contact")
	e.Conversation(chat.Live, "Live one") // never listed with the test key

	for _, c := range []struct {
		query string
		want  []string // newest first
	}{
		{"", []string{mine, other, closed, handed, waiting, open}},
		{"?status=open", []string{mine, other, open}},
		{"?status=waiting", []string{waiting}},
		{"?status=handed_off", []string{handed}},
		{"?status=closed", []string{closed}},
		{"?site_id=" + site2.ID, []string{other}},
		{"?site_id=" + e.Site, []string{mine, closed, handed, waiting, open}},
		{"?site_id=site_nope", nil},
		{"?contact_id=" + ctc, []string{mine, other}},
		{"?contact_id=ctc_nope", nil},
		{"?contact_id=" + ctc + "&site_id=" + e.Site + "&status=open", []string{mine}},
		{"?contact_id=" + ctc + "&status=closed", nil},
	} {
		t.Run(c.query, func(t *testing.T) {
			objs := cvList(t, e.Test("GET", "/v1/conversations"+c.query, nil).OK(t, 200))
			for _, o := range objs {
				cvConversation(t, o)
			}
			got := cvIDs(objs)
			if len(got) == 0 && len(c.want) == 0 {
				return
			}
			cvEqual(t, "ids", got, c.want)
		})
	}
	for _, bad := range []string{"bogus", "OPEN", "handed-off", "new"} {
		e.Test("GET", "/v1/conversations?status="+bad, nil).Fails(t, 400, "parameter_invalid", "status")
	}
	e.Test("GET", "/v1/conversations?assignee="+e.Member, nil).Fails(t, 400, "parameter_unknown", "assignee")
	e.Test("GET", "/v1/conversations?status=open&status=closed", nil).Fails(t, 400, "parameter_invalid", "status")
	cvListParams(t, e, "/v1/conversations")
	cvListParams(t, e, "/v1/conversations?status=open")
}

func TestMessageListParams(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello")
	cvSay(t, e, conv, "one")
	cvSay(t, e, conv, "two")
	cvListParams(t, e, cvPath(conv, "/messages"))
	e.Test("GET", cvPath(conv, "/messages?status=open"), nil).Fails(t, 400, "parameter_unknown", "status")
}

// ---------------------------------------------------------------------------
// Not found and modes.

func TestConversationNotFound(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello")
	msg := cvMessages(t, e, conv)[0]["id"].(string)
	okMsg := map[string]any{"body": "hi", "author_id": e.Member}
	for _, missing := range []string{"conv_doesnotexist", msg, "nope"} {
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", cvPath(missing), nil},
			{"PATCH", cvPath(missing), map[string]any{"assignee_id": e.Member}},
			{"POST", cvPath(missing, "/handoff"), nil},
			{"POST", cvPath(missing, "/close"), nil},
			{"GET", cvPath(missing, "/messages"), nil},
			{"POST", cvPath(missing, "/messages"), okMsg},
		} {
			t.Run(c.method+" "+c.path, func(t *testing.T) {
				e.Test(c.method, c.path, c.body).Fails(t, 404, "resource_missing", "id")
			})
		}
	}
	for _, missing := range []string{"msg_doesnotexist", conv} {
		e.Test("GET", "/v1/messages/"+missing, nil).Fails(t, 404, "resource_missing", "id")
	}
	// Nothing changed the real conversation.
	c := cvGet(t, e, conv)
	if c["status"] != "open" || c["assignee_id"] != nil || c["message_count"] != float64(1) {
		t.Fatalf("conversation changed: %v", c)
	}
}

func TestConversationModeIsolation(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello from test mode")
	msg := cvMessages(t, e, conv)[0]["id"].(string)
	liveConv := e.Conversation(chat.Live, "Hello from live mode")
	before := cvGet(t, e, conv)
	events := e.Events(conv)

	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", cvPath(conv), nil},
		{"PATCH", cvPath(conv), map[string]any{"assignee_id": e.Member}},
		{"POST", cvPath(conv, "/handoff"), map[string]any{"assignee_id": e.Member}},
		{"POST", cvPath(conv, "/close"), nil},
		{"GET", cvPath(conv, "/messages"), nil},
		{"POST", cvPath(conv, "/messages"), map[string]any{"body": "hi", "author_id": e.Member}},
		{"GET", "/v1/messages/" + msg, nil},
	} {
		t.Run("live "+c.method+" "+c.path, func(t *testing.T) {
			e.Live(c.method, c.path, c.body).Fails(t, 404, "resource_missing", "id")
		})
	}
	cvEqual(t, "test conversation after live requests", cvGet(t, e, conv), before)
	cvEqual(t, "events after live requests", e.Events(conv), events)

	liveIDs := e.All(e.LiveKey, "/v1/conversations", 10)
	cvEqual(t, "live list", liveIDs, []string{liveConv})
	cvEqual(t, "test list", e.All(e.TestKey, "/v1/conversations", 10), []string{conv})
	if got := e.All(e.LiveKey, "/v1/conversations?status=open", 10); !slices.Equal(got, []string{liveConv}) {
		t.Fatalf("live open list %v", got)
	}
	// The other way round: a live conversation is invisible to the test key.
	e.Test("GET", cvPath(liveConv), nil).Fails(t, 404, "resource_missing", "id")
	e.Test("GET", cvPath(liveConv, "/messages"), nil).Fails(t, 404, "resource_missing", "id")
	lc := e.Live("GET", cvPath(liveConv), nil).OK(t, 200)
	cvConversation(t, lc)
	cvEqual(t, "live events", e.Events(liveConv), []string{"live:conversation.created"})
	// Live-mode writes work and record live events.
	h := e.Live("POST", cvPath(liveConv, "/handoff"), nil).OK(t, 200)
	cvEqual(t, "live events after hand-off", e.Events(liveConv), []string{"live:conversation.created", "live:conversation.handed_off"})
	cvEqual(t, "live hand-off event data", e.EventData(liveConv, "conversation.handed_off"), h)
}

// ---------------------------------------------------------------------------
// Pagination under concurrent inserts.

func TestConversationPaginationWithInserts(t *testing.T) {
	t.Parallel()
	for _, frozen := range []bool{false, true} {
		t.Run(fmt.Sprintf("frozen=%v", frozen), func(t *testing.T) {
			e := webenv.New(t)
			if frozen {
				e.Clock.SetStep(0)
			}
			var made []string
			for i := 0; i < 23; i++ {
				made = append(made, e.Conversation(chat.Test, "Hello "+itoa(i)))
			}
			if frozen {
				a, b := cvGet(t, e, made[0]), cvGet(t, e, made[22])
				if a["created_at"] != b["created_at"] {
					t.Fatalf("clock not frozen: %v vs %v", a["created_at"], b["created_at"])
				}
			}
			want := slices.Clone(made)
			slices.Reverse(want) // newest first
			// Default page size is 20.
			b := e.Test("GET", "/v1/conversations", nil).OK(t, 200)
			if n := len(cvList(t, b)); n != 20 || b["has_more"] != true {
				t.Fatalf("default page: %d rows, has_more %v", n, b["has_more"])
			}
			cvEqual(t, "default page", cvIDs(cvList(t, b)), want[:20])

			for _, limit := range []int{1, 3, 7, 23, 100} {
				cvEqual(t, fmt.Sprintf("walk limit %d", limit), cvWalk(t, e, e.TestKey, "/v1/conversations", limit, nil), want)
			}
			// New conversations arriving while a client pages are newer than the
			// walk's start: the walk sees exactly the rows that were there.
			var added []string
			got := cvWalk(t, e, e.TestKey, "/v1/conversations", 4, func() {
				added = append(added, e.Conversation(chat.Test, "Arrived during the walk"))
				e.Conversation(chat.Live, "Live, elsewhere")
			})
			cvEqual(t, "walk with inserts", got, want)
			if len(added) != 5 {
				t.Fatalf("%d inserts during the walk, want 5", len(added))
			}
			// A filtered walk with inserts in and out of the filter.
			closedWant := []string{}
			for i, id := range made {
				if i%3 == 0 {
					e.Test("POST", cvPath(id, "/close"), nil).OK(t, 200)
					closedWant = append([]string{id}, closedWant...)
				}
			}
			extra := 0
			got = cvWalk(t, e, e.TestKey, "/v1/conversations?status=closed", 2, func() {
				c := e.Conversation(chat.Test, "Another")
				e.Test("POST", cvPath(c, "/close"), nil).OK(t, 200)
				extra++
			})
			cvEqual(t, "closed walk", got, closedWant)
			// Everything, now, in order with no gaps.
			all := append(slices.Clone(added), made...)
			got = e.All(e.TestKey, "/v1/conversations", 100)
			if len(got) != 23+5+extra {
				t.Fatalf("%d conversations, want %d", len(got), 23+5+extra)
			}
			for _, id := range all {
				if !slices.Contains(got, id) {
					t.Fatalf("%s missing from the final list", id)
				}
			}
			cvCheckOrder(t, e, got, "created_at", true)
		})
	}
}

// cvCheckOrder checks that the conversations ids are ordered by key, then
// id, ascending or descending: a total order.
func cvCheckOrder(t *testing.T, e *webenv.Env, ids []string, key string, desc bool) {
	t.Helper()
	for i := 1; i < len(ids); i++ {
		a, b := cvGet(t, e, ids[i-1]), cvGet(t, e, ids[i])
		ka, kb := a[key].(string), b[key].(string)
		less := ka < kb || (ka == kb && ids[i-1] < ids[i])
		if desc {
			less = ka > kb || (ka == kb && ids[i-1] > ids[i])
		}
		if !less {
			t.Fatalf("not ordered at %d: %s %s / %s %s", i, ids[i-1], ka, ids[i], kb)
		}
	}
}

func TestMessagePaginationWithAppends(t *testing.T) {
	t.Parallel()
	for _, frozen := range []bool{false, true} {
		t.Run(fmt.Sprintf("frozen=%v", frozen), func(t *testing.T) {
			e := webenv.New(t)
			if frozen {
				e.Clock.SetStep(0)
			}
			conv := e.Conversation(chat.Test, "First")
			other := e.Conversation(chat.Test, "Another conversation")
			want := []string{cvMessages(t, e, conv)[0]["id"].(string)}
			for i := 0; i < 10; i++ {
				want = append(want, cvSay(t, e, conv, "Message "+itoa(i))["id"].(string))
			}
			for _, limit := range []int{1, 3, 11, 100} {
				cvEqual(t, fmt.Sprintf("walk limit %d", limit), cvWalk(t, e, e.TestKey, cvPath(conv, "/messages"), limit, nil), want)
			}
			// Default page size is 20, from the oldest.
			for i := 0; i < 10; i++ {
				want = append(want, cvSay(t, e, conv, "More "+itoa(i))["id"].(string))
			}
			b := e.Test("GET", cvPath(conv, "/messages"), nil).OK(t, 200)
			cvEqual(t, "default page", cvIDs(cvList(t, b)), want[:20])
			// Messages appended while a client pages are at the end of the list:
			// the walk ends with all of them, in order.
			n := 0
			got := cvWalk(t, e, e.TestKey, cvPath(conv, "/messages"), 3, func() {
				n++
				want = append(want, cvSay(t, e, conv, "Appended "+itoa(n))["id"].(string))
				cvSay(t, e, other, "Elsewhere")
			})
			if n == 0 {
				t.Fatal("no message appended during the walk")
			}
			cvEqual(t, "walk with appends", got, want)
			if c := cvGet(t, e, conv); c["message_count"] != float64(len(want)) {
				t.Fatalf("message_count %v, want %d", c["message_count"], len(want))
			}
			// Ordering is total: by created_at, then id.
			msgs := cvMessages(t, e, conv)
			for i := 1; i < len(msgs); i++ {
				a, b := msgs[i-1], msgs[i]
				ka, kb := a["created_at"].(string), b["created_at"].(string)
				if ka > kb || (ka == kb && a["id"].(string) >= b["id"].(string)) {
					t.Fatalf("messages not ordered at %d: %v %v / %v %v", i, a["id"], ka, b["id"], kb)
				}
				if frozen && ka != kb {
					t.Fatalf("clock not frozen: %s vs %s", ka, kb)
				}
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Conversation transitions and state rules (docs/api.md, Conversations).

func TestConversationCreated(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	for _, mode := range []chat.Mode{chat.Test, chat.Live} {
		conv := e.Conversation(mode, "Hello there. Can someone help?")
		key := e.TestKey
		if mode == chat.Live {
			key = e.LiveKey
		}
		c := e.Do("GET", cvPath(conv), key, nil).OK(t, 200)
		cvConversation(t, c)
		if c["status"] != "open" || c["message_count"] != float64(1) {
			t.Fatalf("new conversation: %v", c)
		}
		cvEqual(t, "events", e.Events(conv), []string{string(mode) + ":conversation.created"})
		cvEqual(t, "conversation.created data", e.EventData(conv, "conversation.created"), c)
		msgs := cvList(t, e.Do("GET", cvPath(conv, "/messages"), key, nil).OK(t, 200))
		if len(msgs) != 1 {
			t.Fatalf("%d messages", len(msgs))
		}
		msg := msgs[0]["id"].(string)
		cvEqual(t, "message events", e.Events(msg), []string{string(mode) + ":message.created"})
		cvEqual(t, "message.created data", e.EventData(msg, "message.created"), msgs[0])
	}
}

func TestConversationHandoff(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	for _, from := range []string{"open", "waiting", "handed_off"} {
		for _, assign := range []bool{false, true} {
			name := from + " without assignee"
			if assign {
				name = from + " with assignee"
			}
			t.Run(name, func(t *testing.T) {
				conv := cvInState(t, e, from)
				before := cvGet(t, e, conv)
				events := e.Events(conv)
				var body any
				want := "waiting"
				if assign {
					body = map[string]any{"assignee_id": e.Member}
					want = "handed_off"
				} else if from == "waiting" {
					body = map[string]any{} // an empty object is as good as no body
				}
				got := e.Test("POST", cvPath(conv, "/handoff"), body).OK(t, 200)
				cvConversation(t, got)
				if got["status"] != want {
					t.Fatalf("status %v, want %s", got["status"], want)
				}
				if assign && got["assignee_id"] != e.Member {
					t.Fatalf("assignee_id %v, want %s", got["assignee_id"], e.Member)
				}
				if got["message_count"] != before["message_count"] || got["last_message_at"] != before["last_message_at"] {
					t.Fatalf("hand-off changed the messages: %v", got)
				}
				if got["updated_at"].(string) <= before["updated_at"].(string) {
					t.Errorf("updated_at %v not after %v", got["updated_at"], before["updated_at"])
				}
				cvEqual(t, "events", e.Events(conv), append(events, "test:conversation.handed_off"))
				cvEqual(t, "conversation.handed_off data", e.EventData(conv, "conversation.handed_off"), got)
				cvEqual(t, "GET after hand-off", cvGet(t, e, conv), got)
			})
		}
	}

	t.Run("note is stored and never shown as a message", func(t *testing.T) {
		conv := cvInState(t, e, "open")
		const secret = "VIP customer: offer the 20% discount"
		got := e.Test("POST", cvPath(conv, "/handoff"), map[string]any{"note": secret, "assignee_id": e.Member}).OK(t, 200)
		if got["status"] != "handed_off" || got["message_count"] != float64(1) {
			t.Fatalf("after hand-off with note: %v", got)
		}
		notes, err := e.DB.Read().Notes(context.Background(), conv)
		if err != nil {
			t.Fatal(err)
		}
		if len(notes) != 1 || notes[0].Body != secret || notes[0].Mode != chat.Test {
			t.Fatalf("notes %+v", notes)
		}
		if notes[0].AuthorID == nil || *notes[0].AuthorID != e.Member {
			t.Errorf("note author %v, want %s", notes[0].AuthorID, e.Member)
		}
		msgs := cvMessages(t, e, conv)
		if len(msgs) != 1 {
			t.Fatalf("%d messages, want 1", len(msgs))
		}
		for _, m := range msgs {
			if strings.Contains(m["body"].(string), "discount") {
				t.Fatalf("note shown as a message: %v", m)
			}
		}
		// A note without assignee also stays internal.
		got = e.Test("POST", cvPath(conv, "/handoff"), map[string]any{"note": "second note"}).OK(t, 200)
		if got["status"] != "waiting" || got["message_count"] != float64(1) {
			t.Fatalf("after second hand-off: %v", got)
		}
		if notes, _ = e.DB.Read().Notes(context.Background(), conv); len(notes) != 2 || notes[1].Body != "second note" {
			t.Fatalf("notes %+v", notes)
		}
		if n := len(cvMessages(t, e, conv)); n != 1 {
			t.Fatalf("%d messages, want 1", n)
		}
		data, _ := e.EventData(conv, "conversation.handed_off")["status"].(string)
		if data != "waiting" {
			t.Fatalf("event data status %v", data)
		}
	})

	t.Run("refused", func(t *testing.T) {
		conv := cvInState(t, e, "open")
		before := cvGet(t, e, conv)
		events := e.Events(conv)
		for _, c := range []struct {
			name   string
			body   any
			status int
			code   string
			param  string
		}{
			{"unknown assignee", map[string]any{"assignee_id": "mem_nope"}, 400, "resource_missing", "assignee_id"},
			{"assignee null", map[string]any{"assignee_id": nil}, 400, "parameter_invalid", "assignee_id"},
			{"assignee a number", map[string]any{"assignee_id": 1}, 400, "parameter_invalid", "assignee_id"},
			{"note a number", map[string]any{"note": 1}, 400, "parameter_invalid", "note"},
			{"note an object", map[string]any{"note": map[string]any{}}, 400, "parameter_invalid", "note"},
			{"note too long", map[string]any{"note": strings.Repeat("é", 4001)}, 400, "parameter_invalid", "note"},
			{"unknown field", map[string]any{"status": "waiting"}, 400, "parameter_unknown", "status"},
			{"body an array", `["x"]`, 400, "body_invalid", ""},
			{"body a string", `"handoff"`, 400, "body_invalid", ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.Test("POST", cvPath(conv, "/handoff"), c.body).Fails(t, c.status, c.code, c.param)
			})
		}
		cvEqual(t, "conversation after refused hand-offs", cvGet(t, e, conv), before)
		cvEqual(t, "events after refused hand-offs", e.Events(conv), events)
		if notes, _ := e.DB.Read().Notes(context.Background(), conv); len(notes) != 0 {
			t.Fatalf("notes stored by refused hand-offs: %+v", notes)
		}
	})
}

func TestConversationAgentMessage(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	for _, c := range []struct{ from, want string }{
		{"open", "handed_off"}, // a person's reply takes over from the assistant
		{"waiting", "handed_off"},
		{"handed_off", "handed_off"},
	} {
		t.Run(c.from, func(t *testing.T) {
			conv := cvInState(t, e, c.from)
			before := cvGet(t, e, conv)
			events := e.Events(conv)
			m := cvSay(t, e, conv, "Hello, Agent Smith here.")
			if m["conversation_id"] != conv {
				t.Fatalf("conversation_id %v", m["conversation_id"])
			}
			cvEqual(t, "message events", e.Events(m["id"].(string)), []string{"test:message.created"})
			cvEqual(t, "message.created data", e.EventData(m["id"].(string), "message.created"), m)
			got := cvGet(t, e, conv)
			if got["status"] != c.want {
				t.Fatalf("status %v, want %s", got["status"], c.want)
			}
			if got["message_count"] != before["message_count"].(float64)+1 {
				t.Fatalf("message_count %v, was %v", got["message_count"], before["message_count"])
			}
			if got["last_message_at"] != m["created_at"] {
				t.Fatalf("last_message_at %v, message created_at %v", got["last_message_at"], m["created_at"])
			}
			if got["last_message_at"].(string) <= before["last_message_at"].(string) {
				t.Fatalf("last_message_at %v not after %v", got["last_message_at"], before["last_message_at"])
			}
			if got["updated_at"].(string) < m["created_at"].(string) {
				t.Fatalf("updated_at %v before the message %v", got["updated_at"], m["created_at"])
			}
			// Only the message is an event, but for the take-over of an open
			// conversation, which is handed off (once) to the replier.
			if c.from == "open" {
				events = append(events, "test:conversation.handed_off")
				if got["assignee_id"] != e.Member {
					t.Fatalf("assignee after taking over: %v", got["assignee_id"])
				}
			}
			msgs := cvMessages(t, e, conv)
			cvEqual(t, "last listed message", msgs[len(msgs)-1], m)
			if c.from == "open" {
				cvSay(t, e, conv, "Still here.") // no second hand-off
			}
			cvEqual(t, "conversation events", e.Events(conv), events)
		})
	}
}

func TestConversationClose(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	for _, from := range []string{"open", "waiting", "handed_off"} {
		t.Run(from, func(t *testing.T) {
			conv := cvInState(t, e, from)
			before := cvGet(t, e, conv)
			events := e.Events(conv)
			got := e.Test("POST", cvPath(conv, "/close"), nil).OK(t, 200)
			cvConversation(t, got)
			if got["status"] != "closed" {
				t.Fatalf("status %v", got["status"])
			}
			for _, k := range []string{"assignee_id", "message_count", "last_message_at", "metadata", "contact_id", "created_at"} {
				cvEqual(t, "close keeps "+k, got[k], before[k])
			}
			cvEqual(t, "events", e.Events(conv), append(events, "test:conversation.closed"))
			cvEqual(t, "conversation.closed data", e.EventData(conv, "conversation.closed"), got)
			cvEqual(t, "GET after close", cvGet(t, e, conv), got)

			// Closing again: 200, same object, no second event.
			for _, body := range []any{nil, map[string]any{}} {
				again := e.Test("POST", cvPath(conv, "/close"), body).OK(t, 200)
				cvEqual(t, "second close", again, got)
			}
			cvEqual(t, "events after second close", e.Events(conv), append(events, "test:conversation.closed"))
		})
	}

	t.Run("closed conversations refuse hand-off and agent messages", func(t *testing.T) {
		conv := cvInState(t, e, "closed")
		before := cvGet(t, e, conv)
		events := e.Events(conv)
		e.Test("POST", cvPath(conv, "/handoff"), nil).Fails(t, 409, "conversation_closed", "")
		e.Test("POST", cvPath(conv, "/handoff"), map[string]any{"assignee_id": e.Member, "note": "x"}).Fails(t, 409, "conversation_closed", "")
		e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Are you there?", "author_id": e.Member}).Fails(t, 409, "conversation_closed", "")
		cvEqual(t, "closed conversation after refusals", cvGet(t, e, conv), before)
		cvEqual(t, "events after refusals", e.Events(conv), events)
		if n := len(cvMessages(t, e, conv)); n != 1 {
			t.Fatalf("%d messages, want 1", n)
		}
		if notes, _ := e.DB.Read().Notes(context.Background(), conv); len(notes) != 0 {
			t.Fatalf("notes stored on a closed conversation: %+v", notes)
		}
	})

	t.Run("close takes no body", func(t *testing.T) {
		conv := cvInState(t, e, "open")
		e.Test("POST", cvPath(conv, "/close"), map[string]any{"reason": "spam"}).Fails(t, 400, "parameter_unknown", "reason")
		e.Test("POST", cvPath(conv, "/close"), "[]").Fails(t, 400, "body_invalid", "")
		if got := cvGet(t, e, conv)["status"]; got != "open" {
			t.Fatalf("status %v after refused close", got)
		}
		cvEqual(t, "events", e.Events(conv), []string{"test:conversation.created"})
	})

	t.Run("whole life cycle", func(t *testing.T) {
		conv := cvInState(t, e, "open")
		cvSay(t, e, conv, "Hi")
		e.Test("POST", cvPath(conv, "/handoff"), nil).OK(t, 200)
		cvSay(t, e, conv, "A person now")
		e.Test("PATCH", cvPath(conv), map[string]any{"assignee_id": e.Member}).OK(t, 200)
		e.Test("POST", cvPath(conv, "/close"), nil).OK(t, 200)
		c := cvGet(t, e, conv)
		if c["status"] != "closed" || c["message_count"] != float64(3) || c["assignee_id"] != e.Member {
			t.Fatalf("end state %v", c)
		}
		cvEqual(t, "events", e.Events(conv), []string{"test:conversation.created", "test:conversation.handed_off",
			"test:conversation.handed_off", "test:conversation.closed"}) // the first reply took over, then a hand-off
	})
}

// ---------------------------------------------------------------------------
// Subject, and query parameters of endpoints that take none.

func TestConversationSubject(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	long := strings.TrimSpace(str("word ", 30)) // 149 characters
	for _, c := range []struct{ body, want string }{
		{"Hello there. I need help", "I need help"}, // a greeting says nothing of what it is about
		{"Hi! Do you ship to Canada?", "Do you ship to Canada?"},
		{"Good morning team! Hello. My invoice is wrong. Please fix it.", "My invoice is wrong."},
		{"Hello!", "Hello!"},
		{"Hello, my order never came.", "Hello, my order never came."},
		{"Can you help? Thanks", "Can you help?"},
		{"Wow! Great product", "Wow!"},
		{"  many   spaces\n\there  ", "many spaces here"},
		{"My site example.com is down. Help", "My site example.com is down."}, // a dot inside a word ends nothing
		{"Version 2.0 crashes", "Version 2.0 crashes"},
		{str("a", 80), str("a", 80)},
		{str("a", 81), str("a", 80) + "…"},
		{str("é", 100), str("é", 80) + "…"},
		{long, long[:79] + "…"},                                                      // cut at the last word boundary
		{str("a", 30) + " " + str("b", 60), str("a", 30) + " " + str("b", 49) + "…"}, // boundary too early: hard cut
		{str("é", 30) + " " + str("b", 60), str("é", 30) + " " + str("b", 49) + "…"}, // the same, counted in characters
		{str("ü", 45) + " " + str("b", 60), str("ü", 45) + "…"},
	} {
		conv := e.Conversation(chat.Test, c.body)
		got := cvGet(t, e, conv)["subject"]
		cvEqual(t, fmt.Sprintf("subject of %.30q", c.body), got, c.want)
		if s, _ := got.(string); len([]rune(s)) > 81 {
			t.Errorf("subject of %d characters", len([]rune(s)))
		}
	}
}

func TestConversationUnknownQueryParams(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello")
	msg := cvMessages(t, e, conv)[0]["id"].(string)
	before := cvGet(t, e, conv)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", cvPath(conv), nil},
		{"PATCH", cvPath(conv), map[string]any{"assignee_id": e.Member}},
		{"POST", cvPath(conv, "/handoff"), nil},
		{"POST", cvPath(conv, "/close"), nil},
		{"POST", cvPath(conv, "/messages"), map[string]any{"body": "hi", "author_id": e.Member}},
		{"GET", "/v1/messages/" + msg, nil},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			e.Test(c.method, c.path+"?expand=contact", c.body).Fails(t, 400, "parameter_unknown", "expand")
		})
	}
	cvEqual(t, "conversation after refused requests", cvGet(t, e, conv), before)
	cvEqual(t, "events after refused requests", e.Events(conv), []string{"test:conversation.created"})
}

// Tags are set by PATCH (replacing), filter the list, and so does the
// assignee ("none" for the unassigned).
func TestConversationTagsAndAssigneeFilter(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	a, b := e.Conversation(chat.Test, "Refund please"), e.Conversation(chat.Test, "Shipping question")
	got := e.Test("PATCH", cvPath(a), map[string]any{"tags": []string{"billing", "vip", "billing"}, "assignee_id": e.Member}).OK(t, 200)
	cvEqual(t, "tags", got["tags"], []any{"billing", "vip"})
	e.Test("PATCH", cvPath(b), map[string]any{"tags": []string{"shipping"}}).OK(t, 200)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"tag=billing", []string{a}},
		{"tag=shipping", []string{b}},
		{"tag=none-such", nil},
		{"assignee_id=" + e.Member, []string{a}},
		{"assignee_id=none", []string{b}},
		{"tag=vip&assignee_id=none", nil},
	} {
		cvEqual(t, c.query, e.All(e.TestKey, "/v1/conversations?"+c.query, 10), c.want)
	}
	// Replacing drops the old tags from the filter too.
	e.Test("PATCH", cvPath(a), map[string]any{"tags": []string{}}).OK(t, 200)
	cvEqual(t, "after clearing", e.All(e.TestKey, "/v1/conversations?tag=billing", 10), []string(nil))
	for _, c := range []struct {
		body  map[string]any
		param string
	}{
		{map[string]any{"tags": []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}}, "tags"},
		{map[string]any{"tags": []string{"ok", " "}}, "tags.1"},
		{map[string]any{"tags": []string{str("x", 51)}}, "tags.0"},
		{map[string]any{"tags": "billing"}, "tags"},
	} {
		e.Test("PATCH", cvPath(a), c.body).Fails(t, 400, "parameter_invalid", c.param)
	}
}

// Notes are the team's: added and listed over REST (the hand-off note
// among them), never shown to the visitor.
func TestConversationNotes(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	conv := e.Say(tok, "My parcel is late")["message"].(map[string]any)["conversation_id"].(string)
	e.Test("POST", cvPath(conv, "/handoff"), map[string]any{"note": "VIP customer, be quick"}).OK(t, 200)
	n := e.Test("POST", cvPath(conv, "/notes"), map[string]any{"body": "Called the carrier.", "author_id": e.Member}).OK(t, 201)
	if n["object"] != "note" || n["conversation_id"] != conv || n["author_id"] != e.Member || n["body"] != "Called the carrier." {
		t.Fatalf("note %v", n)
	}
	list := e.Test("GET", cvPath(conv, "/notes?limit=1"), nil).OK(t, 200)
	first := list["data"].([]any)[0].(map[string]any)
	if first["body"] != "VIP customer, be quick" || list["has_more"] != true {
		t.Fatalf("first page %v", list)
	}
	next := e.Test("GET", cvPath(conv, "/notes?limit=1&cursor="+list["next_cursor"].(string)), nil).OK(t, 200)
	if d := next["data"].([]any); len(d) != 1 || d[0].(map[string]any)["id"] != n["id"] || next["has_more"] != false {
		t.Fatalf("second page %v", next)
	}
	for _, c := range []struct {
		body        map[string]any
		code, param string
	}{
		{map[string]any{"author_id": e.Member}, "parameter_missing", "body"},
		{map[string]any{"body": "x"}, "parameter_missing", "author_id"},
		{map[string]any{"body": " ", "author_id": e.Member}, "parameter_invalid", "body"},
		{map[string]any{"body": str("x", 4001), "author_id": e.Member}, "parameter_invalid", "body"},
		{map[string]any{"body": "x", "author_id": "mem_nope"}, "resource_missing", "author_id"},
	} {
		e.Test("POST", cvPath(conv, "/notes"), c.body).Fails(t, 400, c.code, c.param)
	}
	e.Test("POST", cvPath("conv_nope", "/notes"), map[string]any{"body": "x", "author_id": e.Member}).Fails(t, 404, "resource_missing", "id")
	e.Live("GET", cvPath(conv, "/notes"), nil).Fails(t, 404, "resource_missing", "id")
	// The visitor sees neither note.
	for _, m := range e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any) {
		if b := m.(map[string]any)["body"].(string); strings.Contains(b, "VIP") || strings.Contains(b, "carrier") {
			t.Fatalf("the visitor sees a note: %q", b)
		}
	}
}
