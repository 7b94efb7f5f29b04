package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// TestDashboardInbox checks the inbox's order (waiting first, closed last)
// and that unread counts follow what the member has opened.
func TestDashboardInbox(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	ctx := context.Background()
	open := e.Conversation(chat.Test, "Just browsing")
	tok := e.Session(true) // the waiting one comes through the widget
	e.Say(tok, "I need a person")
	e.WidgetDo("POST", "/widget/v1/handoff", tok, nil).OK(t, 200)
	waiting := e.All(e.TestKey, "/v1/conversations?status=waiting", 10)[0]
	handed := e.Conversation(chat.Test, "Billing question")
	closed := e.Conversation(chat.Test, "Thanks, bye")
	e.Test("POST", "/v1/conversations/"+handed+"/handoff", map[string]any{"assignee_id": e.Member2}).OK(t, 200)
	e.Test("POST", "/v1/conversations/"+closed+"/close", nil).OK(t, 200)

	body := d.get("/app/").must(t, http.StatusOK)
	pos := func(s string) int {
		i := strings.Index(body, s)
		if i < 0 {
			t.Fatalf("inbox lacks %q", s)
		}
		return i
	}
	if !(pos(`id="h-waiting"`) < pos(waiting) && pos(waiting) < pos(`id="h-handed_off"`) &&
		pos(handed) < pos(`id="h-open"`) && pos(open) < pos(`id="h-closed"`) && pos(`id="h-closed"`) < pos(closed)) {
		t.Errorf("inbox order is not waiting, handed off, open, closed:\n%s", body)
	}
	unread := func(conv string) string {
		t.Helper()
		b := d.get("/app/").must(t, http.StatusOK)
		i := strings.Index(b, `data-id="`+conv+`"`)
		row := b[i : i+strings.Index(b[i:], "</li>")]
		if j := strings.Index(row, `class="unread"`); j >= 0 {
			return row[strings.Index(row[j:], ">")+j+1 : strings.Index(row[j:], "</span>")+j]
		}
		return "0"
	}
	if got := unread(waiting); got != "1" {
		t.Errorf("unread of a new conversation: %s, want 1", got)
	}
	d.get("/app/conversations/"+waiting).must(t, http.StatusOK)
	if got := unread(waiting); got != "0" {
		t.Errorf("unread after opening: %s, want 0", got)
	}
	e.Say(tok, "Hello?")
	if got := unread(waiting); got != "1" {
		t.Errorf("unread after a new visitor message: %s, want 1", got)
	}
	// Another member's unread counts are their own.
	if _, err := e.Svc.SetMemberPassword(ctx, "other@example.com", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	other := newDash(t, d.base)
	other.signIn("other@example.com", webenv.DashPassword)
	b := other.get("/app/").must(t, http.StatusOK)
	if !strings.Contains(b, `aria-label="2 unread"`) {
		t.Errorf("the other member should have 2 unread in the waiting conversation:\n%s", b)
	}
}

// TestDashboardConversationActions runs the conversation page's forms
// through the same rules as the REST API.
func TestDashboardConversationActions(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	conv := e.Conversation(chat.Test, "My card was charged twice")
	path := "/app/conversations/" + conv

	d.post(path+"/assign", url.Values{"assignee_id": {"me"}}).must(t, http.StatusSeeOther)
	if c := e.Test("GET", "/v1/conversations/"+conv, nil).OK(t, 200); c["assignee_id"] != e.Member {
		t.Errorf("assign to me: assignee %v", c["assignee_id"])
	}
	// A refused form leads back to the page it was sent from.
	d.from = path
	if b := d.post(path+"/reply", url.Values{"body": {strings.Repeat("x", 4001)}}).must(t, http.StatusBadRequest); !strings.Contains(b, `href="`+path+`">Back</a>`) {
		t.Errorf("no way back to the conversation:\n%.2000s", b)
	}
	d.from = ""
	d.post(path+"/handoff", url.Values{"note": {"Refund approved by finance"}}).must(t, http.StatusSeeOther)
	if !strings.Contains(d.get(path).must(t, http.StatusOK), "Refund approved by finance") {
		t.Error("the hand-off note is not shown to the team")
	}
	msgs := e.Test("GET", "/v1/conversations/"+conv+"/messages", nil).OK(t, 200)
	if b, _ := json.Marshal(msgs); strings.Contains(string(b), "Refund approved") {
		t.Error("the internal note is among the messages")
	}

	tests := []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"empty reply", url.Values{"body": {" "}}, http.StatusBadRequest, "body"},
		{"too long", url.Values{"body": {str("a", 4001)}}, http.StatusBadRequest, "4000"},
		{"six attachments", url.Values{"body": {"files"}, "attachments": {strings.Repeat("https://example.com/a.pdf\n", 6)}},
			http.StatusBadRequest, "attachments"},
		{"ok", url.Values{"body": {"We refunded the second charge."}}, http.StatusSeeOther, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := d.post(path+"/reply", tc.form)
			body := r.must(t, tc.status)
			if !strings.Contains(body, tc.want) {
				t.Errorf("answer lacks %q:\n%.1500s", tc.want, body)
			}
		})
	}
	m := e.Test("GET", "/v1/conversations/"+conv+"/messages", nil).OK(t, 200)["data"].([]any)
	last := m[len(m)-1].(map[string]any)
	if a := last["author"].(map[string]any); a["type"] != "agent" || a["id"] != e.Member || last["body"] != "We refunded the second charge." {
		t.Errorf("reply stored as %v", last)
	}
	d.post(path+"/close", nil).must(t, http.StatusSeeOther)
	if c := e.Test("GET", "/v1/conversations/"+conv, nil).OK(t, 200); c["status"] != "closed" {
		t.Errorf("status after close: %v", c["status"])
	}
	body := d.post(path+"/reply", url.Values{"body": {"Anything else?"}}).must(t, http.StatusConflict)
	if !strings.Contains(body, "closed") {
		t.Errorf("reply to a closed conversation:\n%s", body)
	}
	// Nothing internal leaks into error pages.
	if r := d.get("/app/conversations/conv_nope"); r.status != http.StatusNotFound || strings.Contains(r.body, "sql") {
		t.Errorf("unknown conversation: %d\n%s", r.status, r.body)
	}
}

