package web_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

// ---------------------------------------------------------------------------
// Helpers (prefixed tk so they cannot clash with other test files).
// ---------------------------------------------------------------------------

// tkOn returns a copy of e that reports failures to t, so a subtest can use
// an environment set up by its parent without calling Fatal on the parent.
func tkOn(e *webenv.Env, t *testing.T) *webenv.Env {
	c := *e
	c.T = t
	return &c
}

// tkOmitT marks a field that tkBody must remove from the base body.
type tkOmitT struct{}

var tkOmit = tkOmitT{}

// tkBody is a valid POST /tickets body for contactID, changed by key/value
// pairs (a value of tkOmit removes the key; nil sends JSON null).
func tkBody(contactID string, kv ...any) map[string]any {
	b := map[string]any{"subject": "Cannot log in", "contact_id": contactID}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if _, omit := kv[i+1].(tkOmitT); omit {
			delete(b, k)
		} else {
			b[k] = kv[i+1]
		}
	}
	return b
}

// tkCreate creates a ticket in test mode and checks it has the Ticket shape.
func tkCreate(e *webenv.Env, body map[string]any) map[string]any {
	e.T.Helper()
	tk := e.Test("POST", "/v1/tickets", body).OK(e.T, 201)
	tkShape(e.T, tk)
	return tk
}

// tkID returns the id of an object.
func tkID(t *testing.T, o map[string]any) string {
	t.Helper()
	id, ok := o["id"].(string)
	if !ok || id == "" {
		t.Fatalf("object without id: %v", o)
	}
	return id
}

// tkPatch patches a ticket in test mode and checks the result's shape.
func tkPatch(e *webenv.Env, ref string, body any) map[string]any {
	e.T.Helper()
	tk := e.Test("PATCH", "/v1/tickets/"+ref, body).OK(e.T, 200)
	tkShape(e.T, tk)
	return tk
}

// tkGet fetches a ticket in test mode.
func tkGet(e *webenv.Env, ref string) map[string]any {
	e.T.Helper()
	tk := e.Test("GET", "/v1/tickets/"+ref, nil).OK(e.T, 200)
	tkShape(e.T, tk)
	return tk
}

// tkLiveContact creates a contact in live mode.
func tkLiveContact(e *webenv.Env, email string) string {
	e.T.Helper()
	return e.Live("POST", "/v1/contacts", map[string]any{"email": email}).OK(e.T, 201)["id"].(string)
}

// tkListIDs fetches one page of GET /v1/tickets with the key and raw query
// and returns the ids, checking the list envelope and each ticket's shape.
func tkListIDs(e *webenv.Env, key, rawQuery string) []string {
	e.T.Helper()
	path := "/v1/tickets"
	if rawQuery != "" {
		path += "?" + rawQuery
	}
	b := e.Do("GET", path, key, nil).OK(e.T, 200)
	page := tkPage(e.T, b)
	ids := make([]string, len(page))
	for i, tk := range page {
		ids[i] = tkID(e.T, tk)
	}
	return ids
}

// tkPage checks the list envelope (docs/api.md, Conventions) and returns
// its tickets.
func tkPage(t *testing.T, b map[string]any) []map[string]any {
	t.Helper()
	page := testenv.List(t, b)
	for _, tk := range page {
		tkShape(t, tk)
	}
	return page
}

// tkTime checks an ISO 8601 UTC timestamp and parses it.
func tkTime(t *testing.T, field string, v any) time.Time {
	t.Helper()
	return testenv.ParseTime(t, field, v)
}

var tkFields = []string{"id", "object", "number", "subject", "description", "status", "priority", "contact_id",
	"conversation_id", "assignee_id", "tags", "metadata", "created_at", "updated_at", "solved_at"}

// tkShape checks that tk has exactly the documented fields of a ticket, each of
// the right type.
func tkShape(t *testing.T, tk map[string]any) {
	t.Helper()
	for _, k := range tkFields {
		if _, ok := tk[k]; !ok {
			t.Fatalf("ticket field %s missing: %v", k, tk)
		}
	}
	if len(tk) != len(tkFields) {
		var extra []string
		for k := range tk {
			if !slices.Contains(tkFields, k) {
				extra = append(extra, k)
			}
		}
		t.Fatalf("ticket has undocumented fields: %v", extra)
	}
	if tk["object"] != "ticket" {
		t.Fatalf("object %v, want ticket", tk["object"])
	}
	if id, _ := tk["id"].(string); !strings.HasPrefix(id, "tkt_") || len(id) <= len("tkt_") {
		t.Fatalf("id %v, want prefix tkt_", tk["id"])
	}
	if n, ok := tk["number"].(float64); !ok || n < 1 || n != float64(int64(n)) {
		t.Fatalf("number %v (%T), want a positive integer", tk["number"], tk["number"])
	}
	if s, ok := tk["subject"].(string); !ok || strings.TrimSpace(s) == "" {
		t.Fatalf("subject %v, want a non-empty string", tk["subject"])
	}
	if d := tk["description"]; d != nil {
		if _, ok := d.(string); !ok {
			t.Fatalf("description %v (%T), want string or null", d, d)
		}
	}
	if !slices.Contains([]any{"open", "pending", "solved", "closed"}, tk["status"]) {
		t.Fatalf("status %v", tk["status"])
	}
	if !slices.Contains([]any{"low", "normal", "high", "urgent"}, tk["priority"]) {
		t.Fatalf("priority %v", tk["priority"])
	}
	if c, _ := tk["contact_id"].(string); !strings.HasPrefix(c, "ctc_") {
		t.Fatalf("contact_id %v, want a ctc_ id", tk["contact_id"])
	}
	if c := tk["conversation_id"]; c != nil {
		if s, _ := c.(string); !strings.HasPrefix(s, "conv_") {
			t.Fatalf("conversation_id %v, want a conv_ id or null", c)
		}
	}
	if a := tk["assignee_id"]; a != nil {
		if s, _ := a.(string); !strings.HasPrefix(s, "mem_") {
			t.Fatalf("assignee_id %v, want a mem_ id or null", a)
		}
	}
	tags, ok := tk["tags"].([]any)
	if !ok {
		t.Fatalf("tags %v (%T), want an array", tk["tags"], tk["tags"])
	}
	for i, tag := range tags {
		if _, ok := tag.(string); !ok {
			t.Fatalf("tags[%d] = %v (%T), want string", i, tag, tag)
		}
	}
	md, ok := tk["metadata"].(map[string]any)
	if !ok {
		t.Fatalf("metadata %v (%T), want an object", tk["metadata"], tk["metadata"])
	}
	for k, v := range md {
		if _, ok := v.(string); !ok {
			t.Fatalf("metadata.%s = %v (%T), want string", k, v, v)
		}
	}
	created := tkTime(t, "created_at", tk["created_at"])
	updated := tkTime(t, "updated_at", tk["updated_at"])
	if updated.Before(created) {
		t.Fatalf("updated_at %v before created_at %v", updated, created)
	}
	if s := tk["solved_at"]; s != nil {
		tkTime(t, "solved_at", s)
	}
}

// tkEqual fails unless got equals want.
func tkEqual[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	testenv.MustEqual(t, what, got, want)
}

// tkStrs is a []string literal that is never nil, for comparisons.
func tkStrs(s ...string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// tkEvents returns e.events as a non-nil slice.
func tkEvents(e *webenv.Env, id string) []string {
	e.T.Helper()
	return append([]string{}, e.Events(id)...)
}

// tkMails returns e.mails as a non-nil slice.
func tkMails(e *webenv.Env, id string) []string {
	e.T.Helper()
	return append([]string{}, e.Mails(id)...)
}

// tkNum returns a ticket's number.
func tkNum(tk map[string]any) int { return int(tk["number"].(float64)) }

// ---------------------------------------------------------------------------
// POST /v1/tickets
// ---------------------------------------------------------------------------

func TestTicketCreateMinimalShape(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	r := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Cannot log in", "contact_id": cid})
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q", ct)
	}
	tk := r.OK(t, 201)
	tkShape(t, tk)
	want := map[string]any{"object": "ticket", "number": 1.0, "subject": "Cannot log in", "description": nil,
		"status": "open", "priority": "normal", "contact_id": cid, "conversation_id": nil, "assignee_id": nil,
		"tags": []any{}, "metadata": map[string]any{}, "solved_at": nil}
	for k, v := range want {
		tkEqual(t, k, tk[k], v)
	}
	tkEqual(t, "updated_at of a new ticket", tk["updated_at"], tk["created_at"])

	// GET returns the ticket exactly as created, and so does the list.
	tkEqual(t, "GET", tkGet(e, tkID(t, tk)), tk)
	page := tkPage(t, e.Test("GET", "/v1/tickets", nil).OK(t, 200))
	if len(page) != 1 {
		t.Fatalf("list has %d tickets, want 1", len(page))
	}
	tkEqual(t, "listed ticket", page[0], tk)

	// Numbers count from 1 in the mode, and created_at grows.
	tk2 := tkCreate(e, tkBody(cid))
	tkEqual(t, "second number", tk2["number"], 2.0)
	if tk2["id"] == tk["id"] {
		t.Fatal("two tickets share an id")
	}
	if !tkTime(t, "created_at", tk2["created_at"]).After(tkTime(t, "created_at", tk["created_at"])) {
		t.Fatalf("created_at did not grow: %v then %v", tk["created_at"], tk2["created_at"])
	}
}

