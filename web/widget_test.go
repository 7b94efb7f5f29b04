package web_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
)

func TestWidgetSession(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	url := "https://example.com/pricing"
	b := e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": url}).OK(t, 200)
	tok, _ := b["visitor_token"].(string)
	if !strings.HasPrefix(tok, "vt_") || b["conversation"] != nil {
		t.Fatalf("new session: %v", b)
	}
	e.Say(tok, "Hello there, I have a question about shipping.")
	// Resuming with the token finds the same visitor and their conversation.
	b = e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": url,
		"visitor_token": tok}).OK(t, 200)
	conv, _ := b["conversation"].(map[string]any)
	if conv == nil || conv["status"] != "open" || conv["page_url"] != url {
		t.Fatalf("resumed session: %v", b)
	}
	for _, hidden := range []string{"assignee_id", "metadata"} {
		if _, ok := conv[hidden]; ok {
			t.Fatalf("visitor sees %s: %v", hidden, conv)
		}
	}
	// The CORS answer lets the site's pages read the response.
	r := e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": url},
		"Origin", "https://shop.example.com")
	r.OK(t, 200)
	if got := r.Header.Get("Access-Control-Allow-Origin"); got != "https://shop.example.com" {
		t.Fatalf("Access-Control-Allow-Origin %q", got)
	}
}

func TestWidgetSessionBadInput(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	live, test := e.Session(false), e.Session(true)
	url := "https://example.com/"
	cases := []struct {
		name        string
		body        any
		headers     []string
		status      int
		code, param string
	}{
		{"no site", map[string]any{"page_url": url}, nil, 400, "parameter_missing", "site_id"},
		{"unknown site", map[string]any{"site_id": "site_nope", "page_url": url}, nil, 400, "resource_missing", "site_id"},
		{"no page", map[string]any{"site_id": e.Site}, nil, 400, "parameter_missing", "page_url"},
		{"relative page", map[string]any{"site_id": e.Site, "page_url": "/pricing"}, nil, 400, "parameter_invalid", "page_url"},
		{"long page", map[string]any{"site_id": e.Site, "page_url": url + str("a", 2048)}, nil, 400, "parameter_invalid", "page_url"},
		{"unknown field", map[string]any{"site_id": e.Site, "page_url": url, "color": "red"}, nil, 400, "parameter_unknown", "color"},
		{"wrong type", map[string]any{"site_id": e.Site, "page_url": url, "test": "yes"}, nil, 400, "parameter_invalid", "test"},
		{"not json", "site_id=x", nil, 400, "body_invalid", ""},
		{"forged token", map[string]any{"site_id": e.Site, "page_url": url, "visitor_token": live + "x"}, nil, 401, "visitor_token_invalid", ""},
		{"garbage token", map[string]any{"site_id": e.Site, "page_url": url, "visitor_token": "hello"}, nil, 401, "visitor_token_invalid", ""},
		{"other mode's token", map[string]any{"site_id": e.Site, "page_url": url, "visitor_token": test}, nil, 401, "visitor_token_invalid", "visitor_token"},
		{"foreign origin", map[string]any{"site_id": e.Site, "page_url": url}, []string{"Origin", "https://evil.example.net"}, 403, "origin_not_allowed", ""},
		{"look-alike origin", map[string]any{"site_id": e.Site, "page_url": url}, []string{"Origin", "https://notexample.com"}, 403, "origin_not_allowed", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.WidgetDo("POST", "/widget/v1/sessions", "", c.body, c.headers...).Fails(t, c.status, c.code, c.param)
		})
	}
}

func TestWidgetTokenRequired(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(false)
	calls := []struct{ method, path string }{
		{"POST", "/widget/v1/messages"}, {"GET", "/widget/v1/messages"}, {"GET", "/widget/v1/events"},
		{"POST", "/widget/v1/handoff"}, {"POST", "/widget/v1/identify"}, {"POST", "/widget/v1/tickets"},
	}
	for _, c := range calls {
		t.Run(c.method+c.path, func(t *testing.T) {
			e.WidgetDo(c.method, c.path, "", nil).Fails(t, 401, "visitor_token_missing", "")
			e.WidgetDo(c.method, c.path, tok[:len(tok)-2]+"AA", nil).Fails(t, 401, "visitor_token_invalid", "")
			e.WidgetDo(c.method, c.path, tok, nil, "Origin", "https://evil.example.net").Fails(t, 403, "origin_not_allowed", "")
		})
	}
}

