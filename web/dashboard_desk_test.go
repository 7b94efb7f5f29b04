package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"chatsvc/chat"
	"chatsvc/testenv/webenv"
)

// TestDashboardDeskViews checks the inbox's views and counts, the one-click
// assignment from the inbox, and the values canned replies are filled with.
func TestDashboardDeskViews(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	mine := e.Conversation(chat.Test, "Do you ship to Canada?")
	other := e.Conversation(chat.Test, "Where is my invoice?")
	e.Test("PATCH", cvPath(other), map[string]any{"assignee_id": e.Member2}).OK(t, 200)
	e.Conversation(chat.Test, "Another question")

	page := d.get("/app/").must(t, http.StatusOK)
	for _, want := range []string{`id="count-mine">0<`, `id="count-unassigned">2<`, `id="count-all">3<`, "Anonymous visitor", "Other Agent"} {
		if !strings.Contains(page, want) {
			t.Errorf("inbox lacks %s", want)
		}
	}
	r := d.post("/app/conversations/"+mine+"/assign", url.Values{"assignee_id": {"me"}, "from": {"inbox"}})
	if r.status != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), "/app/?") {
		t.Fatalf("assign from the inbox: %d %s", r.status, r.header.Get("Location"))
	}
	page = d.get("/app/?view=mine").must(t, http.StatusOK)
	if !strings.Contains(page, `id="count-mine">1<`) || !strings.Contains(page, mine) || strings.Contains(page, other) {
		t.Errorf("the Mine view:\n%s", page)
	}
	page = d.get("/app/?view=unassigned").must(t, http.StatusOK)
	if strings.Contains(page, mine) || strings.Contains(page, other) {
		t.Errorf("the Unassigned view shows assigned conversations")
	}

	// The conversation's ticket number and the member's name fill canned replies.
	d.post("/app/conversations/"+mine+"/ticket", url.Values{"subject": {"Shipping"}, "email": {"v@example.com"}})
	page = d.get("/app/conversations/"+mine).must(t, http.StatusOK)
	if !strings.Contains(page, `data-ticket-number="1"`) || !strings.Contains(page, `data-agent-name="Agent Smith"`) {
		t.Errorf("canned reply values missing")
	}
}