func TestTicketCreateAllFields(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	conv := e.Conversation("test", "Hello, my invoice is wrong")
	tk := tkCreate(e, map[string]any{
		"subject": "Invoice is wrong", "description": "The total is off by 10 EUR.", "contact_id": cid,
		"priority": "urgent", "conversation_id": conv, "assignee_id": e.Member,
		"tags": []any{"billing", "invoice", "billing"}, "notify_contact": true,
		"metadata": map[string]any{"order": "A-17", "gone": nil},
	})
	want := map[string]any{"subject": "Invoice is wrong", "description": "The total is off by 10 EUR.",
		"status": "open", "priority": "urgent", "contact_id": cid, "conversation_id": conv, "assignee_id": e.Member,
		"tags": []any{"billing", "invoice"}, "metadata": map[string]any{"order": "A-17"}, "solved_at": nil}
	for k, v := range want {
		tkEqual(t, k, tk[k], v)
	}
	tkEqual(t, "GET", tkGet(e, tkID(t, tk)), tk)
}

// tkCase is one request of a validation table: status 201/200 means
// accepted (then check, if set, inspects the result), otherwise the
// error's code and param are checked.
type tkCase struct {
	name   string
	body   any
	status int
	code   string
	param  string
	check  func(t *testing.T, tk map[string]any)
}

func tkMetaKeys(n int) func(t *testing.T, tk map[string]any) {
	return func(t *testing.T, tk map[string]any) {
		t.Helper()
		if got := len(tk["metadata"].(map[string]any)); got != n {
			t.Fatalf("metadata has %d keys, want %d", got, n)
		}
	}
}

func tkField(k string, want any) func(t *testing.T, tk map[string]any) {
	return func(t *testing.T, tk map[string]any) { t.Helper(); tkEqual(t, k, tk[k], want) }
}

func tkStrList(s ...string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func tkManyTags(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = "tag" + itoa(i)
	}
	return out
}

func TestTicketCreateValidation(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	liveConv := e.Conversation("live", "Hello from live mode")
	k40, k41 := str("k", 40), str("k", 41)
	cases := []tkCase{
		// subject
		{name: "subject 200 chars", body: tkBody(cid, "subject", str("s", 200)), status: 201,
			check: tkField("subject", str("s", 200))},
		{name: "subject 200 multibyte chars", body: tkBody(cid, "subject", str("é", 200)), status: 201,
			check: tkField("subject", str("é", 200))},
		{name: "subject 201 chars", body: tkBody(cid, "subject", str("s", 201)), status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject 201 multibyte chars", body: tkBody(cid, "subject", str("é", 201)), status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject empty", body: tkBody(cid, "subject", ""), status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject blank", body: tkBody(cid, "subject", "   "), status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject missing", body: tkBody(cid, "subject", tkOmit), status: 400, code: "parameter_missing", param: "subject"},
		{name: "subject number", body: tkBody(cid, "subject", 5), status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject null", body: tkBody(cid, "subject", nil), status: 400, code: "parameter_invalid", param: "subject"},
		// description
		{name: "description 10000 chars", body: tkBody(cid, "description", str("d", 10000)), status: 201,
			check: tkField("description", str("d", 10000))},
		{name: "description null", body: tkBody(cid, "description", nil), status: 201, check: tkField("description", nil)},
		{name: "description 10001 chars", body: tkBody(cid, "description", str("d", 10001)), status: 400, code: "parameter_invalid", param: "description"},
		{name: "description number", body: tkBody(cid, "description", 5), status: 400, code: "parameter_invalid", param: "description"},
		// tags
		{name: "10 tags", body: tkBody(cid, "tags", tkManyTags(10)), status: 201, check: tkField("tags", tkManyTags(10))},
		{name: "no tags", body: tkBody(cid, "tags", []any{}), status: 201, check: tkField("tags", []any{})},
		{name: "11 tags", body: tkBody(cid, "tags", tkManyTags(11)), status: 400, code: "parameter_invalid", param: "tags"},
		{name: "tags string", body: tkBody(cid, "tags", "x"), status: 400, code: "parameter_invalid", param: "tags"},
		{name: "tags of numbers", body: tkBody(cid, "tags", []any{1}), status: 400, code: "parameter_invalid", param: "tags"},
		{name: "tags null", body: tkBody(cid, "tags", nil), status: 400, code: "parameter_invalid", param: "tags"},
		{name: "empty tag", body: tkBody(cid, "tags", []any{"a", ""}), status: 400, code: "parameter_invalid", param: "tags.1"},
		{name: "blank tag", body: tkBody(cid, "tags", []any{" "}), status: 400, code: "parameter_invalid", param: "tags.0"},
		// metadata
		{name: "metadata 20 pairs", body: tkBody(cid, "metadata", meta(20)), status: 201, check: tkMetaKeys(20)},
		{name: "metadata 21 pairs", body: tkBody(cid, "metadata", meta(21)), status: 400, code: "parameter_invalid", param: "metadata"},
		{name: "metadata key 40 chars", body: tkBody(cid, "metadata", map[string]any{k40: "v"}), status: 201,
			check: tkField("metadata", map[string]any{k40: "v"})},
		{name: "metadata key 41 chars", body: tkBody(cid, "metadata", map[string]any{k41: "v"}), status: 400, code: "parameter_invalid", param: "metadata." + k41},
		{name: "metadata value 500 chars", body: tkBody(cid, "metadata", map[string]any{"k": str("v", 500)}), status: 201,
			check: tkField("metadata", map[string]any{"k": str("v", 500)})},
		{name: "metadata value 501 chars", body: tkBody(cid, "metadata", map[string]any{"k": str("v", 501)}), status: 400, code: "parameter_invalid", param: "metadata.k"},
		{name: "metadata value number", body: tkBody(cid, "metadata", map[string]any{"color": 5}), status: 400, code: "parameter_invalid", param: "metadata.color"},
		{name: "metadata value object", body: tkBody(cid, "metadata", map[string]any{"color": map[string]any{}}), status: 400, code: "parameter_invalid", param: "metadata.color"},
		{name: "metadata empty key", body: tkBody(cid, "metadata", map[string]any{"": "v"}), status: 400, code: "parameter_invalid", param: "metadata"},
		{name: "metadata string", body: tkBody(cid, "metadata", "x"), status: 400, code: "parameter_invalid", param: "metadata"},
		{name: "metadata array", body: tkBody(cid, "metadata", []any{"x"}), status: 400, code: "parameter_invalid", param: "metadata"},
		{name: "metadata null", body: tkBody(cid, "metadata", nil), status: 400, code: "parameter_invalid", param: "metadata"},
		// priority
		{name: "priority low", body: tkBody(cid, "priority", "low"), status: 201, check: tkField("priority", "low")},
		{name: "priority normal", body: tkBody(cid, "priority", "normal"), status: 201, check: tkField("priority", "normal")},
		{name: "priority high", body: tkBody(cid, "priority", "high"), status: 201, check: tkField("priority", "high")},
		{name: "priority urgent", body: tkBody(cid, "priority", "urgent"), status: 201, check: tkField("priority", "urgent")},
		{name: "priority bogus", body: tkBody(cid, "priority", "bogus"), status: 400, code: "parameter_invalid", param: "priority"},
		{name: "priority upper case", body: tkBody(cid, "priority", "HIGH"), status: 400, code: "parameter_invalid", param: "priority"},
		{name: "priority empty", body: tkBody(cid, "priority", ""), status: 400, code: "parameter_invalid", param: "priority"},
		{name: "priority number", body: tkBody(cid, "priority", 1), status: 400, code: "parameter_invalid", param: "priority"},
		// notify_contact
		{name: "notify_contact string", body: tkBody(cid, "notify_contact", "yes"), status: 400, code: "parameter_invalid", param: "notify_contact"},
		{name: "notify_contact null", body: tkBody(cid, "notify_contact", nil), status: 400, code: "parameter_invalid", param: "notify_contact"},
		// unknown fields
		{name: "unknown field", body: tkBody(cid, "colour", "red"), status: 400, code: "parameter_unknown", param: "colour"},
		{name: "status is not a create field", body: tkBody(cid, "status", "open"), status: 400, code: "parameter_unknown", param: "status"},
		// contact / contact_id
		{name: "contact without email", body: tkBody(cid, "contact_id", tkOmit, "contact", map[string]any{}), status: 400, code: "parameter_missing", param: "contact.email"},
		{name: "contact with name only", body: tkBody(cid, "contact_id", tkOmit, "contact", map[string]any{"name": "Ann"}), status: 400, code: "parameter_missing", param: "contact.email"},
		{name: "contact unknown field", body: tkBody(cid, "contact_id", tkOmit, "contact", map[string]any{"email": "x@example.com", "phone": "1"}), status: 400, code: "parameter_unknown", param: "contact.phone"},
		{name: "contact email number", body: tkBody(cid, "contact_id", tkOmit, "contact", map[string]any{"email": 5}), status: 400, code: "parameter_invalid", param: "contact.email"},
		{name: "contact email invalid", body: tkBody(cid, "contact_id", tkOmit, "contact", map[string]any{"email": "not-an-address"}), status: 400, code: "parameter_invalid", param: "contact.email"},
		{name: "contact name number", body: tkBody(cid, "contact_id", tkOmit, "contact", map[string]any{"email": "x@example.com", "name": 5}), status: 400, code: "parameter_invalid", param: "contact.name"},
		{name: "contact string", body: tkBody(cid, "contact_id", tkOmit, "contact", "x@example.com"), status: 400, code: "parameter_invalid", param: "contact"},
		{name: "contact null", body: tkBody(cid, "contact_id", tkOmit, "contact", nil), status: 400, code: "parameter_invalid", param: "contact"},
		{name: "contact_id and contact", body: tkBody(cid, "contact", map[string]any{"email": "x@example.com"}), status: 400, code: "parameter_invalid", param: "contact"},
		{name: "neither contact_id nor contact", body: tkBody(cid, "contact_id", tkOmit), status: 400, code: "parameter_missing", param: "contact_id"},
		{name: "contact_id unknown", body: tkBody("ctc_doesnotexist"), status: 400, code: "resource_missing", param: "contact_id"},
		{name: "contact_id number", body: tkBody(cid, "contact_id", 5), status: 400, code: "parameter_invalid", param: "contact_id"},
		// references
		{name: "assignee_id member", body: tkBody(cid, "assignee_id", e.Member), status: 201, check: tkField("assignee_id", e.Member)},
		{name: "assignee_id not a member", body: tkBody(cid, "assignee_id", "mem_nobody"), status: 400, code: "resource_missing", param: "assignee_id"},
		{name: "conversation_id unknown", body: tkBody(cid, "conversation_id", "conv_nothere"), status: 400, code: "resource_missing", param: "conversation_id"},
		{name: "conversation_id of the other mode", body: tkBody(cid, "conversation_id", liveConv), status: 400, code: "resource_missing", param: "conversation_id"},
		// body
		{name: "body not JSON", body: "subject=x", status: 400, code: "body_invalid"},
		{name: "body an array", body: "[]", status: 400, code: "body_invalid"},
		{name: "body null", body: "null", status: 400, code: "body_invalid"},
		{name: "body empty", body: "", status: 400, code: "parameter_missing", param: "subject"},
	}
	accepted := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			se := tkOn(e, t)
			r := se.Test("POST", "/v1/tickets", c.body)
			if c.status != 201 {
				r.Fails(t, c.status, c.code, c.param)
				return
			}
			tk := r.OK(t, 201)
			tkShape(t, tk)
			accepted++
			tkEqual(t, "number", tkNum(tk), accepted)
			if c.check != nil {
				c.check(t, tk)
			}
		})
	}
	// Refused requests created nothing and used no ticket number.
	ids := e.All(e.TestKey, "/v1/tickets", 100)
	if len(ids) != accepted {
		t.Fatalf("%d tickets exist, want %d (one per accepted case)", len(ids), accepted)
	}
	next := tkCreate(e, tkBody(cid))
	tkEqual(t, "number after refused creates", tkNum(next), accepted+1)
}