func TestWidgetMessages(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	for _, c := range []struct {
		name        string
		body        any
		code, param string
	}{
		{"missing body", map[string]any{}, "parameter_missing", "body"},
		{"empty body", map[string]any{"body": "  "}, "parameter_invalid", "body"},
		{"too long", map[string]any{"body": str("é", 4001)}, "parameter_invalid", "body"},
		{"bad page", map[string]any{"body": "hi", "page_url": "javascript:alert(1)"}, "parameter_invalid", "page_url"},
		{"unknown", map[string]any{"body": "hi", "author_id": "mem_x"}, "parameter_unknown", "author_id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.WidgetDo("POST", "/widget/v1/messages", tok, c.body).Fails(t, 400, c.code, c.param)
		})
	}
	if n := len(e.All(e.TestKey, "/v1/conversations", 100)); n != 0 {
		t.Fatalf("refused messages opened %d conversations", n)
	}

	// The first message opens a conversation; the assistant answers with its source.
	b := e.Say(tok, "How long does a refund take?")
	msg := b["message"].(map[string]any)
	convID := msg["conversation_id"].(string)
	if a := msg["author"].(map[string]any); a["type"] != "contact" {
		t.Fatalf("author %v", a)
	}
	reply, _ := b["reply"].(map[string]any)
	if reply == nil || !strings.Contains(reply["body"].(string), "5 business days") {
		t.Fatalf("reply %v", b["reply"])
	}
	srcs := reply["sources"].([]any)
	if len(srcs) != 1 || srcs[0].(map[string]any)["url"] != "https://example.com/help/refunds" {
		t.Fatalf("sources %v", srcs)
	}
	if got := e.Events(convID); !slices.Equal(got, []string{"test:conversation.created"}) {
		t.Fatalf("conversation events %v", got)
	}
	if got := e.Events(msg["id"].(string)); !slices.Equal(got, []string{"test:message.created"}) {
		t.Fatalf("message events %v", got)
	}
	// A consumer learns of the conversation before its first message.
	evs, err := e.DB.Read().EventsAfter(context.Background(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, ev := range evs {
		if ev.ObjectID == convID || ev.ObjectID == msg["id"] {
			order = append(order, ev.Type)
		}
	}
	if !slices.Equal(order, []string{"conversation.created", "message.created"}) {
		t.Fatalf("events in the order %v", order)
	}
	// A message of exactly 4000 characters is accepted, in the same conversation.
	b = e.Say(tok, str("é", 4000))
	if b["message"].(map[string]any)["conversation_id"] != convID {
		t.Fatalf("second message opened another conversation")
	}
	c := e.Test("GET", "/v1/conversations/"+convID, nil).OK(t, 200)
	if c["message_count"] != float64(4) || c["subject"] != "How long does a refund take?" ||
		c["page_url"] != "https://example.com/pricing" || c["site_id"] != e.Site {
		t.Fatalf("conversation %v", c)
	}
	// The conversation is in test mode only.
	e.Live("GET", "/v1/conversations/"+convID, nil).Fails(t, 404, "resource_missing", "id")

	// After close, the visitor's next message starts a new conversation.
	e.Test("POST", "/v1/conversations/"+convID+"/close", nil).OK(t, 200)
	b = e.Say(tok, "One more thing about shipping.")
	if id := b["message"].(map[string]any)["conversation_id"]; id == convID {
		t.Fatal("message after close went to the closed conversation")
	}
	if n := len(e.All(e.TestKey, "/v1/conversations", 100)); n != 2 {
		t.Fatalf("%d conversations, want 2", n)
	}
}

func TestWidgetListIsolation(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	alice, bob, carol := e.Session(false), e.Session(false), e.Session(true)
	e.Say(alice, "alice asks about shipping")
	e.Say(bob, "bob asks about refunds")
	e.Say(carol, "carol asks about passwords")
	aliceConv := e.WidgetDo("GET", "/widget/v1/messages", alice, nil).OK(t, 200)["data"].([]any)[0].(map[string]any)["conversation_id"].(string)
	// A team note on alice's conversation is never shown to her.
	e.Live("POST", "/v1/conversations/"+aliceConv+"/handoff", map[string]any{"note": "internal: VIP customer"}).OK(t, 200)
	for tok, who := range map[string]string{alice: "alice", bob: "bob", carol: "carol"} {
		r := e.WidgetDo("GET", "/widget/v1/messages", tok, nil)
		l := r.OK(t, 200)
		if strings.Contains(string(r.Raw), "internal:") {
			t.Fatalf("%s sees an internal note: %s", who, r.Raw)
		}
		for _, o := range l["data"].([]any) {
			m := o.(map[string]any)
			if a := m["author"].(map[string]any); a["type"] == "contact" && !strings.HasPrefix(m["body"].(string), who) {
				t.Fatalf("%s sees %q", who, m["body"])
			}
		}
		if len(l["data"].([]any)) == 0 {
			t.Fatalf("%s sees nothing", who)
		}
	}
	// after pages on; a message id of another visitor is refused.
	l := e.WidgetDo("GET", "/widget/v1/messages", alice, nil).OK(t, 200)["data"].([]any)
	first := l[0].(map[string]any)["id"].(string)
	rest := e.WidgetDo("GET", "/widget/v1/messages?after="+first, alice, nil).OK(t, 200)["data"].([]any)
	if len(rest) != len(l)-1 {
		t.Fatalf("after: %d messages, want %d", len(rest), len(l)-1)
	}
	bobFirst := e.WidgetDo("GET", "/widget/v1/messages", bob, nil).OK(t, 200)["data"].([]any)[0].(map[string]any)["id"].(string)
	e.WidgetDo("GET", "/widget/v1/messages?after="+bobFirst, alice, nil).Fails(t, 400, "resource_missing", "after")
	e.WidgetDo("GET", "/widget/v1/messages?limit=5", alice, nil).Fails(t, 400, "parameter_unknown", "limit")
	// Visitor tokens do not open the REST API.
	e.Do("GET", "/v1/conversations", alice, nil).Fails(t, 401, "api_key_invalid", "")
}

func TestWidgetHandOffAndAssistantByStatus(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(false)
	e.WidgetDo("POST", "/widget/v1/handoff", tok, nil).Fails(t, 404, "resource_missing", "")
	b := e.Say(tok, "How fast is shipping?")
	if b["reply"] == nil {
		t.Fatal("open conversation: no reply")
	}
	convID := b["message"].(map[string]any)["conversation_id"].(string)
	e.WidgetDo("POST", "/widget/v1/handoff", tok, map[string]any{"note": "x"}).Fails(t, 400, "parameter_unknown", "note")
	c := e.WidgetDo("POST", "/widget/v1/handoff", tok, nil).OK(t, 200)
	if c["status"] != "waiting" {
		t.Fatalf("hand-off: %v", c)
	}
	// Asked again (a double click): the same conversation, no second event.
	if again := e.WidgetDo("POST", "/widget/v1/handoff", tok, nil).OK(t, 200); again["status"] != "waiting" || again["message_count"] != c["message_count"] {
		t.Fatalf("second hand-off: %v, first %v", again, c)
	}
	if got := e.Events(convID); !slices.Equal(got, []string{"live:conversation.created", "live:conversation.handed_off"}) {
		t.Fatalf("events %v", got)
	}
	// The assistant is silent in waiting, handed_off and closed.
	for _, step := range []struct{ status, rest string }{
		{"waiting", ""},
		{"handed_off", "/messages"},
	} {
		if step.rest != "" {
			e.Live("POST", "/v1/conversations/"+convID+step.rest, map[string]any{"body": "Hi, I'm here.", "author_id": e.Member}).OK(t, 201)
		}
		got := e.Live("GET", "/v1/conversations/"+convID, nil).OK(t, 200)
		if got["status"] != step.status {
			t.Fatalf("status %v, want %s", got["status"], step.status)
		}
		if b := e.Say(tok, "And refunds, how long do they take?"); b["reply"] != nil {
			t.Fatalf("assistant answered in %s: %v", step.status, b["reply"])
		}
	}
	l := e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any)
	bots := 0
	for _, o := range l {
		if o.(map[string]any)["author"].(map[string]any)["type"] == "bot" {
			bots++
		}
	}
	if bots != 1 {
		t.Fatalf("%d assistant messages, want 1", bots)
	}
	// The agent is shown by name, not by id.
	for _, o := range l {
		a := o.(map[string]any)["author"].(map[string]any)
		if a["type"] == "agent" && (a["id"] != nil || a["name"] != "Agent Smith") {
			t.Fatalf("agent author %v", a)
		}
	}
}