// TestDashboardContactErasure checks that erasure needs the confirmation box.
func TestDashboardContactErasure(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	ctc := e.Contact("ana@example.com")
	page := d.get("/app/contacts?q=ana@example.com").must(t, http.StatusOK)
	if !strings.Contains(page, ctc) {
		t.Fatalf("search by e-mail does not find the contact:\n%s", page)
	}
	detail := d.get("/app/contacts/"+ctc).must(t, http.StatusOK)
	if !strings.Contains(detail, "cannot be undone") {
		t.Error("the erase form does not say what erasure does")
	}
	d.post("/app/contacts/"+ctc+"/erase", nil).must(t, http.StatusBadRequest)
	e.Test("GET", "/v1/contacts/"+ctc, nil).OK(t, 200)
	d.post("/app/contacts/"+ctc+"/erase", url.Values{"confirm": {"erase"}}).must(t, http.StatusSeeOther)
	e.Test("GET", "/v1/contacts/"+ctc, nil).Fails(t, 404, "resource_missing", "id")
}

// TestDashboardLimits checks that the dashboard shows the API's refusals:
// the sync rate limit and a plan without webhooks.
func TestDashboardLimits(t *testing.T) {
	t.Parallel()
	e := webenv.New(t, func(o *app.Options) { o.Webhooks = app.WebhookOptions{Disabled: true} })
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	d.post("/app/knowledge", url.Values{"type": {"text"}, "name": {"FAQ"}, "content": {"We ship."}}).must(t, http.StatusSeeOther)
	list := d.get("/app/knowledge").must(t, http.StatusOK)
	i := strings.Index(list, `data-id="src_`)
	if i < 0 {
		t.Fatalf("source not listed:\n%s", list)
	}
	src := list[i+9 : i+9+strings.Index(list[i+9:], `"`)]
	r := d.post("/app/knowledge/"+src+"/sync", nil)
	body := r.must(t, http.StatusTooManyRequests)
	if r.header.Get("Retry-After") == "" || !strings.Contains(body, "once every 10 minutes") {
		t.Errorf("sync within the interval: Retry-After %q\n%s", r.header.Get("Retry-After"), body)
	}
	d.post("/app/knowledge", url.Values{"type": {"text"}, "name": {"Big"}, "content": {str("x", 100001)}}).
		must(t, http.StatusBadRequest)
	// A source's language, as the API takes it.
	d.post("/app/knowledge", url.Values{"type": {"text"}, "name": {"Versand"}, "content": {"Wir liefern."},
		"language": {"de"}}).must(t, http.StatusSeeOther)
	if l := e.Test("GET", "/v1/knowledge-sources", nil).OK(t, 200)["data"].([]any); l[0].(map[string]any)["language"] != "de" {
		t.Errorf("the newest source %v, want language de", l[0])
	}
	d.post("/app/knowledge", url.Values{"type": {"text"}, "name": {"X"}, "content": {"x"}, "language": {"x y"}}).
		must(t, http.StatusBadRequest)
	d.get("/app/webhooks").must(t, http.StatusForbidden)
	d.post("/app/webhooks", url.Values{"url": {"https://hooks.example.com/x"}}).must(t, http.StatusForbidden)
}