func TestTicketCreateRefusedLeavesNoContact(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	// The contact is found or created inside the ticket's transaction: a
	// ticket refused after that point must not leave the contact behind.
	for _, c := range []struct {
		name  string
		extra []any
		code  string
		param string
	}{
		{"too much metadata", []any{"metadata", meta(21)}, "parameter_invalid", "metadata"},
		{"unknown assignee", []any{"assignee_id", "mem_nobody"}, "resource_missing", "assignee_id"},
		{"unknown conversation", []any{"conversation_id", "conv_nothere"}, "resource_missing", "conversation_id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			se := tkOn(e, t)
			email := strings.ReplaceAll(c.name, " ", ".") + "@example.com"
			body := tkBody("", append([]any{"contact_id", tkOmit, "contact", map[string]any{"email": email}}, c.extra...)...)
			se.Test("POST", "/v1/tickets", body).Fails(t, 400, c.code, c.param)
			list := se.Test("GET", "/v1/contacts?email="+url.QueryEscape(email), nil).OK(t, 200)
			if n := len(list["data"].([]any)); n != 0 {
				t.Fatalf("refused ticket left %d contact(s) for %s", n, email)
			}
		})
	}
	if ids := e.All(e.TestKey, "/v1/tickets", 100); len(ids) != 0 {
		t.Fatalf("refused creates left tickets %v", ids)
	}
}

func TestTicketCreateContactFindOrCreate(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)

	// A new address creates the contact, with a contact.created event.
	tk1 := tkCreate(e, tkBody("", "contact_id", tkOmit,
		"contact", map[string]any{"email": "New.Person@Example.com", "name": "New Person"}))
	cid := tk1["contact_id"].(string)
	c := e.Test("GET", "/v1/contacts/"+cid, nil).OK(t, 200)
	tkEqual(t, "contact email", c["email"], any("New.Person@Example.com"))
	tkEqual(t, "contact name", c["name"], any("New Person"))
	tkEqual(t, "contact events", tkEvents(e, cid), tkStrs("test:contact.created"))
	tkEqual(t, "contact.created data", e.EventData(cid, "contact.created"), c)
	tkEqual(t, "mails", tkMails(e, tkID(t, tk1)), tkStrs("ticket_created:New.Person@Example.com"))

	// The same address in another case reuses the contact.
	tk2 := tkCreate(e, tkBody("", "contact_id", tkOmit, "contact", map[string]any{"email": "new.person@EXAMPLE.com"}))
	tkEqual(t, "reused contact", tk2["contact_id"], any(cid))
	tkEqual(t, "contact events after reuse", tkEvents(e, cid), tkStrs("test:contact.created"))
	tkEqual(t, "mail goes to the stored address", tkMails(e, tkID(t, tk2)), tkStrs("ticket_created:New.Person@Example.com"))
	list := e.Test("GET", "/v1/contacts?email=new.person%40example.com", nil).OK(t, 200)
	if n := len(list["data"].([]any)); n != 1 {
		t.Fatalf("%d contacts with the address, want 1", n)
	}

	// A contact made through the contacts API is found by e-mail too.
	known := e.Contact("known@example.com")
	tk3 := tkCreate(e, tkBody("", "contact_id", tkOmit, "contact", map[string]any{"email": "KNOWN@example.com", "name": "K"}))
	tkEqual(t, "known contact", tk3["contact_id"], any(known))
	tkEqual(t, "known contact events", tkEvents(e, known), tkStrs("test:contact.created"))

	// Contacts are per mode: the same address in live mode is another contact.
	ltk := e.Live("POST", "/v1/tickets", tkBody("", "contact_id", tkOmit,
		"contact", map[string]any{"email": "new.person@example.com"})).OK(t, 201)
	tkShape(t, ltk)
	lcid := ltk["contact_id"].(string)
	if lcid == cid {
		t.Fatal("live ticket reused the test-mode contact")
	}
	tkEqual(t, "live contact events", tkEvents(e, lcid), tkStrs("live:contact.created"))
	e.Live("GET", "/v1/contacts/"+lcid, nil).OK(t, 200)
	e.Test("GET", "/v1/contacts/"+lcid, nil).Fails(t, 404, "resource_missing", "id")

	// contact_id of a contact without an e-mail address: ticket, no mail.
	noMail := e.Test("POST", "/v1/contacts", map[string]any{"external_id": "user-1"}).OK(t, 201)["id"].(string)
	tk4 := tkCreate(e, tkBody(noMail))
	tkEqual(t, "events", tkEvents(e, tkID(t, tk4)), tkStrs("test:ticket.created"))
	tkEqual(t, "mails to a contact without e-mail", tkMails(e, tkID(t, tk4)), tkStrs())
}