func TestWidgetVisitorAsksForPerson(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(false)
	b := e.Say(tok, "Can I talk to a human please?")
	reply, _ := b["reply"].(map[string]any)
	if reply == nil || reply["body"] != "Sure, I've asked a person from the team to join. They will reply here." {
		t.Fatalf("reply %v", b["reply"])
	}
	convID := reply["conversation_id"].(string)
	if c := e.Live("GET", "/v1/conversations/"+convID, nil).OK(t, 200); c["status"] != "waiting" {
		t.Fatalf("status %v", c["status"])
	}
	if !slices.Contains(e.Events(convID), "live:conversation.handed_off") {
		t.Fatal("no conversation.handed_off")
	}
	// An unanswerable question gets an honest answer and the offer of a person.
	tok2 := e.Session(false)
	b = e.Say(tok2, "What is the airspeed velocity of an unladen swallow?")
	if r, _ := b["reply"].(map[string]any); r == nil || !strings.Contains(r["body"].(string), "talk to a person") ||
		len(r["sources"].([]any)) != 0 {
		t.Fatalf("reply %v", b["reply"])
	}
}

// A visitor is answered in the language of the message, or in the widget's
// when the message is too short to tell; a hand-off is understood in each.
func TestWidgetSpeaksTheVisitorsLanguage(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	e.Live("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"locale": "fr"}}).OK(t, 200)
	for _, c := range []struct{ text, want string }{
		{"Bonjour", "Bonjour ! Comment puis-je vous aider ?"}, // too short to tell: the widget's language
		{"Wie ist das Wetter auf dem Mond?", "Dazu habe ich in unseren Hilfeseiten keine Antwort gefunden."},
		{"Ik wil met een mens praten.", "Natuurlijk, ik heb iemand van het team gevraagd om erbij te komen."},
	} {
		b := e.Say(e.Session(false), c.text)
		if r, _ := b["reply"].(map[string]any); r == nil || !strings.HasPrefix(r["body"].(string), c.want) {
			t.Errorf("%q: reply %v", c.text, b["reply"])
		}
	}
}

func TestWidgetIdentify(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(false)
	convID := e.Say(tok, "Where is my parcel?")["message"].(map[string]any)["conversation_id"].(string)
	// A known contact's details are not revealed or overwritten by an unverified claim.
	e.Live("POST", "/v1/contacts", map[string]any{"email": "ann@example.com", "name": "Ann", "phone": "+1 555",
		"attributes": map[string]any{"plan": "gold"}}).OK(t, 201)
	for _, c := range []struct {
		name        string
		body        map[string]any
		code, param string
	}{
		{"nothing", map[string]any{"name": "Ann"}, "parameter_missing", "email"},
		{"bad email", map[string]any{"email": "ann@"}, "parameter_invalid", "email"},
		{"external id unverified", map[string]any{"email": "ann@example.com", "external_id": "u1"}, "parameter_invalid", "external_id"},
		{"attributes unverified", map[string]any{"email": "ann@example.com", "attributes": map[string]any{"a": 1}}, "parameter_invalid", "attributes"},
		{"unknown", map[string]any{"email": "ann@example.com", "role": "admin"}, "parameter_unknown", "role"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.WidgetDo("POST", "/widget/v1/identify", tok, c.body).Fails(t, 400, c.code, c.param)
		})
	}
	c := e.WidgetDo("POST", "/widget/v1/identify", tok, map[string]any{"email": "Ann@Example.com", "name": "Mallory"}).OK(t, 200)
	if c["phone"] != nil || len(c["attributes"].(map[string]any)) != 0 || c["last_seen_at"] == nil {
		t.Fatalf("unverified identify reveals: %v", c)
	}
	stored := e.Live("GET", "/v1/contacts/"+c["id"].(string), nil).OK(t, 200)
	if stored["name"] != "Ann" || stored["last_seen_at"] == nil {
		t.Fatalf("stored contact %v", stored)
	}
	if conv := e.Live("GET", "/v1/conversations/"+convID, nil).OK(t, 200); conv["contact_id"] != c["id"] {
		t.Fatalf("conversation contact %v", conv["contact_id"])
	}
	// The visitor's next messages are the contact's, by the contact's name.
	next := e.Say(tok, "It has not arrived.")["message"].(map[string]any)["author"].(map[string]any)
	if next["id"] != c["id"] || next["name"] != "Ann" {
		t.Fatalf("author after identify %v", next)
	}

	// With an identity secret, claims need a matching user_hash.
	secret, err := e.Svc.SetIdentitySecret(context.Background(), e.Site, false)
	if err != nil {
		t.Fatal(err)
	}
	tok2 := e.Session(false)
	claim := map[string]any{"external_id": "user-42", "email": "bob@example.com", "name": "Bob",
		"attributes": map[string]any{"plan": "pro"}}
	e.WidgetDo("POST", "/widget/v1/identify", tok2, claim).Fails(t, 400, "parameter_missing", "user_hash")
	claim["user_hash"] = app.UserHash(secret, "bob@example.com") // of the e-mail, but external_id is given
	e.WidgetDo("POST", "/widget/v1/identify", tok2, claim).Fails(t, 401, "user_hash_invalid", "user_hash")
	claim["user_hash"] = app.UserHash(secret, "user-42")
	c = e.WidgetDo("POST", "/widget/v1/identify", tok2, claim).OK(t, 200)
	if c["external_id"] != "user-42" || c["attributes"].(map[string]any)["plan"] != "pro" || c["last_seen_at"] == nil {
		t.Fatalf("verified identify: %v", c)
	}
	// Opening the widget again marks the identified contact seen.
	before := c["last_seen_at"].(string)
	e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": "https://example.com/",
		"visitor_token": tok2}).OK(t, 200)
	after := e.Live("GET", "/v1/contacts/"+c["id"].(string), nil).OK(t, 200)["last_seen_at"].(string)
	if after <= before {
		t.Fatalf("last_seen_at %s, was %s", after, before)
	}
	// The new conversation of an identified visitor carries the contact.
	conv2 := e.Say(tok2, "Hello, where is my order?")["message"].(map[string]any)
	if id := conv2["author"].(map[string]any)["id"]; id != c["id"] {
		t.Fatalf("message author id %v, want %v", id, c["id"])
	}
}

