package web_test

import (
	"chatsvc/testenv/webenv"
	"net/http"
	"net/url"
	"testing"
)

// TestTypingBothWays checks the typing indicators over the live streams:
// the visitor typing reaches the dashboard's stream of that conversation,
// and a member typing reaches the visitor's widget stream.
func TestTypingBothWays(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{NoWorker: true})
	base := dashServer(t, e)
	token := e.Session(true) // the dashboard starts on test data
	conv := e.Say(token, "Hello?")["message"].(map[string]any)["conversation_id"].(string)
	d := newDash(t, base)
	d.signIn("agent@example.com", webenv.DashPassword)

	widget := e.OpenStream(token)
	dash := e.OpenStreamAt(base+"/app/events?conversation="+url.QueryEscape(conv), "Cookie", "chatsvc_session="+d.cookie)
	isTyping := func(ev webenv.SSEEvent) bool { return ev.Event == "typing" && ev.Data["conversation_id"] == conv }

	if r := e.WidgetDo("POST", "/widget/v1/typing", token, map[string]any{}); r.Status != http.StatusNoContent {
		t.Fatalf("visitor typing: status %d", r.Status)
	}
	if ev := dash.Next("the visitor typing", isTyping); ev.Data["seconds"] != float64(5) {
		t.Errorf("typing event %v, want 5 seconds", ev.Data)
	}

	d.post("/app/conversations/"+conv+"/typing", nil).must(t, http.StatusNoContent)
	widget.Next("the agent typing", isTyping)

	d.post("/app/conversations/conv_missing/typing", nil).must(t, http.StatusNotFound)
	e.WidgetDo("POST", "/widget/v1/typing", token, map[string]any{"typing": true}).Fails(t, 400, "parameter_unknown", "typing")
}