// ---------------------------------------------------------------------------
// GET / DELETE by id and number, not found, modes
// ---------------------------------------------------------------------------

func TestTicketNotFound(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	tkCreate(e, tkBody(e.Contact("ann@example.com")))
	for _, ref := range []string{"tkt_doesnotexist", "2", "T-2", "0", "T-0", "T-abc", "-1"} {
		t.Run(ref, func(t *testing.T) {
			se := tkOn(e, t)
			se.Test("GET", "/v1/tickets/"+ref, nil).Fails(t, 404, "resource_missing", "id")
			se.Test("PATCH", "/v1/tickets/"+ref, map[string]any{"status": "closed"}).Fails(t, 404, "resource_missing", "id")
			se.Test("DELETE", "/v1/tickets/"+ref, nil).Fails(t, 404, "resource_missing", "id")
		})
	}
	// The existing ticket was left alone.
	tk := tkGet(e, "1")
	tkEqual(t, "status", tk["status"], any("open"))
}

func TestTicketByNumber(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	var byNumber []map[string]any
	for i := 1; i <= 43; i++ {
		tk := tkCreate(e, tkBody(cid, "subject", fmt.Sprintf("Ticket %d", i)))
		tkEqual(t, "number", tkNum(tk), i)
		byNumber = append(byNumber, tk)
	}
	t42 := byNumber[41]
	for _, ref := range []string{"42", "T-42", tkID(t, t42)} {
		tkEqual(t, "GET "+ref, tkGet(e, ref), t42)
	}
	// PATCH by number addresses the same ticket.
	p := tkPatch(e, "T-42", map[string]any{"priority": "high"})
	tkEqual(t, "patched id", p["id"], t42["id"])

	// DELETE by number, both spellings.
	for _, c := range []struct {
		ref string
		tk  map[string]any
	}{{"T-43", byNumber[42]}, {"41", byNumber[40]}} {
		d := e.Test("DELETE", "/v1/tickets/"+c.ref, nil).OK(t, 200)
		tkEqual(t, "deleted envelope", d, map[string]any{"id": c.tk["id"], "object": "ticket", "deleted": true})
		id := tkID(t, c.tk)
		n := itoa(tkNum(c.tk))
		for _, ref := range []string{id, n, "T-" + n} {
			e.Test("GET", "/v1/tickets/"+ref, nil).Fails(t, 404, "resource_missing", "id")
		}
		e.Test("DELETE", "/v1/tickets/"+c.ref, nil).Fails(t, 404, "resource_missing", "id")
		e.Test("PATCH", "/v1/tickets/"+id, map[string]any{"status": "closed"}).Fails(t, 404, "resource_missing", "id")
		if slices.Contains(e.All(e.TestKey, "/v1/tickets", 100), id) {
			t.Fatalf("deleted ticket %s still listed", id)
		}
	}
	if n := len(e.All(e.TestKey, "/v1/tickets", 100)); n != 41 {
		t.Fatalf("%d tickets after two deletions, want 41", n)
	}
	// Numbers are not reused after a deletion.
	tkEqual(t, "number after deletions", tkNum(tkCreate(e, tkBody(cid))), 44)
	// Neighbours are untouched.
	tkEqual(t, "T-42 after deletions", tkGet(e, "T-42")["id"], t42["id"])
}

func TestTicketDeleteByID(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	keep := tkCreate(e, tkBody(cid, "tags", tkStrList("billing")))
	gone := tkCreate(e, tkBody(cid, "tags", tkStrList("billing")))
	id := tkID(t, gone)
	d := e.Test("DELETE", "/v1/tickets/"+id, nil).OK(t, 200)
	tkEqual(t, "deleted envelope", d, map[string]any{"id": id, "object": "ticket", "deleted": true})
	e.Test("GET", "/v1/tickets/"+id, nil).Fails(t, 404, "resource_missing", "id")
	e.Test("GET", "/v1/tickets/2", nil).Fails(t, 404, "resource_missing", "id")
	tkEqual(t, "list", e.All(e.TestKey, "/v1/tickets", 10), tkStrs(tkID(t, keep)))
	tkEqual(t, "tag filter", e.All(e.TestKey, "/v1/tickets?tag=billing", 10), tkStrs(tkID(t, keep)))
}

func TestTicketModeIsolation(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	tk := tkCreate(e, tkBody(cid, "tags", tkStrList("billing")))
	id := tkID(t, tk)
	tkEqual(t, "first test number", tkNum(tk), 1)

	for _, ref := range []string{id, "1", "T-1"} {
		e.Live("GET", "/v1/tickets/"+ref, nil).Fails(t, 404, "resource_missing", "id")
		e.Live("PATCH", "/v1/tickets/"+ref, map[string]any{"status": "solved", "subject": "hijacked"}).
			Fails(t, 404, "resource_missing", "id")
		e.Live("DELETE", "/v1/tickets/"+ref, nil).Fails(t, 404, "resource_missing", "id")
	}
	for _, q := range []string{"", "status=open", "tag=billing", "contact_id=" + cid} {
		if ids := tkListIDs(e, e.LiveKey, q); len(ids) != 0 {
			t.Fatalf("live list ?%s shows test tickets %v", q, ids)
		}
	}
	// The live requests changed nothing.
	tkEqual(t, "test ticket after live requests", tkGet(e, id), tk)
	tkEqual(t, "events", tkEvents(e, id), tkStrs("test:ticket.created"))

	// A test-mode contact cannot be used in live mode, nor a conversation.
	e.Live("POST", "/v1/tickets", tkBody(cid)).Fails(t, 400, "resource_missing", "contact_id")
	lcid := tkLiveContact(e, "ann@example.com")
	conv := e.Conversation("test", "Hello in test mode")
	e.Live("POST", "/v1/tickets", tkBody(lcid, "conversation_id", conv)).Fails(t, 400, "resource_missing", "conversation_id")
	e.Test("POST", "/v1/tickets", tkBody(lcid)).Fails(t, 400, "resource_missing", "contact_id")

	// Live numbers count from 1 on their own.
	ltk := e.Live("POST", "/v1/tickets", tkBody(lcid, "subject", "Live one")).OK(t, 201)
	tkShape(t, ltk)
	tkEqual(t, "first live number", tkNum(ltk), 1)
	tkEqual(t, "live events", tkEvents(e, tkID(t, ltk)), tkStrs("live:ticket.created"))
	tkEqual(t, "live mails", tkMails(e, tkID(t, ltk)), tkStrs("ticket_created:ann@example.com"))
	tkEqual(t, "second test number", tkNum(tkCreate(e, tkBody(cid))), 2)
	tkEqual(t, "live T-1", e.Live("GET", "/v1/tickets/T-1", nil).OK(t, 200)["id"], ltk["id"])
	tkEqual(t, "test T-1", tkGet(e, "T-1")["id"], any(id))
	tkEqual(t, "live list", e.All(e.LiveKey, "/v1/tickets", 10), tkStrs(tkID(t, ltk)))
	if ids := e.All(e.TestKey, "/v1/tickets", 10); slices.Contains(ids, tkID(t, ltk)) || len(ids) != 2 {
		t.Fatalf("test list %v", ids)
	}
	e.Test("GET", "/v1/tickets/"+tkID(t, ltk), nil).Fails(t, 404, "resource_missing", "id")
	e.Test("DELETE", "/v1/tickets/"+tkID(t, ltk), nil).Fails(t, 404, "resource_missing", "id")
	e.Live("GET", "/v1/tickets/"+tkID(t, ltk), nil).OK(t, 200)
}

// ---------------------------------------------------------------------------
// GET /v1/tickets
// ---------------------------------------------------------------------------