// A verified identity reaches only the contact its hash signs: naming
// another person's e-mail beside one's own signed external_id neither finds
// nor changes that person, and the widget never sees a stored phone or
// attributes.
func TestWidgetIdentifyCannotTakeOverAContact(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	secret, err := e.Svc.SetIdentitySecret(context.Background(), e.Site, false)
	if err != nil {
		t.Fatal(err)
	}
	victim := e.Live("POST", "/v1/contacts", map[string]any{"email": "vic@example.com", "name": "Vic",
		"phone": "+1 555 0100", "attributes": map[string]any{"iban": "DE00"}}).OK(t, 201)
	tok := e.Session(false)
	got := e.WidgetDo("POST", "/widget/v1/identify", tok, map[string]any{"external_id": "mallory-1",
		"email": "vic@example.com", "user_hash": app.UserHash(secret, "mallory-1")}).OK(t, 200)
	if got["id"] == victim["id"] || got["phone"] != nil || len(got["attributes"].(map[string]any)) != 0 {
		t.Fatalf("identify with another's e-mail answered %v", got)
	}
	after := e.Live("GET", "/v1/contacts/"+victim["id"].(string), nil).OK(t, 200)
	if after["external_id"] != nil || after["email"] != "vic@example.com" || after["phone"] != "+1 555 0100" {
		t.Fatalf("the victim's contact changed: %v", after)
	}
	if mine := e.Live("GET", "/v1/contacts/"+got["id"].(string), nil).OK(t, 200); mine["external_id"] != "mallory-1" || mine["email"] != nil {
		t.Fatalf("the caller's own contact: %v", mine)
	}
	// The signed person's own stored phone and attributes stay on the server.
	e.Live("POST", "/v1/contacts", map[string]any{"external_id": "vic-9", "email": "vic@example.com"}).OK(t, 200)
	own := e.WidgetDo("POST", "/widget/v1/identify", e.Session(false), map[string]any{"external_id": "vic-9",
		"user_hash": app.UserHash(secret, "vic-9")}).OK(t, 200)
	if own["id"] != victim["id"] || own["phone"] != nil || len(own["attributes"].(map[string]any)) != 0 {
		t.Fatalf("the widget sees stored details: %v", own)
	}
}

