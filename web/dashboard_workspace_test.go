package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// TestDashboardConversationPanel checks the conversation's page in the
// desk: the list beside it with the open row marked, the visitor's rating
// and comment, the contact's previous conversations, messages of one
// author in one minute under one avatar; a reply from the desk assigns an
// unassigned conversation to the replier.
func TestDashboardConversationPanel(t *testing.T) {
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	ctx := context.Background()

	// A visitor rates a conversation the team closed, then writes again twice.
	token := e.Session(true)
	e.Say(token, "Where is my parcel?")
	first := e.All(e.TestKey, "/v1/conversations", 1)[0]
	e.Test("POST", "/v1/conversations/"+first+"/close", nil).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/rating", token, map[string]any{"score": 4, "comment": "Quick and kind."}).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/identify", token, map[string]any{"email": "ada@example.com"}).OK(t, 200)
	e.Say(token, "It came, thanks.")
	convs := e.All(e.TestKey, "/v1/conversations", 2)
	second := convs[0]
	if second == first {
		second = convs[1]
	}
	e.Test("POST", "/v1/conversations/"+second+"/handoff", nil).OK(t, 200)

	page := d.get("/app/conversations/"+first).must(t, http.StatusOK)
	for _, want := range []string{`id="rating"`, "Quick and kind.", `aria-label="4 out of 5"`, `id="list-pane"`,
		`data-id="` + first + `" aria-current="true"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the rated conversation's page lacks %s", want)
		}
	}
	page = d.get("/app/conversations/"+second).must(t, http.StatusOK)
	if !strings.Contains(page, `id="previous"`) || !strings.Contains(page, `href="/app/conversations/`+first+`"`) {
		t.Errorf("the contact's previous conversation is not listed:\n%s", page)
	}
	if !strings.Contains(page, `<h1 id="conv-title">ada@example.com</h1>`) {
		t.Errorf("the conversation is not titled by its contact")
	}

	// Two agent messages in one minute: one group, one avatar.
	for _, body := range []string{"Glad to hear it.", "Anything else?"} {
		if _, err := e.Svc.PostAgentMessage(ctx, chat.Test, second, app.AgentMessage{Body: app.Value(body), AuthorID: app.Value(e.Member2)}); err != nil {
			t.Fatal(err)
		}
	}
	page = d.get("/app/conversations/"+second).must(t, http.StatusOK)
	if n := strings.Count(page, `<li class="msg author-agent">`); n != 1 {
		t.Errorf("two messages of one agent in one minute make %d groups, want 1", n)
	}

	// A reply from the desk to a conversation nobody has makes it the replier's.
	c, err := e.Svc.Conversation(ctx, chat.Test, second)
	if err != nil || c.AssigneeID != nil {
		t.Fatalf("before the reply: %+v (%v)", c, err)
	}
	d.post("/app/conversations/"+second+"/reply", url.Values{"body": {"We're here if you need us."}}).must(t, http.StatusSeeOther)
	if c, err = e.Svc.Conversation(ctx, chat.Test, second); err != nil || c.AssigneeID == nil || *c.AssigneeID != e.Member {
		t.Fatalf("after the reply the conversation is assigned to %v (%v), want the replier", c.AssigneeID, err)
	}
}

// TestDashboardContactsByWords checks that contacts are found by a word of
// their name or address when nothing matches exactly, that a contact
// without a name is listed by its address, and that an error page names no
// "Field: id".
func TestDashboardContactsByWords(t *testing.T) {
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	e.Test("POST", "/v1/contacts", map[string]any{"email": "ada@example.com", "name": "Ada Lovelace"}).OK(t, 201)
	noName := e.Contact("grace@example.com")
	e.SearchIndexed()

	list := d.get("/app/contacts").must(t, http.StatusOK)
	if !strings.Contains(list, `href="/app/contacts/`+noName+`">grace@example.com</a>`) {
		t.Errorf("a contact without a name is not listed by its address:\n%s", list)
	}
	found := d.get("/app/contacts?q=lovelace").must(t, http.StatusOK)
	if !strings.Contains(found, "Ada Lovelace") || strings.Contains(found, "grace@example.com") {
		t.Errorf("searching a word of the name:\n%s", found)
	}
	exact := d.get("/app/contacts?q=grace@example.com").must(t, http.StatusOK)
	if !strings.Contains(exact, "grace@example.com") || strings.Contains(exact, "Ada Lovelace") {
		t.Errorf("searching an exact address:\n%s", exact)
	}
	missing := d.get("/app/conversations/conv_nothere").must(t, http.StatusNotFound)
	if strings.Contains(missing, "Field:") || strings.Contains(missing, "<code>id</code>") {
		t.Errorf("the not-found page names the field id:\n%s", missing)
	}
}

// TestDashboardOperations checks the owners' Operations page: readiness
// and the replica's lag, last sync and last error as /readyz knows them,
// or a word that none is configured; an agent is refused.
func TestDashboardOperations(t *testing.T) {
	e := webenv.New(t)
	synced := time.Date(2026, 10, 1, 11, 59, 30, 0, time.UTC)
	base := dashServerWith(t, e, web.Options{PublicURL: webenv.PublicURL, Replica: func() web.ReplicaStatus {
		return web.ReplicaStatus{LastSync: synced, Lag: 3 * time.Second, Err: "s3: access denied"}
	}})
	owner := newDash(t, base)
	owner.signIn("agent@example.com", webenv.DashPassword)
	page := owner.get("/app/operations").must(t, http.StatusOK)
	for _, want := range []string{"<strong>Ready</strong>", `<dd id="replica-lag">3s</dd>`, "2026-10-01 11:59:30 UTC", "s3: access denied",
		`href="/app/operations"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the Operations page lacks %s:\n%s", want, page)
		}
	}
	plain := newDash(t, dashServer(t, webenv.New(t)))
	plain.signIn("agent@example.com", webenv.DashPassword)
	if page := plain.get("/app/operations").must(t, http.StatusOK); !strings.Contains(page, "No replica is configured") {
		t.Errorf("without a replica:\n%s", page)
	}

	if _, err := e.Svc.SetMemberPassword(t.Context(), "other@example.com", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	agent := newDash(t, base)
	agent.signIn("other@example.com", webenv.DashPassword)
	agent.get("/app/operations").must(t, http.StatusForbidden)
	if b := agent.get("/app/").must(t, http.StatusOK); strings.Contains(b, `href="/app/operations"`) {
		t.Error("an agent's navigation offers the Operations page")
	}
}

// TestDashboardAssignFromTheList checks that assigning from the desk's list
// leads back to the desk page it was done from: the conversation open
// beside the list stays open, the view stays.
func TestDashboardAssignFromTheList(t *testing.T) {
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	open := e.Conversation(chat.Test, "Where is my parcel?")
	other := e.Conversation(chat.Test, "Can I pay by card?")
	for from, want := range map[string]string{
		"/app/conversations/" + open + "?view=unassigned": "/app/conversations/" + open + "?view=unassigned&flash=",
		"/app/?view=waiting":                              "/app/?view=waiting&flash=",
		"":                                                "/app/?flash=",
	} {
		d.from = from
		r := d.post("/app/conversations/"+other+"/assign", url.Values{"assignee_id": {"me"}, "from": {"inbox"}})
		if r.status != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), want) {
			t.Errorf("assigned from %q: %d, Location %q, want %q…", from, r.status, r.header.Get("Location"), want)
		}
	}
}