func TestTicketListQueryValidation(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	for i := 0; i < 3; i++ {
		tkCreate(e, tkBody(cid))
	}
	bad := []struct{ query, code, param string }{
		{"status=bogus", "parameter_invalid", "status"},
		{"status=OPEN", "parameter_invalid", "status"},
		{"priority=bogus", "parameter_invalid", "priority"},
		{"created_after=notadate", "parameter_invalid", "created_after"},
		{"created_before=notadate", "parameter_invalid", "created_before"},
		{"created_after=2026-10-01T12:00:00", "parameter_invalid", "created_after"},
		{"created_before=1759320000", "parameter_invalid", "created_before"},
		{"limit=0", "parameter_invalid", "limit"},
		{"limit=101", "parameter_invalid", "limit"},
		{"limit=-1", "parameter_invalid", "limit"},
		{"limit=abc", "parameter_invalid", "limit"},
		{"limit=2.5", "parameter_invalid", "limit"},
		{"cursor=%21%21%21", "parameter_invalid", "cursor"},
		{"colour=red", "parameter_unknown", "colour"},
		{"assignee_id=" + e.Member, "parameter_unknown", "assignee_id"},
		{"status=open&status=closed", "parameter_invalid", "status"},
	}
	for _, c := range bad {
		t.Run(c.query, func(t *testing.T) {
			tkOn(e, t).Test("GET", "/v1/tickets?"+c.query, nil).Fails(t, 400, c.code, c.param)
		})
	}
	good := []struct {
		query   string
		n       int
		hasMore bool
	}{
		{"limit=1", 1, true},
		{"limit=2", 2, true},
		{"limit=3", 3, false},
		{"limit=100", 3, false},
		{"", 3, false},
		{"status=open", 3, false},
		{"status=pending", 0, false},
		{"priority=normal&limit=100", 3, false},
		{"created_after=2026-10-01", 3, false},
		{"created_before=2026-10-01", 0, false},
		{"created_after=2026-10-01T11:00:00Z&created_before=2026-10-02T00:00:00%2B02:00", 3, false},
	}
	for _, c := range good {
		t.Run("ok "+c.query, func(t *testing.T) {
			b := tkOn(e, t).Test("GET", "/v1/tickets?"+c.query, nil).OK(t, 200)
			page := tkPage(t, b)
			if len(page) != c.n || b["has_more"] != c.hasMore {
				t.Fatalf("?%s: %d tickets, has_more %v; want %d, %v", c.query, len(page), b["has_more"], c.n, c.hasMore)
			}
		})
	}
}

func TestTicketListFilters(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	a := e.Contact("a@example.com")
	b := e.Contact("b@example.com")
	mk := func(contact, priority string, tags ...string) map[string]any {
		t.Helper()
		e.Clock.Advance(time.Second)
		return tkCreate(e, tkBody(contact, "priority", priority, "tags", tkStrList(tags...)))
	}
	t1 := mk(a, "low", "billing")
	t2 := mk(b, "high", "billing", "refund")
	t3 := mk(a, "high", "bug")
	t4 := mk(b, "normal")
	t5 := mk(a, "urgent", "bug", "billing")
	tkPatch(e, tkID(t, t2), map[string]any{"status": "pending"})
	tkPatch(e, tkID(t, t3), map[string]any{"status": "solved"})
	tkPatch(e, tkID(t, t5), map[string]any{"status": "closed"})
	id := func(tk map[string]any) string { return tkID(t, tk) }
	// at is a ticket's created_at; mid is half a second later, strictly
	// between it and the next ticket's.
	at := func(tk map[string]any) string { return url.QueryEscape(tk["created_at"].(string)) }
	mid := func(tk map[string]any) string {
		return url.QueryEscape(tkTime(t, "created_at", tk["created_at"]).Add(500 * time.Millisecond).Format(time.RFC3339Nano))
	}
	ids := func(tks ...map[string]any) []string {
		out := []string{}
		for _, tk := range tks {
			out = append(out, id(tk))
		}
		return out
	}
	beforeT1 := url.QueryEscape(tkTime(t, "created_at", t1["created_at"]).Add(-500 * time.Millisecond).Format(time.RFC3339Nano))
	// mid(t2) written with a +02:00 offset.
	t2Offset := url.QueryEscape(tkTime(t, "created_at", t2["created_at"]).Add(500 * time.Millisecond).
		In(time.FixedZone("", 2*3600)).Format(time.RFC3339Nano))
	cases := []struct {
		query string
		want  []string
	}{
		{"", ids(t5, t4, t3, t2, t1)},
		{"status=open", ids(t4, t1)},
		{"status=pending", ids(t2)},
		{"status=solved", ids(t3)},
		{"status=closed", ids(t5)},
		{"priority=low", ids(t1)},
		{"priority=normal", ids(t4)},
		{"priority=high", ids(t3, t2)},
		{"priority=urgent", ids(t5)},
		{"contact_id=" + a, ids(t5, t3, t1)},
		{"contact_id=" + b, ids(t4, t2)},
		{"contact_id=ctc_nobody", ids()},
		{"tag=billing", ids(t5, t2, t1)},
		{"tag=bug", ids(t5, t3)},
		{"tag=refund", ids(t2)},
		{"tag=Billing", ids()},
		{"tag=nothing", ids()},
		// Both bounds are exclusive: a ticket created at the bound is left out.
		{"created_after=" + at(t2), ids(t5, t4, t3)},
		{"created_after=" + mid(t2), ids(t5, t4, t3)},
		{"created_after=" + t2Offset, ids(t5, t4, t3)},
		{"created_before=" + at(t4), ids(t3, t2, t1)},
		{"created_before=" + mid(t3), ids(t3, t2, t1)},
		{"created_after=" + mid(t1) + "&created_before=" + at(t5), ids(t4, t3, t2)},
		{"created_after=" + mid(t3) + "&created_before=" + at(t4), ids()},
		{"created_after=" + mid(t5), ids()},
		{"created_before=" + at(t1), ids()},
		{"created_after=" + beforeT1 + "&created_before=" + mid(t5), ids(t5, t4, t3, t2, t1)},
		{"contact_id=" + a + "&tag=billing", ids(t5, t1)},
		{"contact_id=" + b + "&status=open", ids(t4)},
		{"priority=high&status=pending", ids(t2)},
		{"priority=high&status=open", ids()},
		{"tag=bug&status=solved", ids(t3)},
		{"tag=billing&contact_id=" + a + "&created_after=" + mid(t1), ids(t5)},
		{"status=open&priority=low&contact_id=" + a + "&tag=billing&created_before=" + at(t2), ids(t1)},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			se := tkOn(e, t)
			tkEqual(t, "one page", tkListIDs(se, se.TestKey, c.query), c.want)
			// Walking the filtered list one by one gives the same tickets.
			path := "/v1/tickets"
			if c.query != "" {
				path += "?" + c.query
			}
			tkEqual(t, "paged", tkStrs(se.All(se.TestKey, path, 1)...), c.want)
		})
	}

	// The tag filter follows tag changes.
	tkPatch(e, id(t1), map[string]any{"tags": tkStrList("other")})
	tkEqual(t, "tag=billing after retag", tkListIDs(e, e.TestKey, "tag=billing"), ids(t5, t2))
	tkEqual(t, "tag=other after retag", tkListIDs(e, e.TestKey, "tag=other"), ids(t1))
	// And the status filter follows status changes.
	tkPatch(e, id(t3), map[string]any{"status": "open"})
	tkEqual(t, "status=open after reopening", tkListIDs(e, e.TestKey, "status=open"), ids(t4, t3, t1))
}

func TestTicketListCreatedBoundsSubMillisecond(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	tk := tkCreate(e, tkBody(cid))
	at := tkTime(t, "created_at", tk["created_at"])
	q := func(d time.Duration) string { return url.QueryEscape(at.Add(d).Format(time.RFC3339Nano)) }
	want := tkStrs(tkID(t, tk))
	// The ticket was created before created_at + 0.5ms and after created_at - 0.5ms.
	tkEqual(t, "created_before=created_at+0.5ms", tkListIDs(e, e.TestKey, "created_before="+q(500*time.Microsecond)), want)
	tkEqual(t, "created_after=created_at-0.5ms", tkListIDs(e, e.TestKey, "created_after="+q(-500*time.Microsecond)), want)
	// It was neither created before created_at - 0.5ms nor after created_at + 0.5ms.
	tkEqual(t, "created_before=created_at-0.5ms", tkListIDs(e, e.TestKey, "created_before="+q(-500*time.Microsecond)), tkStrs())
	tkEqual(t, "created_after=created_at+0.5ms", tkListIDs(e, e.TestKey, "created_after="+q(500*time.Microsecond)), tkStrs())
}

func TestTicketListCreatedBoundsFrozenClock(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	e.Clock.SetStep(0)
	var want []string
	for i := 0; i < 4; i++ {
		want = append([]string{tkID(t, tkCreate(e, tkBody(cid)))}, want...)
	}
	first := tkGet(e, want[len(want)-1])
	at := tkTime(t, "created_at", first["created_at"])
	q := func(d time.Duration) string { return url.QueryEscape(at.Add(d).Format(time.RFC3339Nano)) }
	tkEqual(t, "created_before=T", tkListIDs(e, e.TestKey, "created_before="+q(0)), tkStrs())
	tkEqual(t, "created_after=T", tkListIDs(e, e.TestKey, "created_after="+q(0)), tkStrs())
	tkEqual(t, "created_after=T-1ms", tkListIDs(e, e.TestKey, "created_after="+q(-time.Millisecond)), want)
	tkEqual(t, "created_before=T+1ms", tkListIDs(e, e.TestKey, "created_before="+q(time.Millisecond)), want)
}

