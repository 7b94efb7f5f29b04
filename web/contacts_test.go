package web_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv/webenv"
)

// Shape and list helpers (cvFields, cvList, cvWalk, …) are in conversations_test.go.

var ctContactFields = map[string]cvKind{
	"id": cvString, "object": cvString, "email": cvStringOrNull, "name": cvStringOrNull, "phone": cvStringOrNull,
	"external_id": cvStringOrNull, "attributes": cvObject, "last_seen_at": cvTimeOrNull, "created_at": cvTime,
	"updated_at": cvTime,
}

// ctContact checks the shape of a contact as the API documents it.
func ctContact(t *testing.T, c map[string]any) {
	t.Helper()
	cvFields(t, "contact", c, ctContactFields)
	cvIdent(t, c, "contact", "ctc_")
}

func ctGet(t *testing.T, e *webenv.Env, id string) map[string]any {
	t.Helper()
	c := e.Test("GET", "/v1/contacts/"+id, nil).OK(t, 200)
	ctContact(t, c)
	return c
}

// ctPost upserts a contact and checks the status (201 created, 200 updated).
func ctPost(t *testing.T, e *webenv.Env, status int, body any) map[string]any {
	t.Helper()
	c := e.Test("POST", "/v1/contacts", body).OK(t, status)
	ctContact(t, c)
	return c
}

