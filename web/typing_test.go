package web_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestTypingBothWays checks the typing indicators over the live streams:
// the visitor typing reaches the dashboard's stream of that conversation,
// and a member typing reaches the visitor's widget stream.
func TestTypingBothWays(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{noWorker: true})
	base := dashServer(t, e)
	token := e.session(true) // the dashboard starts on test data
	conv := e.say(token, "Hello?")["message"].(map[string]any)["conversation_id"].(string)
	d := newDash(t, base)
	d.signIn("agent@example.com", dashPassword)

	widget := e.openStream(token)
	dash := e.openStreamAt(base+"/app/events?conversation="+url.QueryEscape(conv), "Cookie", "chatsvc_session="+d.cookie)
	isTyping := func(ev sseEvent) bool { return ev.event == "typing" && ev.data["conversation_id"] == conv }

	if r := e.wdo("POST", "/widget/v1/typing", token, map[string]any{}); r.status != http.StatusNoContent {
		t.Fatalf("visitor typing: status %d", r.status)
	}
	if ev := dash.next("the visitor typing", isTyping); ev.data["seconds"] != float64(5) {
		t.Errorf("typing event %v, want 5 seconds", ev.data)
	}

	d.post("/app/conversations/"+conv+"/typing", nil).must(t, http.StatusNoContent)
	widget.next("the agent typing", isTyping)

	d.post("/app/conversations/conv_missing/typing", nil).must(t, http.StatusNotFound)
	e.wdo("POST", "/widget/v1/typing", token, map[string]any{"typing": true}).fails(t, 400, "parameter_unknown", "typing")
}