// tkOrdered fails unless the tickets are strictly newest first: created_at
// descending, ties broken by id descending.
func tkOrdered(t *testing.T, tks []map[string]any) {
	t.Helper()
	for i := 1; i < len(tks); i++ {
		p, c := tks[i-1], tks[i]
		pt, ct := tkTime(t, "created_at", p["created_at"]), tkTime(t, "created_at", c["created_at"])
		if ct.After(pt) || (ct.Equal(pt) && c["id"].(string) >= p["id"].(string)) {
			t.Fatalf("list not newest first at %d: %v %v then %v %v", i, p["created_at"], p["id"], c["created_at"], c["id"])
		}
	}
}

func TestTicketPaginationWhileInserting(t *testing.T) {
	t.Parallel()
	for _, frozen := range []bool{false, true} {
		t.Run(fmt.Sprintf("frozen clock %v", frozen), func(t *testing.T) {
			e := webenv.New(t)
			cid := e.Contact("ann@example.com")
			if frozen {
				e.Clock.SetStep(0)
			}
			var created []string // creation order
			for i := 0; i < 11; i++ {
				created = append(created, tkID(t, tkCreate(e, tkBody(cid, "subject", "Initial "+itoa(i)))))
			}
			initial := slices.Clone(created)
			slices.Reverse(initial) // newest first

			const limit = 3
			var walked []map[string]any
			path := "/v1/tickets?limit=" + itoa(limit)
			for pages := 0; ; pages++ {
				if pages > 20 {
					t.Fatal("pagination does not end")
				}
				b := e.Test("GET", path, nil).OK(t, 200)
				page := tkPage(t, b)
				if len(page) > limit || (b["has_more"] == true && len(page) != limit) {
					t.Fatalf("page %d has %d tickets (has_more %v)", pages, len(page), b["has_more"])
				}
				walked = append(walked, page...)
				// Rows arrive between page fetches.
				for j := 0; j < 2; j++ {
					created = append(created, tkID(t, tkCreate(e, tkBody(cid, "subject", "Inserted while paging"))))
				}
				if b["has_more"] != true {
					break
				}
				path = "/v1/tickets?limit=" + itoa(limit) + "&cursor=" + url.QueryEscape(b["next_cursor"].(string))
			}
			tkOrdered(t, walked)
			got := make([]string, len(walked))
			seen := map[string]bool{}
			for i, tk := range walked {
				got[i] = tkID(t, tk)
				if seen[got[i]] {
					t.Fatalf("ticket %s listed twice", got[i])
				}
				seen[got[i]] = true
			}
			// Every ticket that existed at the start, once, newest first; the
			// newer ones inserted meanwhile sort before the cursor.
			tkEqual(t, "walked ids", got, initial)

			// A fresh walk sees everything, newest first, whatever the page size.
			all := slices.Clone(created)
			slices.Reverse(all)
			for _, l := range []int{1, 2, 3, 7, 100} {
				tkEqual(t, "walk with limit "+itoa(l), e.All(e.TestKey, "/v1/tickets", l), all)
			}
			full := tkPage(t, e.Test("GET", "/v1/tickets?limit=100", nil).OK(t, 200))
			tkOrdered(t, full)
			if frozen {
				for _, tk := range full[1:] {
					tkEqual(t, "frozen created_at", tk["created_at"], full[0]["created_at"])
				}
			}
		})
	}
}

func TestTicketListDefaultLimit(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	for i := 0; i < 21; i++ {
		tkCreate(e, tkBody(cid))
	}
	b := e.Test("GET", "/v1/tickets", nil).OK(t, 200)
	page := tkPage(t, b)
	if len(page) != 20 || b["has_more"] != true {
		t.Fatalf("first page: %d tickets, has_more %v; want 20, true", len(page), b["has_more"])
	}
	b2 := e.Test("GET", "/v1/tickets?cursor="+url.QueryEscape(b["next_cursor"].(string)), nil).OK(t, 200)
	page2 := tkPage(t, b2)
	if len(page2) != 1 || b2["has_more"] != false || b2["next_cursor"] != nil {
		t.Fatalf("second page: %d tickets, has_more %v, next_cursor %v", len(page2), b2["has_more"], b2["next_cursor"])
	}
	tkEqual(t, "last ticket", tkNum(page2[0]), 1)
	tkOrdered(t, append(page, page2...))
}

// ---------------------------------------------------------------------------
// PATCH /v1/tickets/{id}
// ---------------------------------------------------------------------------

func TestTicketUpdateValidation(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	k40, k41 := str("k", 40), str("k", 41)
	cases := []tkCase{
		{name: "empty body", body: map[string]any{}, status: 200},
		{name: "no body", body: nil, status: 200},
		{name: "subject 200", body: map[string]any{"subject": str("s", 200)}, status: 200, check: tkField("subject", str("s", 200))},
		{name: "subject 201", body: map[string]any{"subject": str("s", 201)}, status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject empty", body: map[string]any{"subject": ""}, status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject number", body: map[string]any{"subject": 5}, status: 400, code: "parameter_invalid", param: "subject"},
		{name: "subject null", body: map[string]any{"subject": nil}, status: 400, code: "parameter_invalid", param: "subject"},
		{name: "status pending", body: map[string]any{"status": "pending"}, status: 200, check: tkField("status", "pending")},
		{name: "status bogus", body: map[string]any{"status": "reopened"}, status: 400, code: "parameter_invalid", param: "status"},
		{name: "status empty", body: map[string]any{"status": ""}, status: 400, code: "parameter_invalid", param: "status"},
		{name: "status null", body: map[string]any{"status": nil}, status: 400, code: "parameter_invalid", param: "status"},
		{name: "status number", body: map[string]any{"status": 1}, status: 400, code: "parameter_invalid", param: "status"},
		{name: "priority urgent", body: map[string]any{"priority": "urgent"}, status: 200, check: tkField("priority", "urgent")},
		{name: "priority bogus", body: map[string]any{"priority": "critical"}, status: 400, code: "parameter_invalid", param: "priority"},
		{name: "assignee member", body: map[string]any{"assignee_id": e.Member}, status: 200, check: tkField("assignee_id", e.Member)},
		{name: "assignee null", body: map[string]any{"assignee_id": nil}, status: 200, check: tkField("assignee_id", nil)},
		{name: "assignee not a member", body: map[string]any{"assignee_id": "mem_nobody"}, status: 400, code: "resource_missing", param: "assignee_id"},
		{name: "assignee number", body: map[string]any{"assignee_id": 5}, status: 400, code: "parameter_invalid", param: "assignee_id"},
		{name: "tags replace", body: map[string]any{"tags": tkStrList("x", "y")}, status: 200, check: tkField("tags", tkStrList("x", "y"))},
		{name: "tags string", body: map[string]any{"tags": "x"}, status: 400, code: "parameter_invalid", param: "tags"},
		{name: "tags empty tag", body: map[string]any{"tags": tkStrList("")}, status: 400, code: "parameter_invalid", param: "tags.0"},
		{name: "notify_contact string", body: map[string]any{"notify_contact": "yes", "status": "closed"}, status: 400, code: "parameter_invalid", param: "notify_contact"},
		{name: "metadata value number", body: map[string]any{"metadata": map[string]any{"color": 5}}, status: 400, code: "parameter_invalid", param: "metadata.color"},
		{name: "metadata key 41", body: map[string]any{"metadata": map[string]any{k41: "v"}}, status: 400, code: "parameter_invalid", param: "metadata." + k41},
		{name: "metadata value 501", body: map[string]any{"metadata": map[string]any{"k0": str("v", 501)}}, status: 400, code: "parameter_invalid", param: "metadata.k0"},
		{name: "metadata null", body: map[string]any{"metadata": nil}, status: 400, code: "parameter_invalid", param: "metadata"},
		{name: "description is not a PATCH field", body: map[string]any{"description": "x"}, status: 400, code: "parameter_unknown", param: "description"},
		{name: "contact_id is not a PATCH field", body: map[string]any{"contact_id": cid}, status: 400, code: "parameter_unknown", param: "contact_id"},
		{name: "unknown field", body: map[string]any{"colour": "red"}, status: 400, code: "parameter_unknown", param: "colour"},
		{name: "body not JSON", body: "status=closed", status: 400, code: "body_invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			se := tkOn(e, t)
			before := tkCreate(se, tkBody(cid, "metadata", map[string]any{k40: "v", "k0": "v0"}))
			id := tkID(t, before)
			r := se.Test("PATCH", "/v1/tickets/"+id, c.body)
			if c.status != 200 {
				r.Fails(t, c.status, c.code, c.param)
				tkEqual(t, "ticket after refused PATCH", tkGet(se, id), before)
				tkEqual(t, "events after refused PATCH", tkEvents(se, id), tkStrs("test:ticket.created"))
				return
			}
			tk := r.OK(t, 200)
			tkShape(t, tk)
			tkEqual(t, "id", tk["id"], before["id"])
			tkEqual(t, "GET after PATCH", tkGet(se, id), tk)
			if c.check != nil {
				c.check(t, tk)
			}
		})
	}
}

