package web_test

import (
	"testing"
)

// The visitor receives the team's attachments as signed download URLs.
func TestVisitorSeesAgentAttachments(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1<<20)
	fs := newFileServer(t, 1<<20)
	tok := e.Session(true)
	e.Say(tok, "Can you send me the order notes?")
	list := e.Test("GET", "/v1/conversations", nil).OK(t, 200)["data"].([]any)
	conv := list[0].(map[string]any)["id"].(string)
	e.Test("POST", "/v1/conversations/"+conv+"/messages", map[string]any{"body": "Here they are", "author_id": e.Member,
		"attachments": []any{map[string]any{"url": fs.URL + "/notes.txt", "name": "notes.txt"}}}).OK(t, 201)

	msgs := e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	atts := last["attachments"].([]any)
	if len(atts) != 1 {
		t.Fatalf("the visitor sees %d attachments, want 1: %v", len(atts), last)
	}
	a := atts[0].(map[string]any)
	if a["name"] != "notes.txt" || a["size"] != float64(len("Order 42: refund approved.\n")) {
		t.Fatalf("attachment %v", a)
	}
	if got := string(body(t, fetch(e, a["url"].(string)))); got != "Order 42: refund approved.\n" {
		t.Fatalf("downloaded %q", got)
	}
}