func TestWidgetTickets(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	for _, c := range []struct {
		name        string
		body        map[string]any
		code, param string
	}{
		{"no subject", map[string]any{"email": "a@example.com"}, "parameter_missing", "subject"},
		{"long subject", map[string]any{"subject": str("s", 201), "email": "a@example.com"}, "parameter_invalid", "subject"},
		{"long description", map[string]any{"subject": "s", "description": str("d", 10001), "email": "a@example.com"}, "parameter_invalid", "description"},
		{"no email", map[string]any{"subject": "Help"}, "parameter_missing", "email"},
		{"bad email", map[string]any{"subject": "Help", "email": "nope"}, "parameter_invalid", "email"},
		{"unknown", map[string]any{"subject": "Help", "email": "a@example.com", "priority": "urgent"}, "parameter_unknown", "priority"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.WidgetDo("POST", "/widget/v1/tickets", tok, c.body).Fails(t, 400, c.code, c.param)
		})
	}
	convID := e.Say(tok, "My invoice is wrong.")["message"].(map[string]any)["conversation_id"].(string)
	tk := e.WidgetDo("POST", "/widget/v1/tickets", tok, map[string]any{"subject": "Wrong invoice",
		"description": "Charged twice", "email": "dee@example.com", "name": "Dee"}).OK(t, 201)
	if tk["conversation_id"] != convID || tk["status"] != "open" || tk["number"] != float64(1) {
		t.Fatalf("ticket %v", tk)
	}
	if got := e.Mails(tk["id"].(string)); !slices.Equal(got, []string{"ticket_received:dee@example.com"}) {
		t.Fatalf("mails %v", got)
	}
	// Leaving an e-mail links the visitor's conversation to the contact.
	if c := e.Test("GET", "/v1/conversations/"+convID, nil).OK(t, 200); c["contact_id"] != tk["contact_id"] {
		t.Fatalf("conversation contact %v, ticket contact %v", c["contact_id"], tk["contact_id"])
	}
	// Once linked, the e-mail may be left out.
	tk2 := e.WidgetDo("POST", "/widget/v1/tickets", tok, map[string]any{"subject": "Another"}).OK(t, 201)
	if tk2["contact_id"] != tk["contact_id"] {
		t.Fatalf("second ticket contact %v", tk2["contact_id"])
	}
	e.Live("GET", "/v1/tickets/"+tk["id"].(string), nil).Fails(t, 404, "resource_missing", "id")
}