func TestTicketUpdateMetadata(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	tk := tkCreate(e, tkBody(e.Contact("ann@example.com"), "metadata", meta(20)))
	id := tkID(t, tk)
	k40 := str("k", 40)
	steps := []struct {
		name  string
		patch map[string]any
		param string // refused when set
	}{
		{name: "21st key refused", patch: map[string]any{"extra": "v"}, param: "metadata"},
		{name: "replace a value", patch: map[string]any{"k0": "changed"}},
		{name: "delete one, add one", patch: map[string]any{"k1": nil, "extra": str("v", 500)}},
		{name: "delete an absent key", patch: map[string]any{"absent": nil}},
		{name: "40-char key over the limit of pairs", patch: map[string]any{k40: "v"}, param: "metadata"},
		{name: "delete two", patch: map[string]any{"k2": nil, "k3": nil}},
		{name: "40-char key", patch: map[string]any{k40: "v"}},
		{name: "back to 20 pairs", patch: map[string]any{"k1": "again"}},
		{name: "21st key refused again", patch: map[string]any{"another": "v"}, param: "metadata"},
		{name: "empty patch", patch: map[string]any{}},
		{name: "value 501 refused", patch: map[string]any{"k4": str("v", 501)}, param: "metadata.k4"},
	}
	cur := meta(20)
	for _, s := range steps {
		r := e.Test("PATCH", "/v1/tickets/"+id, map[string]any{"metadata": s.patch})
		if s.param != "" {
			r.Fails(t, 400, "parameter_invalid", s.param)
		} else {
			got := r.OK(t, 200)
			tkShape(t, got)
			for k, v := range s.patch {
				if v == nil {
					delete(cur, k)
				} else {
					cur[k] = v
				}
			}
			tkEqual(t, s.name+": metadata", got["metadata"], any(cur))
		}
		tkEqual(t, s.name+": stored metadata", tkGet(e, id)["metadata"], any(cur))
	}
	if n := len(cur); n != 20 {
		t.Fatalf("test expects to end at the 20-pair limit, has %d", n)
	}
	// Metadata changes record no event and send no mail.
	tkEqual(t, "events", tkEvents(e, id), tkStrs("test:ticket.created"))
	tkEqual(t, "mails", tkMails(e, id), tkStrs("ticket_created:ann@example.com"))
}

// ---------------------------------------------------------------------------
// State transitions, events, e-mails
// ---------------------------------------------------------------------------

func TestTicketCreateEventsAndMail(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	for _, c := range []struct {
		name   string
		notify any // tkOmit for absent
		mails  []string
	}{
		{"notify_contact absent", tkOmit, tkStrs("ticket_created:ann@example.com")},
		{"notify_contact true", true, tkStrs("ticket_created:ann@example.com")},
		{"notify_contact false", false, tkStrs()},
	} {
		t.Run(c.name, func(t *testing.T) {
			se := tkOn(e, t)
			tk := tkCreate(se, tkBody(cid, "notify_contact", c.notify, "tags", tkStrList("a"), "metadata", meta(2)))
			id := tkID(t, tk)
			tkEqual(t, "events", tkEvents(se, id), tkStrs("test:ticket.created"))
			tkEqual(t, "ticket.created data", se.EventData(id, "ticket.created"), tk)
			tkEqual(t, "mails", tkMails(se, id), c.mails)
		})
	}
}

func TestTicketStatusFromOpen(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	const created, updated, solved = "test:ticket.created", "test:ticket.updated", "test:ticket.solved"
	const mCreated, mUpdated, mSolved = "ticket_created:ann@example.com", "ticket_updated:ann@example.com", "ticket_solved:ann@example.com"
	cases := []struct {
		to     string
		notify any
		events []string
		mails  []string
	}{
		{"open", tkOmit, tkStrs(created), tkStrs(mCreated)},
		{"pending", tkOmit, tkStrs(created, updated), tkStrs(mCreated, mUpdated)},
		{"solved", tkOmit, tkStrs(created, updated, solved), tkStrs(mCreated, mSolved)},
		{"closed", tkOmit, tkStrs(created, updated), tkStrs(mCreated, mUpdated)},
		{"pending", true, tkStrs(created, updated), tkStrs(mCreated, mUpdated)},
		{"pending", false, tkStrs(created, updated), tkStrs(mCreated)},
		{"solved", false, tkStrs(created, updated, solved), tkStrs(mCreated)},
		{"closed", false, tkStrs(created, updated), tkStrs(mCreated)},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s notify %v", c.to, c.notify), func(t *testing.T) {
			se := tkOn(e, t)
			tk := tkCreate(se, tkBody(cid))
			id := tkID(t, tk)
			patch := map[string]any{"status": c.to}
			if _, omit := c.notify.(tkOmitT); !omit {
				patch["notify_contact"] = c.notify
			}
			got := tkPatch(se, id, patch)
			tkEqual(t, "status", got["status"], any(c.to))
			if c.to == "solved" {
				tkEqual(t, "solved_at", got["solved_at"], got["updated_at"])
			} else {
				tkEqual(t, "solved_at", got["solved_at"], nil)
			}
			tkEqual(t, "events", tkEvents(se, id), c.events)
			tkEqual(t, "mails", tkMails(se, id), c.mails)
			if slices.Contains(c.events, updated) {
				tkEqual(t, "ticket.updated data", se.EventData(id, "ticket.updated"), got)
			}
			if slices.Contains(c.events, solved) {
				tkEqual(t, "ticket.solved data", se.EventData(id, "ticket.solved"), got)
			}
			tkEqual(t, "GET", tkGet(se, id), got)
		})
	}
}

func TestTicketStatusLifecycle(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	tk := tkCreate(e, tkBody(e.Contact("ann@example.com")))
	id := tkID(t, tk)
	const (
		upd = "test:ticket.updated"
		sol = "test:ticket.solved"
		mU  = "ticket_updated:ann@example.com"
		mS  = "ticket_solved:ann@example.com"
	)
	// solvedAt: "nil" cleared, "new" set to this update's time, "kept" unchanged.
	steps := []struct {
		patch    map[string]any
		solvedAt string
		events   []string // appended by this step
		mails    []string // appended by this step
	}{
		{map[string]any{"status": "solved"}, "new", tkStrs(upd, sol), tkStrs(mS)},
		{map[string]any{"status": "solved"}, "kept", nil, nil},
		{map[string]any{"status": "open"}, "nil", tkStrs(upd), tkStrs(mU)},
		{map[string]any{"status": "solved"}, "new", tkStrs(upd, sol), tkStrs(mS)},
		{map[string]any{"status": "closed"}, "kept", tkStrs(upd), tkStrs(mU)},
		{map[string]any{"status": "closed"}, "kept", nil, nil},
		{map[string]any{"status": "open"}, "nil", tkStrs(upd), tkStrs(mU)},
		{map[string]any{"status": "pending"}, "nil", tkStrs(upd), tkStrs(mU)},
		{map[string]any{"status": "solved", "notify_contact": false}, "new", tkStrs(upd, sol), nil},
		{map[string]any{"status": "pending"}, "nil", tkStrs(upd), tkStrs(mU)},
		{map[string]any{"status": "closed", "notify_contact": true}, "nil", tkStrs(upd), tkStrs(mU)},
		{map[string]any{"status": "solved"}, "new", tkStrs(upd, sol), tkStrs(mS)},
		{map[string]any{"status": "pending", "notify_contact": false}, "nil", tkStrs(upd), nil},
	}
	events := tkStrs("test:ticket.created")
	mails := tkStrs("ticket_created:ann@example.com")
	prev := tk
	for i, s := range steps {
		name := fmt.Sprintf("step %d %v", i, s.patch)
		got := tkPatch(e, id, s.patch)
		tkEqual(t, name+": status", got["status"], s.patch["status"])
		switch s.solvedAt {
		case "nil":
			tkEqual(t, name+": solved_at", got["solved_at"], nil)
		case "new":
			tkEqual(t, name+": solved_at", got["solved_at"], got["updated_at"])
			if prev["solved_at"] != nil && !tkTime(t, "solved_at", got["solved_at"]).After(tkTime(t, "solved_at", prev["solved_at"])) {
				t.Fatalf("%s: solved_at %v not after previous %v", name, got["solved_at"], prev["solved_at"])
			}
		case "kept":
			if prev["solved_at"] == nil {
				t.Fatalf("%s: bad step, no solved_at to keep", name)
			}
			tkEqual(t, name+": solved_at", got["solved_at"], prev["solved_at"])
		}
		events = append(events, s.events...)
		mails = append(mails, s.mails...)
		tkEqual(t, name+": events", tkEvents(e, id), events)
		tkEqual(t, name+": mails", tkMails(e, id), mails)
		if len(s.events) > 0 {
			tkEqual(t, name+": ticket.updated data", e.EventData(id, "ticket.updated"), got)
		}
		if slices.Contains(s.events, sol) {
			tkEqual(t, name+": ticket.solved data", e.EventData(id, "ticket.solved"), got)
		}
		tkEqual(t, name+": GET", tkGet(e, id), got)
		prev = got
	}
}

