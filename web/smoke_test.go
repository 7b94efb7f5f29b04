package web_test

import "testing"

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