func TestWidgetPreflightAndAssets(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	r := e.WidgetDo("OPTIONS", "/widget/v1/messages", "", nil, "Origin", "https://example.com",
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,x-visitor-token")
	if r.Status != 204 || !strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "X-Visitor-Token") ||
		r.Header.Get("Access-Control-Allow-Origin") != "https://example.com" {
		t.Fatalf("preflight: %d %v", r.Status, r.Header)
	}
	js := e.WidgetDo("GET", "/widget.js", "", nil)
	if js.Status != 200 || !strings.HasPrefix(js.Header.Get("Content-Type"), "text/javascript") ||
		!strings.Contains(string(js.Raw), "/widget/v1") || len(js.Raw) > 40<<10 {
		t.Fatalf("widget.js: %d, %d bytes", js.Status, len(js.Raw))
	}
	demo := e.WidgetDo("GET", "/demo?site="+e.Site, "", nil)
	if demo.Status != 200 || !strings.Contains(string(demo.Raw), `data-site="`+e.Site+`"`) {
		t.Fatalf("demo: %d %s", demo.Status, demo.Raw)
	}
	if d := e.WidgetDo("GET", "/demo?site=%22%3E%3Cscript%3E", "", nil); strings.Contains(string(d.Raw), `"><script>`) {
		t.Fatal("demo page does not escape the site")
	}
	e.WidgetDo("GET", "/demo", "", nil).Fails(t, 400, "parameter_missing", "site")
	e.WidgetDo("GET", "/widget/v1/nothing", "", nil).Fails(t, 404, "resource_missing", "")
	wrong := e.WidgetDo("DELETE", "/widget/v1/messages", "", nil)
	wrong.Fails(t, 405, "method_not_allowed", "")
	if allow := wrong.Header.Get("Allow"); allow != "GET, POST" {
		t.Errorf("Allow %q, want GET, POST", allow)
	}
}