// ctSeen sets a contact's last_seen_at, as opening the widget would (the
// widget is not part of the REST API, so the row is written directly).
func ctSeen(t *testing.T, e *webenv.Env, id string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	err := e.DB.Write(ctx, func(q *storage.Q) error {
		c, err := q.Contact(ctx, chat.Test, id)
		if err != nil {
			return err
		}
		ts := chat.At(at)
		c.LastSeenAt = &ts
		var norm *string
		if c.Email != nil {
			n := strings.ToLower(*c.Email)
			norm = &n
		}
		return q.UpdateContact(ctx, c, norm)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ctCount is the number of events of a type recorded in a mode (all objects).
func ctCount(t *testing.T, e *webenv.Env, typ string) int {
	t.Helper()
	evs, err := e.DB.Read().EventsAfter(context.Background(), 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

// ---------------------------------------------------------------------------
// POST /contacts.

func TestContactCreate(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	in := map[string]any{"email": "ann@example.com", "name": "Ann Lee", "phone": "+33 6 12 34 56 78",
		"external_id": "user-1", "attributes": map[string]any{"plan": "pro", "seats": 3, "beta": true,
			"tags": []any{"a", "b"}, "company": map[string]any{"name": "ACME"}}}
	c := ctPost(t, e, 201, in)
	for _, k := range []string{"email", "name", "phone", "external_id"} {
		cvEqual(t, "contact."+k, c[k], in[k])
	}
	cvEqual(t, "attributes", c["attributes"], map[string]any{"plan": "pro", "seats": float64(3), "beta": true,
		"tags": []any{"a", "b"}, "company": map[string]any{"name": "ACME"}})
	if c["last_seen_at"] != nil {
		t.Errorf("last_seen_at %v, want null", c["last_seen_at"])
	}
	if c["created_at"] != c["updated_at"] {
		t.Errorf("created_at %v != updated_at %v on creation", c["created_at"], c["updated_at"])
	}
	id := c["id"].(string)
	cvEqual(t, "events", e.Events(id), []string{"test:contact.created"})
	cvEqual(t, "contact.created data", e.EventData(id, "contact.created"), c)
	cvEqual(t, "GET", ctGet(t, e, id), c)
	cvEqual(t, "list", cvList(t, e.Test("GET", "/v1/contacts", nil).OK(t, 200)), []map[string]any{c})

	// By external_id alone, or by e-mail alone: the other fields are null.
	x := ctPost(t, e, 201, map[string]any{"external_id": "user-2"})
	for _, k := range []string{"email", "name", "phone", "last_seen_at"} {
		if x[k] != nil {
			t.Errorf("external_id-only contact: %s = %v, want null", k, x[k])
		}
	}
	cvEqual(t, "external_id-only attributes", x["attributes"], map[string]any{})
	y := ctPost(t, e, 201, map[string]any{"email": "  bob@example.com "})
	cvEqual(t, "trimmed e-mail", y["email"], "bob@example.com")
	if y["external_id"] != nil || y["name"] != nil {
		t.Errorf("email-only contact: %v", y)
	}
	cvEqual(t, "events of x", e.Events(x["id"].(string)), []string{"test:contact.created"})
	cvEqual(t, "events of y", e.Events(y["id"].(string)), []string{"test:contact.created"})
	// Attributes given as null on creation are simply absent.
	z := ctPost(t, e, 201, map[string]any{"email": "z@example.com", "attributes": map[string]any{"gone": nil, "kept": "1"}})
	cvEqual(t, "attributes with null on create", z["attributes"], map[string]any{"kept": "1"})
}

func TestContactUpsert(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	a := ctPost(t, e, 201, map[string]any{"external_id": "u1", "email": "ann@example.com", "name": "Ann",
		"attributes": map[string]any{"plan": "free", "seats": 1, "keep": "me"}})
	id := a["id"].(string)
	created := ctCount(t, e, "contact.created")

	t.Run("by external_id: merges attributes, null deletes", func(t *testing.T) {
		got := ctPost(t, e, 200, map[string]any{"external_id": "u1", "phone": "555-0100",
			"attributes": map[string]any{"plan": "pro", "seats": nil, "color": "red"}})
		if got["id"] != id {
			t.Fatalf("updated %v, want %s", got["id"], id)
		}
		cvEqual(t, "attributes", got["attributes"], map[string]any{"plan": "pro", "keep": "me", "color": "red"})
		cvEqual(t, "email kept", got["email"], "ann@example.com")
		cvEqual(t, "name kept", got["name"], "Ann")
		cvEqual(t, "phone set", got["phone"], "555-0100")
		cvEqual(t, "created_at kept", got["created_at"], a["created_at"])
		if got["updated_at"].(string) <= a["updated_at"].(string) {
			t.Errorf("updated_at %v not after %v", got["updated_at"], a["updated_at"])
		}
		cvEqual(t, "GET", ctGet(t, e, id), got)
	})
	t.Run("by e-mail, case-insensitive", func(t *testing.T) {
		got := ctPost(t, e, 200, map[string]any{"email": "ANN@Example.COM", "name": "Ann Lee"})
		if got["id"] != id {
			t.Fatalf("updated %v, want %s", got["id"], id)
		}
		cvEqual(t, "name", got["name"], "Ann Lee")
		cvEqual(t, "external_id kept", got["external_id"], "u1")
		if !strings.EqualFold(got["email"].(string), "ann@example.com") {
			t.Errorf("email %v", got["email"])
		}
	})
	t.Run("by e-mail stored with capitals", func(t *testing.T) {
		b := ctPost(t, e, 201, map[string]any{"email": "Bob.Stone@Example.com"})
		created++
		got := ctPost(t, e, 200, map[string]any{"email": "bob.stone@example.com", "name": "Bob"})
		if got["id"] != b["id"] || got["name"] != "Bob" {
			t.Fatalf("got %v, want an update of %v", got, b["id"])
		}
	})
	t.Run("by both, same contact", func(t *testing.T) {
		got := ctPost(t, e, 200, map[string]any{"email": "ann@example.com", "external_id": "u1"})
		if got["id"] != id {
			t.Fatalf("updated %v, want %s", got["id"], id)
		}
	})
	t.Run("external_id changes the e-mail", func(t *testing.T) {
		got := ctPost(t, e, 200, map[string]any{"external_id": "u1", "email": "ann.lee@example.com"})
		if got["id"] != id || got["email"] != "ann.lee@example.com" {
			t.Fatalf("got %v", got)
		}
		// The old address is free again.
		ctPost(t, e, 201, map[string]any{"email": "ann@example.com"})
		created++
	})
	t.Run("e-mail match gains an external_id", func(t *testing.T) {
		b := ctPost(t, e, 201, map[string]any{"email": "bob@example.com"})
		created++
		got := ctPost(t, e, 200, map[string]any{"email": "bob@example.com", "external_id": "u2"})
		if got["id"] != b["id"] || got["external_id"] != "u2" {
			t.Fatalf("got %v", got)
		}
		cvEqual(t, "found by the new external_id", ctPost(t, e, 200, map[string]any{"external_id": "u2"})["id"], b["id"])
	})
	t.Run("updates record no contact.created", func(t *testing.T) {
		if n := ctCount(t, e, "contact.created"); n != created {
			t.Fatalf("%d contact.created events, want %d", n, created)
		}
		cvEqual(t, "events of the upserted contact", e.Events(id), []string{"test:contact.created"})
	})
}

func TestContactConflicts(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	a := ctPost(t, e, 201, map[string]any{"external_id": "a1", "email": "a@example.com"})
	b := ctPost(t, e, 201, map[string]any{"email": "b@example.com"})
	c := ctPost(t, e, 201, map[string]any{"external_id": "c1", "email": "c@example.com"})
	snapshot := func() []map[string]any {
		return []map[string]any{ctGet(t, e, a["id"].(string)), ctGet(t, e, b["id"].(string)), ctGet(t, e, c["id"].(string))}
	}
	before := snapshot()
	n := ctCount(t, e, "contact.created")
	for _, tc := range []struct {
		name, method, path string
		body               map[string]any
		param              string
	}{
		{"upsert: external_id and e-mail of two contacts", "POST", "/v1/contacts",
			map[string]any{"external_id": "a1", "email": "b@example.com"}, "email"},
		{"upsert: e-mail of two contacts, other case", "POST", "/v1/contacts",
			map[string]any{"external_id": "a1", "email": "B@EXAMPLE.com"}, "email"},
		{"upsert: both ids existing elsewhere", "POST", "/v1/contacts",
			map[string]any{"external_id": "c1", "email": "a@example.com"}, "email"},
		{"upsert: e-mail whose contact has another external_id", "POST", "/v1/contacts",
			map[string]any{"external_id": "new", "email": "c@example.com"}, "external_id"},
		{"PATCH to another contact's e-mail", "PATCH", "/v1/contacts/" + b["id"].(string),
			map[string]any{"email": "a@example.com"}, "email"},
		{"PATCH to another contact's e-mail, other case", "PATCH", "/v1/contacts/" + b["id"].(string),
			map[string]any{"email": "A@Example.Com", "name": "Would be lost"}, "email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Test(tc.method, tc.path, tc.body).Fails(t, 409, "resource_conflict", tc.param)
		})
	}
	cvEqual(t, "contacts after conflicts", snapshot(), before)
	if got := ctCount(t, e, "contact.created"); got != n {
		t.Fatalf("%d contact.created events, want %d", got, n)
	}
	// Changing one's own e-mail's case is not a conflict.
	got := e.Test("PATCH", "/v1/contacts/"+a["id"].(string), map[string]any{"email": "A@example.com"}).OK(t, 200)
	cvEqual(t, "email", got["email"], "A@example.com")
	// Same e-mail in the other mode is another workspace namespace.
	live := e.Live("POST", "/v1/contacts", map[string]any{"email": "a@example.com", "external_id": "a1"}).OK(t, 201)
	if live["id"] == a["id"] {
		t.Fatal("live upsert matched a test contact")
	}
}

func TestContactValidation(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	target := e.Contact("target@example.com")
	ext := ctPost(t, e, 201, map[string]any{"external_id": "x1"})["id"].(string)
	type tc struct {
		name   string
		method string
		path   string
		body   any
		code   string
		param  string
	}
	post := func(name string, body any, code, param string) tc {
		return tc{name, "POST", "/v1/contacts", body, code, param}
	}
	patch := func(name string, body any, code, param string) tc {
		return tc{name, "PATCH", "/v1/contacts/" + target, body, code, param}
	}
	var cases []tc
	cases = append(cases,
		post("no body", nil, "parameter_missing", "email"),
		post("empty object", map[string]any{}, "parameter_missing", "email"),
		post("name only", map[string]any{"name": "Ann"}, "parameter_missing", "email"),
		post("both null", map[string]any{"email": nil, "external_id": nil}, "parameter_missing", "email"),
		post("empty external_id", map[string]any{"external_id": ""}, "parameter_invalid", "external_id"),
		post("external_id a number", map[string]any{"external_id": 42}, "parameter_invalid", "external_id"),
		post("unknown field", map[string]any{"email": "n@example.com", "company": "ACME"}, "parameter_unknown", "company"),
		post("id is not writable", map[string]any{"email": "n@example.com", "id": "ctc_x"}, "parameter_unknown", "id"),
		post("last_seen_at is not writable", map[string]any{"email": "n@example.com", "last_seen_at": "2026-01-01T00:00:00Z"}, "parameter_unknown", "last_seen_at"),
		post("body an array", "[]", "body_invalid", ""),
		post("body a string", `"ann@example.com"`, "body_invalid", ""),
		post("body null", "null", "body_invalid", ""),
		post("body not JSON", "email=ann@example.com", "body_invalid", ""),
		patch("external_id is not writable", map[string]any{"external_id": "x2"}, "parameter_unknown", "external_id"),
		patch("unknown field", map[string]any{"nickname": "x"}, "parameter_unknown", "nickname"),
		patch("body an array", "[1]", "body_invalid", ""),
		patch("body a number", "3", "body_invalid", ""),
		patch("e-mail null without external_id", map[string]any{"email": nil}, "parameter_invalid", "email"),
	)
	for _, bad := range []string{"", "nope", "ann@", "@example.com", "ann example@example.com",
		"Ann <ann@example.com>", "ann@@example.com", "ann@example.com, bob@example.com"} {
		cases = append(cases,
			post(fmt.Sprintf("invalid e-mail %q", bad), map[string]any{"email": bad, "external_id": "z"}, "parameter_invalid", "email"),
			patch(fmt.Sprintf("invalid e-mail %q", bad), map[string]any{"email": bad}, "parameter_invalid", "email"))
	}
	for _, m := range []func(string, any, string, string) tc{post, patch} {
		cases = append(cases,
			m("email a number", map[string]any{"email": 5}, "parameter_invalid", "email"),
			m("name a number", map[string]any{"email": "n@example.com", "name": 5}, "parameter_invalid", "name"),
			m("phone an array", map[string]any{"email": "n@example.com", "phone": []any{"1"}}, "parameter_invalid", "phone"),
			m("attributes a string", map[string]any{"email": "n@example.com", "attributes": "x"}, "parameter_invalid", "attributes"),
			m("attributes an array", map[string]any{"email": "n@example.com", "attributes": []any{}}, "parameter_invalid", "attributes"),
			m("attributes null", map[string]any{"email": "n@example.com", "attributes": nil}, "parameter_invalid", "attributes"),
			m("attribute with an empty name", map[string]any{"email": "n@example.com", "attributes": map[string]any{"": 1}}, "parameter_invalid", "attributes"),
		)
	}
	before := ctGet(t, e, target)
	list := e.All(e.TestKey, "/v1/contacts", 100)
	for _, c := range cases {
		t.Run(c.method+" "+c.name, func(t *testing.T) {
			e.Test(c.method, c.path, c.body).Fails(t, 400, c.code, c.param)
		})
	}
	cvEqual(t, "contact after refusals", ctGet(t, e, target), before)
	cvEqual(t, "contacts after refusals", e.All(e.TestKey, "/v1/contacts", 100), list)

	// Valid but unusual addresses are accepted.
	for _, ok := range []string{"first.last+tag@sub.example.co.uk", "o'brien@example.ie", "UPPER@EXAMPLE.COM"} {
		c := ctPost(t, e, 201, map[string]any{"email": ok})
		cvEqual(t, "email", c["email"], ok)
	}
	// A contact with an external_id may drop its e-mail.
	got := e.Test("PATCH", "/v1/contacts/"+ext, map[string]any{"email": "x1@example.com"}).OK(t, 200)
	cvEqual(t, "email set", got["email"], "x1@example.com")
	got = e.Test("PATCH", "/v1/contacts/"+ext, map[string]any{"email": nil}).OK(t, 200)
	cvEqual(t, "email cleared", got["email"], nil)
}

// ---------------------------------------------------------------------------
// PATCH /contacts/{id}.

func TestContactPatch(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	c := ctPost(t, e, 201, map[string]any{"email": "p@example.com", "name": "Pat", "phone": "1",
		"attributes": map[string]any{"a": 1, "b": "two"}})
	id := c["id"].(string)
	path := "/v1/contacts/" + id

	got := e.Test("PATCH", path, map[string]any{"name": "Pat Smith"}).OK(t, 200)
	ctContact(t, got)
	cvEqual(t, "name", got["name"], "Pat Smith")
	for _, k := range []string{"email", "phone", "external_id", "attributes", "created_at", "last_seen_at"} {
		cvEqual(t, "unchanged "+k, got[k], c[k])
	}
	if got["updated_at"].(string) <= c["updated_at"].(string) {
		t.Errorf("updated_at %v not after %v", got["updated_at"], c["updated_at"])
	}
	got = e.Test("PATCH", path, map[string]any{"attributes": map[string]any{"a": nil, "c": []any{1}}, "phone": nil}).OK(t, 200)
	cvEqual(t, "merged attributes", got["attributes"], map[string]any{"b": "two", "c": []any{float64(1)}})
	cvEqual(t, "phone removed", got["phone"], nil)
	got = e.Test("PATCH", path, map[string]any{"email": "Pat@New.example.com"}).OK(t, 200)
	cvEqual(t, "email", got["email"], "Pat@New.example.com")
	cvEqual(t, "GET", ctGet(t, e, id), got)
	// The old address is free, the new one is found case-insensitively.
	cvEqual(t, "filter by new e-mail", e.All(e.TestKey, "/v1/contacts?email=pat@new.example.com", 10), []string{id})
	cvEqual(t, "old e-mail gone", len(e.All(e.TestKey, "/v1/contacts?email=p@example.com", 10)), 0)
	// Empty PATCH changes none of the fields.
	for _, body := range []any{nil, map[string]any{}} {
		again := e.Test("PATCH", path, body).OK(t, 200)
		for _, k := range []string{"email", "name", "phone", "external_id", "attributes"} {
			cvEqual(t, "empty PATCH "+k, again[k], got[k])
		}
	}
	// PATCH records no event.
	cvEqual(t, "events", e.Events(id), []string{"test:contact.created"})
}

// ---------------------------------------------------------------------------
// GET /contacts.

func TestContactListFilters(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	a := ctPost(t, e, 201, map[string]any{"email": "ann@example.com", "external_id": "U1"})["id"].(string)
	b := ctPost(t, e, 201, map[string]any{"email": "ann@example.co", "external_id": "u1"})["id"].(string)
	c := ctPost(t, e, 201, map[string]any{"email": "xann@example.com"})["id"].(string)
	e.Live("POST", "/v1/contacts", map[string]any{"email": "ann@example.com", "external_id": "U1"}).OK(t, 201)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{c, b, a}},
		{"?email=ann@example.com", []string{a}},
		{"?email=ANN@EXAMPLE.COM", []string{a}},
		{"?email=" + url.QueryEscape("Ann@Example.Co"), []string{b}},
		{"?email=nobody@example.com", nil},
		{"?email=example.com", nil},
		{"?external_id=U1", []string{a}},
		{"?external_id=u1", []string{b}},
		{"?external_id=U", nil},
		{"?email=ann@example.com&external_id=U1", []string{a}},
		{"?email=ann@example.com&external_id=u1", nil},
	} {
		t.Run(tc.query, func(t *testing.T) {
			objs := cvList(t, e.Test("GET", "/v1/contacts"+tc.query, nil).OK(t, 200))
			for _, o := range objs {
				ctContact(t, o)
			}
			if got := cvIDs(objs); len(got) != 0 || len(tc.want) != 0 {
				cvEqual(t, "ids", got, tc.want)
			}
		})
	}
	e.Test("GET", "/v1/contacts?name=Ann", nil).Fails(t, 400, "parameter_unknown", "name")
	e.Test("GET", "/v1/contacts?email=a@example.com&email=b@example.com", nil).Fails(t, 400, "parameter_invalid", "email")
	cvListParams(t, e, "/v1/contacts")
}

func TestContactOrdering(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ids := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d"} {
		ids[n] = e.Contact(n + "@example.com")
	}
	order := func() []string {
		t.Helper()
		got := e.All(e.TestKey, "/v1/contacts", 100)
		for _, limit := range []int{1, 2, 3} { // every row in turn is a page's last
			cvEqual(t, fmt.Sprintf("walk with limit %d", limit), e.All(e.TestKey, "/v1/contacts", limit), got)
		}
		names := make([]string, len(got))
		for i, id := range got {
			for n, x := range ids {
				if x == id {
					names[i] = n
				}
			}
		}
		return names
	}
	cvEqual(t, "by updated_at", order(), []string{"d", "c", "b", "a"})
	// An update makes a contact more recently active.
	e.Test("PATCH", "/v1/contacts/"+ids["b"], map[string]any{"name": "B"}).OK(t, 200)
	cvEqual(t, "after PATCH b", order(), []string{"b", "d", "c", "a"})
	ctPost(t, e, 200, map[string]any{"email": "A@example.com", "name": "A"})
	cvEqual(t, "after upsert a", order(), []string{"a", "b", "d", "c"})
	// last_seen_at, where set, wins over updated_at: c was seen after every
	// update, a was last seen long ago although updated recently.
	now := time.Date(2026, 10, 1, 13, 0, 0, 0, time.UTC) // after every fake-clock stamp
	ctSeen(t, e, ids["c"], now)
	ctSeen(t, e, ids["a"], now.Add(-24*time.Hour))
	cvEqual(t, "with last_seen_at", order(), []string{"c", "b", "d", "a"})
	got := ctGet(t, e, ids["c"])
	cvEqual(t, "last_seen_at", got["last_seen_at"], "2026-10-01T13:00:00.000Z")
	// Updating a seen contact does not move it: its activity is last_seen_at.
	e.Test("PATCH", "/v1/contacts/"+ids["a"], map[string]any{"name": "Still old"}).OK(t, 200)
	cvEqual(t, "after PATCH of a seen contact", order(), []string{"c", "b", "d", "a"})
	cvEqual(t, "last_seen_at kept by PATCH", ctGet(t, e, ids["a"])["last_seen_at"], "2026-09-30T13:00:00.000Z")
}

func TestContactPaginationWithInserts(t *testing.T) {
	t.Parallel()
	for _, frozen := range []bool{false, true} {
		t.Run(fmt.Sprintf("frozen=%v", frozen), func(t *testing.T) {
			e := webenv.New(t)
			if frozen {
				e.Clock.SetStep(0)
			}
			var made []string
			for i := 0; i < 22; i++ {
				made = append(made, e.Contact(fmt.Sprintf("p%02d@example.com", i)))
			}
			if frozen {
				if a, b := ctGet(t, e, made[0]), ctGet(t, e, made[21]); a["updated_at"] != b["updated_at"] {
					t.Fatalf("clock not frozen: %v vs %v", a["updated_at"], b["updated_at"])
				}
			}
			want := slices.Clone(made)
			slices.Reverse(want) // most recently active first
			b := e.Test("GET", "/v1/contacts", nil).OK(t, 200)
			cvEqual(t, "default page of 20", cvIDs(cvList(t, b)), want[:20])
			if b["has_more"] != true {
				t.Fatal("default page: has_more false")
			}
			for _, limit := range []int{1, 4, 22, 100} {
				cvEqual(t, fmt.Sprintf("walk limit %d", limit), cvWalk(t, e, e.TestKey, "/v1/contacts", limit, nil), want)
			}
			// Contacts created while a client pages are more recently active
			// than the walk's start: the walk sees exactly the rows that were there.
			var added []string
			got := cvWalk(t, e, e.TestKey, "/v1/contacts", 5, func() {
				added = append(added, e.Contact(fmt.Sprintf("new%02d@example.com", len(added))))
				e.Live("POST", "/v1/contacts", map[string]any{"email": fmt.Sprintf("live%02d@example.com", len(added))}).OK(t, 201)
			})
			cvEqual(t, "walk with inserts", got, want)
			if len(added) != 4 {
				t.Fatalf("%d inserts during the walk, want 4", len(added))
			}
			all := e.All(e.TestKey, "/v1/contacts", 7)
			slices.Reverse(added)
			cvEqual(t, "final list", all, append(added, want...))
			if frozen { // ties on activity are broken by id, newest id first
				for i := 1; i < len(all); i++ {
					if all[i-1] <= all[i] {
						t.Fatalf("ids not descending at %d: %s, %s", i, all[i-1], all[i])
					}
				}
			}
		})
	}
}

// ---------------------------------------------------------------------------
// DELETE /contacts/{id}, not found, modes.

func TestContactDelete(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctc := e.Contact("erase.me@example.com")
	keep := e.Contact("keep@example.com")
	conv := cvStart(t, e, chat.Test, e.Site, ctc, "Hello, I am Erase Me.")
	other := cvStart(t, e, chat.Test, e.Site, keep, "Hello")
	cvSay(t, e, conv, "Hi!")
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Refund", "contact_id": ctc}).OK(t, 201)["id"].(string)
	if len(e.Mails(tkt)) == 0 {
		t.Fatal("setup: no confirmation e-mail queued")
	}
	cvEqual(t, "conversations of the contact", e.All(e.TestKey, "/v1/conversations?contact_id="+ctc, 10), []string{conv})

	// Another mode cannot delete it.
	e.Live("DELETE", "/v1/contacts/"+ctc, nil).Fails(t, 404, "resource_missing", "id")
	ctGet(t, e, ctc)

	d := e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	cvEqual(t, "deleted envelope", d, map[string]any{"id": ctc, "object": "contact", "deleted": true})

	e.Test("GET", "/v1/contacts/"+ctc, nil).Fails(t, 404, "resource_missing", "id")
	e.Test("PATCH", "/v1/contacts/"+ctc, map[string]any{"name": "x"}).Fails(t, 404, "resource_missing", "id")
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).Fails(t, 404, "resource_missing", "id")
	cvEqual(t, "list after delete", e.All(e.TestKey, "/v1/contacts", 10), []string{keep})
	cvEqual(t, "email filter after delete", len(e.All(e.TestKey, "/v1/contacts?email=erase.me@example.com", 10)), 0)

	// The conversation stays, unlinked; the contact's message no longer names them.
	c := cvGet(t, e, conv)
	if c["contact_id"] != nil || c["message_count"] != float64(2) {
		t.Fatalf("conversation after erasure: %v", c)
	}
	msgs := cvMessages(t, e, conv)
	cvEqual(t, "erased author", msgs[0]["author"], map[string]any{"type": "contact", "id": nil, "name": nil})
	cvEqual(t, "agent author kept", msgs[1]["author"].(map[string]any)["id"], e.Member)
	if n := len(e.All(e.TestKey, "/v1/conversations?contact_id="+ctc, 10)); n != 0 {
		t.Fatalf("%d conversations still filed under the erased contact", n)
	}
	cvEqual(t, "other contact's conversation", cvGet(t, e, other)["contact_id"], keep)
	// The ticket stays; e-mails not yet sent to the contact are dropped.
	e.Test("GET", "/v1/tickets/"+tkt, nil).OK(t, 200)
	if m := e.Mails(tkt); len(m) != 0 {
		t.Fatalf("mails still queued for the erased contact: %v", m)
	}
	// The address can be used again, by a new contact.
	again := ctPost(t, e, 201, map[string]any{"email": "erase.me@example.com"})
	if again["id"] == ctc {
		t.Fatal("deleted contact came back")
	}
	// An id of another kind is no contact.
	e.Test("DELETE", "/v1/contacts/"+conv, nil).Fails(t, 404, "resource_missing", "id")
}

