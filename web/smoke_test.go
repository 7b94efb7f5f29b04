package web_test

import (
	"chatsvc/testenv/webenv"
	"net/http"
	"strings"
	"testing"
)

func TestHarness(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	e.Test("GET", "/v1/contacts", nil).OK(t, 200)
	e.Do("GET", "/v1/contacts", "", nil).Fails(t, 401, "api_key_missing", "")
	e.Do("GET", "/v1/contacts", "csk_test_nope", nil).Fails(t, 401, "api_key_invalid", "")
	conv := e.Conversation("test", "Hello there. I need help")
	if got := e.Events(conv); len(got) != 1 || got[0] != "test:conversation.created" {
		t.Fatalf("events %v", got)
	}
}

// A key sent without the Bearer scheme is refused, with a message that says
// how to send it, rather than guessed at.
func TestAuthorizationNeedsBearer(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	for _, h := range []string{e.TestKey, "Basic " + e.TestKey, "Token " + e.TestKey} {
		req, _ := http.NewRequest("GET", e.Server.URL+"/v1/contacts", nil)
		req.Header.Set("Authorization", h)
		e.Send(req).Fails(t, 401, "api_key_invalid", "")
	}
	req, _ := http.NewRequest("GET", e.Server.URL+"/v1/contacts", nil)
	req.Header.Set("Authorization", "bearer "+e.TestKey)
	e.Send(req).OK(t, 200)
}

// A body that is not a JSON object is answered with what is wrong and
// where, and with the Content-Type hint only when the header is missing.
func TestMalformedBodySaysWhereAndWhat(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	for _, c := range []struct {
		body, contentType, want string
		hint                    bool
	}{
		{"{\n  \"email\": \"ann@example.com\",\n  \"name\": Ann\n}", "application/json",
			"not valid JSON: unexpected 'A' where a value should start, at line 3, column 11.", false},
		{`{"email": "ann@example.com"`, "application/json", "the body ends before the JSON is complete, at line 1, column 28.", false},
		{`{"email" "ann@example.com"}`, "application/json", "unexpected '\"' after a field name, where a colon should follow, at line 1, column 10.", false},
		{`{"a": 1 "b": 2}`, "application/json", "unexpected '\"' after a field, where a comma or } should follow, at line 1, column 9.", false},
		{`["ann@example.com"]`, "application/json; charset=utf-8", "must be a JSON object, not an array.", false},
		{"email=ann@example.com", "application/x-www-form-urlencoded", "at line 1, column 1.", true},
	} {
		req, _ := http.NewRequest("POST", e.Server.URL+"/v1/contacts", strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+e.TestKey)
		req.Header.Set("Content-Type", c.contentType)
		r := e.Send(req)
		r.Fails(t, 400, "body_invalid", "")
		msg := r.Body["error"].(map[string]any)["message"].(string)
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "Content-Type") != c.hint {
			t.Errorf("body %q: message %q, want it to hold %q (Content-Type hint: %v)", c.body, msg, c.want, c.hint)
		}
	}
}

// A deletion takes nothing but its path: a body other than an empty object
// is refused as any request's would be, and nothing is deleted.
func TestDeleteTakesNoBody(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	id := e.Test("POST", "/v1/contacts", map[string]any{"email": "ann@example.com"}).OK(t, 201)["id"].(string)
	e.Test("DELETE", "/v1/contacts/"+id, map[string]any{"force": true}).Fails(t, 400, "parameter_unknown", "force")
	e.Test("DELETE", "/v1/contacts/"+id, `{"force": tru`).Fails(t, 400, "body_invalid", "")
	e.Test("GET", "/v1/contacts/"+id, nil).OK(t, 200)
	e.Test("DELETE", "/v1/contacts/"+id, map[string]any{}).OK(t, 200)
	e.Test("GET", "/v1/contacts/"+id, nil).Fails(t, 404, "resource_missing", "id")
}