func TestTicketUpdateEventsWithoutStatus(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	tk := tkCreate(e, tkBody(e.Contact("ann@example.com")))
	id := tkID(t, tk)
	steps := []struct {
		name  string
		patch map[string]any
		event bool           // records ticket.updated
		want  map[string]any // fields after the step
	}{
		{"priority", map[string]any{"priority": "high"}, true, map[string]any{"priority": "high"}},
		{"same priority", map[string]any{"priority": "high"}, false, map[string]any{"priority": "high"}},
		{"assign", map[string]any{"assignee_id": e.Member}, true, map[string]any{"assignee_id": e.Member}},
		{"same assignee", map[string]any{"assignee_id": e.Member}, false, map[string]any{"assignee_id": e.Member}},
		{"reassign", map[string]any{"assignee_id": e.Member2}, true, map[string]any{"assignee_id": e.Member2}},
		{"unassign", map[string]any{"assignee_id": nil}, true, map[string]any{"assignee_id": nil}},
		{"unassign again", map[string]any{"assignee_id": nil}, false, map[string]any{"assignee_id": nil}},
		{"tags", map[string]any{"tags": tkStrList("a", "b")}, true, map[string]any{"tags": tkStrList("a", "b")}},
		{"same tags with a repeat", map[string]any{"tags": tkStrList("a", "b", "a")}, false, map[string]any{"tags": tkStrList("a", "b")}},
		{"tags replaced", map[string]any{"tags": tkStrList("c")}, true, map[string]any{"tags": tkStrList("c")}},
		{"tags cleared", map[string]any{"tags": []any{}}, true, map[string]any{"tags": []any{}}},
		{"subject", map[string]any{"subject": "New subject"}, false, map[string]any{"subject": "New subject"}},
		{"metadata", map[string]any{"metadata": map[string]any{"x": "1"}}, false, map[string]any{"metadata": map[string]any{"x": "1"}}},
		{"metadata delete", map[string]any{"metadata": map[string]any{"x": nil}}, false, map[string]any{"metadata": map[string]any{}}},
		{"subject and priority", map[string]any{"subject": "Other", "priority": "low"}, true, map[string]any{"subject": "Other", "priority": "low"}},
		{"empty", map[string]any{}, false, map[string]any{"subject": "Other", "priority": "low"}},
		{"notify without status", map[string]any{"notify_contact": true, "priority": "urgent"}, true, map[string]any{"priority": "urgent"}},
	}
	events := tkStrs("test:ticket.created")
	prev := tk
	for _, s := range steps {
		got := tkPatch(e, id, s.patch)
		for k, v := range s.want {
			tkEqual(t, s.name+": "+k, got[k], v)
		}
		tkEqual(t, s.name+": status", got["status"], any("open"))
		if s.event {
			events = append(events, "test:ticket.updated")
		}
		tkEqual(t, s.name+": events", tkEvents(e, id), events)
		if s.event {
			tkEqual(t, s.name+": ticket.updated data", e.EventData(id, "ticket.updated"), got)
		}
		// Only status changes e-mail the contact.
		tkEqual(t, s.name+": mails", tkMails(e, id), tkStrs("ticket_created:ann@example.com"))
		tkEqual(t, s.name+": GET", tkGet(e, id), got)
		tkEqual(t, s.name+": created_at", got["created_at"], tk["created_at"])
		if len(s.patch) > 0 && !tkTime(t, "updated_at", got["updated_at"]).After(tkTime(t, "updated_at", prev["updated_at"])) {
			t.Fatalf("%s: updated_at %v not after %v", s.name, got["updated_at"], prev["updated_at"])
		}
		prev = got
	}
}

// ---------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------

// tkRawResult is a response received off the test goroutine.
type tkRawResult struct {
	status int
	body   map[string]any
	err    error
}

// tkRawPost posts body with the test key; safe to call from any goroutine.
func tkRawPost(e *webenv.Env, path string, body any) tkRawResult {
	req, err := testenv.NewRequest("POST", e.Server.URL+path, body, "Authorization", "Bearer "+e.TestKey)
	if err != nil {
		return tkRawResult{err: err}
	}
	r, err := testenv.Do(e.Server.Client(), req)
	return tkRawResult{status: r.Status, body: r.Body, err: err}
}

func TestTicketConcurrentCreates(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	cid := e.Contact("ann@example.com")
	// Writes arriving together share a transaction; a refused one among
	// them must not disturb the others (nor leave events or numbers behind),
	// and concurrent creates for one new address must share one contact.
	const n = 40
	results := make([]tkRawResult, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var body map[string]any
			switch i % 4 {
			case 0:
				body = tkBody(cid, "assignee_id", "mem_nobody") // refused
			case 1:
				body = tkBody("", "contact_id", tkOmit, "contact", map[string]any{"email": "Crowd@Example.com"})
			default:
				body = tkBody(cid, "subject", "Concurrent "+itoa(i))
			}
			results[i] = tkRawPost(e, "/v1/tickets", body)
		}()
	}
	wg.Wait()
	var created []map[string]any
	crowd := ""
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("request %d: %v", i, r.err)
		}
		if i%4 == 0 {
			if r.status != 400 {
				t.Fatalf("request %d: status %d, want 400: %v", i, r.status, r.body)
			}
			continue
		}
		if r.status != 201 {
			t.Fatalf("request %d: status %d, want 201: %v", i, r.status, r.body)
		}
		tkShape(t, r.body)
		if i%4 == 1 {
			if crowd == "" {
				crowd = r.body["contact_id"].(string)
			}
			tkEqual(t, "shared new contact", r.body["contact_id"], any(crowd))
		}
		created = append(created, r.body)
	}
	want := n - n/4
	if len(created) != want {
		t.Fatalf("%d tickets created, want %d", len(created), want)
	}
	// Numbers are 1..want, each once, and every response is what was stored.
	numbers := map[int]bool{}
	for _, tk := range created {
		numbers[tkNum(tk)] = true
		tkEqual(t, "GET of a concurrently created ticket", tkGet(e, tkID(t, tk)), tk)
		tkEqual(t, "events", tkEvents(e, tkID(t, tk)), tkStrs("test:ticket.created"))
		tkEqual(t, "ticket.created data", e.EventData(tkID(t, tk), "ticket.created"), tk)
		if len(tkMails(e, tkID(t, tk))) != 1 {
			t.Fatalf("ticket %s has mails %v, want one", tk["id"], tkMails(e, tkID(t, tk)))
		}
	}
	for i := 1; i <= want; i++ {
		if !numbers[i] {
			t.Fatalf("number %d missing; numbers %v", i, numbers)
		}
	}
	if ids := e.All(e.TestKey, "/v1/tickets", 7); len(ids) != want {
		t.Fatalf("%d tickets listed, want %d", len(ids), want)
	}
	tkEqual(t, "crowd contact events", tkEvents(e, crowd), tkStrs("test:contact.created"))
	// No event was left behind by a refused or replayed write.
	evs, err := e.DB.Read().EventsAfter(context.Background(), 0, 10000)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, ev := range evs {
		counts[ev.Type]++
	}
	tkEqual(t, "event counts", counts, map[string]int{"ticket.created": want, "contact.created": 2})
}