// TestDashboardLiveEvents checks that the event stream reports a new
// waiting conversation within a second and ends after sign-out.
func TestDashboardLiveEvents(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", d.base+"/app/events", nil)
	req.AddCookie(&http.Cookie{Name: "chatsvc_session", Value: d.cookie})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	states := make(chan map[string]any, 10)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, "data: ") {
				var v map[string]any
				json.Unmarshal([]byte(line[6:]), &v)
				states <- v
			}
		}
		close(states)
	}()
	next := func() map[string]any {
		t.Helper()
		select {
		case v, ok := <-states:
			if !ok {
				t.Fatal("stream ended")
			}
			return v
		case <-time.After(time.Second):
			t.Fatal("no inbox event within a second")
		}
		return nil
	}
	if v := next(); v["waiting"] != 0.0 {
		t.Fatalf("first state %v", v)
	}
	conv := e.Conversation(chat.Test, "Hello")
	if v := next(); v["unread"] != 1.0 {
		t.Fatalf("after a new conversation: %v", v)
	}
	e.Test("POST", "/v1/conversations/"+conv+"/handoff", nil).OK(t, 200)
	if v := next(); v["waiting"] != 1.0 {
		t.Fatalf("after a hand-off: %v", v)
	}
}

// TestDashboardTicketFilters checks that the ticket list takes the API's
// filters, refuses bad ones as the API does, and that the detail form saves.
func TestDashboardTicketFilters(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	ctc := e.Contact("ana@example.com")
	high := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Server down", "contact_id": ctc,
		"priority": "high", "tags": []string{"outage"}, "notify_contact": false}).OK(t, 201)["id"].(string)
	low := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Typo on page", "contact_id": ctc,
		"priority": "low", "notify_contact": false}).OK(t, 201)["id"].(string)
	tests := []struct {
		query      string
		status     int
		with, none string
	}{
		{"", 200, high, ""},
		{"?priority=high", 200, high, low},
		{"?tag=outage", 200, high, low},
		{"?priority=low&tag=outage", 200, "No tickets.", high},
		{"?status=bogus", 400, "status must be one of", high},
		{"?created_after=yesterday", 400, "created_after", high},
	}
	for _, tc := range tests {
		body := d.get("/app/tickets"+tc.query).must(t, tc.status)
		if !strings.Contains(body, tc.with) || (tc.none != "" && strings.Contains(body, tc.none)) {
			t.Errorf("%s: want %q and not %q:\n%.1500s", tc.query, tc.with, tc.none, body)
		}
	}
	d.post("/app/tickets/"+high, url.Values{"status": {"solved"}, "priority": {"urgent"}, "assignee_id": {e.Member},
		"tags": {"outage, db"}}).must(t, http.StatusSeeOther)
	tk := e.Test("GET", "/v1/tickets/"+high, nil).OK(t, 200)
	if tk["status"] != "solved" || tk["priority"] != "urgent" || tk["assignee_id"] != e.Member || tk["solved_at"] == nil ||
		len(tk["tags"].([]any)) != 2 {
		t.Errorf("ticket after the form: %v", tk)
	}
	if got := e.Events(high); strings.Join(got, ",") != "test:ticket.created,test:ticket.updated,test:ticket.solved" {
		t.Errorf("events %v", got)
	}
	empty := url.Values{"status": {"open"}, "priority": {"low"}, "subject": {""}}
	d.post("/app/tickets/"+low, empty).must(t, http.StatusSeeOther) // the form has no subject field: ignored
	d.post("/app/tickets/"+low, url.Values{"status": {"done"}, "priority": {"low"}}).must(t, http.StatusBadRequest)
	if tk := e.Test("GET", "/v1/tickets/"+low, nil).OK(t, 200); tk["status"] != "open" || len(tk["tags"].([]any)) != 0 {
		t.Errorf("refused forms changed the ticket: %v", tk)
	}
}