func TestContactNotFoundAndModes(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctc := e.Contact("test-mode@example.com")
	before := ctGet(t, e, ctc)
	for _, missing := range []string{"ctc_doesnotexist", "nope"} {
		for _, c := range []struct {
			method string
			body   any
		}{{"GET", nil}, {"PATCH", map[string]any{"name": "x"}}, {"DELETE", nil}} {
			e.Test(c.method, "/v1/contacts/"+missing, c.body).Fails(t, 404, "resource_missing", "id")
		}
	}
	// A test-mode contact does not exist for the live key.
	for _, c := range []struct {
		method string
		body   any
	}{{"GET", nil}, {"PATCH", map[string]any{"name": "x"}}, {"DELETE", nil}} {
		e.Live(c.method, "/v1/contacts/"+ctc, c.body).Fails(t, 404, "resource_missing", "id")
	}
	if n := len(e.All(e.LiveKey, "/v1/contacts", 10)); n != 0 {
		t.Fatalf("live list has %d contacts", n)
	}
	if n := len(e.All(e.LiveKey, "/v1/contacts?email=test-mode@example.com", 10)); n != 0 {
		t.Fatalf("live e-mail filter found %d contacts", n)
	}
	cvEqual(t, "test contact after live requests", ctGet(t, e, ctc), before)
	// The same address in live mode is a new contact, with a live event.
	live := e.Live("POST", "/v1/contacts", map[string]any{"email": "test-mode@example.com"}).OK(t, 201)
	ctContact(t, live)
	lid := live["id"].(string)
	cvEqual(t, "live events", e.Events(lid), []string{"live:contact.created"})
	e.Test("GET", "/v1/contacts/"+lid, nil).Fails(t, 404, "resource_missing", "id")
	cvEqual(t, "live list", e.All(e.LiveKey, "/v1/contacts", 10), []string{lid})
	cvEqual(t, "test list", e.All(e.TestKey, "/v1/contacts", 10), []string{ctc})
	// Deleting the live contact leaves the test one alone.
	e.Live("DELETE", "/v1/contacts/"+lid, nil).OK(t, 200)
	cvEqual(t, "test list after live delete", e.All(e.TestKey, "/v1/contacts", 10), []string{ctc})
}

func TestContactUnknownQueryParams(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctc := e.Contact("q@example.com")
	before := ctGet(t, e, ctc)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/v1/contacts", map[string]any{"email": "new@example.com"}},
		{"GET", "/v1/contacts/" + ctc, nil},
		{"PATCH", "/v1/contacts/" + ctc, map[string]any{"name": "x"}},
		{"DELETE", "/v1/contacts/" + ctc, nil},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			e.Test(c.method, c.path+"?dry_run=true", c.body).Fails(t, 400, "parameter_unknown", "dry_run")
		})
	}
	cvEqual(t, "contact after refused requests", ctGet(t, e, ctc), before)
	cvEqual(t, "contacts after refused requests", e.All(e.TestKey, "/v1/contacts", 10), []string{ctc})
}