// TestWidgetVisitorActionsStayWithTheVisitor: one visitor's hand-off,
// identify and ticket touch only their own conversation, in their own mode.
func TestWidgetVisitorActionsStayWithTheVisitor(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	a, b, c := e.Session(false), e.Session(false), e.Session(true)
	conv := map[string]string{}
	for tok, who := range map[string]string{a: "a", b: "b", c: "c"} {
		conv[who] = e.Say(tok, who+": how long does shipping take?")["message"].(map[string]any)["conversation_id"].(string)
	}
	e.WidgetDo("POST", "/widget/v1/handoff", a, nil).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/identify", a, map[string]any{"email": "a@example.com"}).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/tickets", a, map[string]any{"subject": "a's ticket"}).OK(t, 201)
	for who, key := range map[string]string{"b": e.LiveKey, "c": e.TestKey} {
		got := e.Do("GET", "/v1/conversations/"+conv[who], key, nil).OK(t, 200)
		if got["status"] != "open" || got["contact_id"] != nil {
			t.Fatalf("%s's conversation changed: %v", who, got)
		}
	}
	if got := e.Live("GET", "/v1/conversations/"+conv["a"], nil).OK(t, 200); got["status"] != "waiting" || got["contact_id"] == nil {
		t.Fatalf("a's conversation: %v", got)
	}
	if l := e.All(e.TestKey, "/v1/contacts", 10); len(l) != 0 {
		t.Fatalf("a live visitor's contact shows in test mode: %v", l)
	}
	if l := e.All(e.TestKey, "/v1/tickets", 10); len(l) != 0 {
		t.Fatalf("a live visitor's ticket shows in test mode: %v", l)
	}
}

func TestWidgetMessageRate(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{ReplyWait: -1})
	tok, other := e.Session(false), e.Session(false)
	for i := 0; i < app.VisitorMessagesPerMinute; i++ {
		e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "hi " + itoa(i)}).OK(t, 201)
	}
	r := e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "one too many"})
	r.Fails(t, 429, "rate_limited", "")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	e.Say(other, "another visitor is not held back")
	e.Clock.Advance(time.Minute)
	e.Say(tok, "a minute later")
}

// The demo page shows the snippet for a live site and the one for trying
// the widget with the test key, so a pasted snippet matches the key in hand.
func TestDemoPageShowsBothSnippets(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	res, err := http.Get(e.Server.URL + "/demo?site=" + e.Site)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	live := `data-site="` + e.Site + `" async&gt;`
	test := `data-site="` + e.Site + `" data-test="true" async&gt;`
	if !strings.Contains(string(page), live) || !strings.Contains(string(page), test) {
		t.Fatalf("demo page lacks a snippet:\n%s", page)
	}
}

// A person's reply takes over from the assistant: the visitor's next
// message gets no assistant answer.
func TestWidgetAgentReplyTakesOver(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	first := e.Say(tok, "How long does a refund take?")
	if first["reply"] == nil {
		t.Fatal("the assistant did not answer the first question")
	}
	conv := first["message"].(map[string]any)["conversation_id"].(string)
	e.Test("POST", "/v1/conversations/"+conv+"/messages", map[string]any{"body": "Hi, Ann from the team here.", "author_id": e.Member}).OK(t, 201)
	if next := e.Say(tok, "Thanks! And shipping?"); next["reply"] != nil {
		t.Fatalf("the assistant answered after a person took over: %v", next["reply"])
	}
	if c := e.Test("GET", "/v1/conversations/"+conv, nil).OK(t, 200); c["status"] != "handed_off" || c["assignee_id"] != e.Member {
		t.Fatalf("conversation after the take-over: %v", c)
	}
}