// TestDashboardAssistantBox checks the knowledge page's "Try a question" box.
func TestDashboardAssistantBox(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	body := d.post("/app/knowledge/test", url.Values{"question": {"How long does a refund take?"}}).must(t, http.StatusOK)
	if !strings.Contains(body, "5 business days") || !strings.Contains(body, `href="https://example.com/help/refunds"`) {
		t.Errorf("the assistant's answer with its source is missing:\n%.2000s", body)
	}
	if !regexp.MustCompile(`<td class="score">(0\.[3-9]\d|1\.00)</td>`).MatchString(body) {
		t.Errorf("the cited page's match score is missing:\n%.2000s", body)
	}
	body = d.post("/app/knowledge/test", url.Values{"question": {"Do you sell garden furniture?"}}).must(t, http.StatusOK)
	if !strings.Contains(body, "would say it does not know") || strings.Contains(body, `class="score"`) {
		t.Errorf("an unanswerable question should be shown as declined, with no cited page:\n%.2000s", body)
	}
	d.post("/app/knowledge/test", url.Values{"question": {"Refund?"}, "site_id": {"site_nope"}}).must(t, http.StatusBadRequest)
	d.post("/app/knowledge/test", url.Values{"question": {str("a", 4001)}}).must(t, http.StatusBadRequest)
	if n := len(e.All(e.TestKey, "/v1/conversations", 10)); n != 0 {
		t.Errorf("testing the assistant made %d conversations", n)
	}
}

// TestDashboardWebhookSecretShownOnce checks that an endpoint's secret is
// on the creation page only, and the enable switch.
func TestDashboardWebhookSecretShownOnce(t *testing.T) {
	t.Parallel()
	e := webenv.New(t, func(o *app.Options) { o.Webhooks = app.WebhookOptions{AllowHTTP: true, AllowPrivate: true} })
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	created := d.post("/app/webhooks", url.Values{"url": {"https://hooks.example.com/in"}, "events": {"ticket.created, ticket.solved"}}).
		must(t, http.StatusOK)
	i := strings.Index(created, "whsec_")
	if i < 0 {
		t.Fatalf("no secret on the creation page:\n%s", created)
	}
	secret := created[i : i+strings.Index(created[i:], "<")]
	list := d.get("/app/webhooks").must(t, http.StatusOK)
	j := strings.Index(list, `href="/app/webhooks/whe_`)
	id := list[j+len(`href="/app/webhooks/`) : j+strings.Index(list[j:], `">`)]
	if strings.Contains(list, secret) || strings.Contains(d.get("/app/webhooks/"+id).must(t, http.StatusOK), secret) {
		t.Error("the secret is shown again")
	}
	w := e.Test("GET", "/v1/webhook-endpoints/"+id, nil).OK(t, 200)
	if ev := w["events"].([]any); len(ev) != 2 || w["enabled"] != true {
		t.Errorf("endpoint %v", w)
	}
	// A test ping is logged, but it is no event: nothing to resend.
	e.Test("POST", "/v1/webhook-endpoints/"+id+"/test", nil).OK(t, 200)
	if page := d.get("/app/webhooks/"+id).must(t, http.StatusOK); !strings.Contains(page, "ping") || strings.Contains(page, "/resend") {
		t.Error("a ping's row offers a resend, or is missing")
	}
	d.post("/app/webhooks/"+id+"/enabled", url.Values{"enabled": {"false"}}).must(t, http.StatusSeeOther)
	if w := e.Test("GET", "/v1/webhook-endpoints/"+id, nil).OK(t, 200); w["enabled"] != false {
		t.Errorf("after disable: %v", w["enabled"])
	}
	d.post("/app/webhooks", url.Values{"url": {"ftp://hooks.example.com"}, "events": {"*"}}).must(t, http.StatusBadRequest)
	// No event named is refused as the API refuses it, not taken for all of them.
	if b := d.post("/app/webhooks", url.Values{"url": {"https://hooks.example.com/all"}, "events": {" "}}).must(t, http.StatusBadRequest); !strings.Contains(b, "events") {
		t.Errorf("no events: %.1500s", b)
	}
}

