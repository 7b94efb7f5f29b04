package web_test

import (
	"net/http"
	"testing"
)

func TestHarness(t *testing.T) {
	e := newEnv(t)
	e.test("GET", "/v1/contacts", nil).ok(t, 200)
	e.do("GET", "/v1/contacts", "", nil).fails(t, 401, "api_key_missing", "")
	e.do("GET", "/v1/contacts", "csk_test_nope", nil).fails(t, 401, "api_key_invalid", "")
	conv := e.conversation("test", "Hello there. I need help")
	if got := e.events(conv); len(got) != 1 || got[0] != "test:conversation.created" {
		t.Fatalf("events %v", got)
	}
}

// A key sent without the Bearer scheme is refused, with a message that says
// how to send it, rather than guessed at.
func TestAuthorizationNeedsBearer(t *testing.T) {
	e := newEnv(t)
	for _, h := range []string{e.testKey, "Basic " + e.testKey, "Token " + e.testKey} {
		req, _ := http.NewRequest("GET", e.srv.URL+"/v1/contacts", nil)
		req.Header.Set("Authorization", h)
		e.send(req).fails(t, 401, "api_key_invalid", "")
	}
	req, _ := http.NewRequest("GET", e.srv.URL+"/v1/contacts", nil)
	req.Header.Set("Authorization", "bearer "+e.testKey)
	e.send(req).ok(t, 200)
}