// TestDashboardInboxPages checks paging through one status of the inbox.
func TestDashboardInboxPages(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	var ids []string
	for i := range 51 {
		ids = append(ids, e.Conversation(chat.Test, "Question "+itoa(i)))
	}
	first := d.get("/app/").must(t, http.StatusOK)
	if strings.Contains(first, ids[0]) || !strings.Contains(first, ids[50]) {
		t.Fatal("the inbox should show the newest 50 open conversations")
	}
	i := strings.Index(first, `href="/app/?status=open&amp;cursor=`)
	if i < 0 {
		t.Fatalf("no link to older conversations:\n%s", first)
	}
	link := strings.ReplaceAll(first[i+6:i+6+strings.Index(first[i+6:], `"`)], "&amp;", "&")
	older := d.get(link).must(t, http.StatusOK)
	if !strings.Contains(older, ids[0]) || strings.Contains(older, ids[50]) || strings.Contains(older, `id="h-waiting"`) {
		t.Errorf("the second page should hold the oldest conversation only:\n%s", older)
	}
	d.get("/app/?status=bogus").must(t, http.StatusBadRequest)
	d.get("/app/?status=open&cursor=nonsense").must(t, http.StatusBadRequest)
}

// TestDashboardSynonyms: the knowledge page adds a group typed with commas,
// lists it, refuses a bad one with the API's message, and deletes it.
func TestDashboardSynonyms(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	d.post("/app/knowledge/synonyms", url.Values{"words": {"Stash, put aside ,shelve"}}).must(t, http.StatusSeeOther)
	list := e.Test("GET", "/v1/assistant/synonyms", nil).OK(t, 200)["data"].([]any)
	if len(list) != 1 || strings.Join(strSlice(list[0].(map[string]any)["words"]), "|") != "stash|put aside|shelve" {
		t.Fatalf("synonyms %v", list)
	}
	id := list[0].(map[string]any)["id"].(string)
	if body := d.get("/app/knowledge").must(t, http.StatusOK); !strings.Contains(body, "stash, put aside, shelve") ||
		!strings.Contains(body, "/app/knowledge/synonyms/"+id+"/delete") {
		t.Errorf("the group is not listed:\n%.3000s", body)
	}
	if body := d.post("/app/knowledge/synonyms", url.Values{"words": {"alone"}}).must(t, http.StatusBadRequest); !strings.Contains(body, "2 to 20") {
		t.Errorf("a one-word group should be refused with the reason:\n%.2000s", body)
	}
	if body := d.post("/app/knowledge/synonyms", url.Values{"words": {" , "}}).must(t, http.StatusBadRequest); !strings.Contains(body, "(got 0)") {
		t.Errorf("nothing typed should be counted as nothing:\n%.2000s", body)
	}
	// A form over the size limit is told as such, not as a form without its token.
	big := d.post("/app/knowledge/synonyms", url.Values{"words": {strings.Repeat("x", web.MaxBodyBytes)}})
	big.must(t, http.StatusRequestEntityTooLarge)
	d.post("/app/knowledge/synonyms/"+id+"/delete", nil).must(t, http.StatusSeeOther)
	e.Test("GET", "/v1/assistant/synonyms/"+id, nil).Fails(t, 404, "resource_missing", "id")
}

// A notification's link to a live conversation, which names its mode,
// opens it from a dashboard showing test data: the link offers the switch,
// and the member's click (a POST with the CSRF token) makes it. The link
// alone switches nothing, so a link from another site cannot.
func TestDashboardLinkSwitchesMode(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	conv := e.Conversation(chat.Live, "Where is my order?")
	path := "/app/conversations/" + conv
	d.get(path).must(t, http.StatusNotFound) // without the link's mode, the other mode's object is not there
	offer := d.get(path+"?mode=live").must(t, http.StatusOK)
	if !strings.Contains(offer, `action="/app/mode"`) || !strings.Contains(offer, `value="`+path+`"`) {
		t.Fatalf("the link does not offer the switch:\n%.2000s", offer)
	}
	d.get(path).must(t, http.StatusNotFound) // still test data
	r := d.post("/app/mode", url.Values{"mode": {"live"}, "to": {path}})
	if r.status != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), path+"?flash=") {
		t.Fatalf("status %d, Location %q", r.status, r.header.Get("Location"))
	}
	// Only a dashboard path is a place to go back to.
	if r := d.post("/app/mode", url.Values{"mode": {"test"}, "to": {"https://evil.example/"}}); !strings.HasPrefix(r.header.Get("Location"), "/app/?") {
		t.Fatalf("Location %q after a switch to a foreign place", r.header.Get("Location"))
	}
	d.post("/app/mode", url.Values{"mode": {"live"}}).must(t, http.StatusSeeOther)
	if !strings.Contains(d.get(path).must(t, http.StatusOK), "Where is my order?") {
		t.Error("the live conversation is not shown")
	}
	d.get("/app/conversations/conv_nope").must(t, http.StatusNotFound)
}
