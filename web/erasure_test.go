package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv/webenv"
)

// The erased person, and the ways their data may be written.
const (
	erasedEmail = "Ada.Lovelace@Example.com"
	erasedName  = "Ada Lovelace"
	erasedPhone = "+44 20 7946 0958"
)

// leaks reports where text still holds the erased person's e-mail, name
// (or a part of it) or phone number (in any spacing), in any case.
func leaks(text string) []string {
	var found []string
	lower := strings.ToLower(text)
	unescaped, err := url.QueryUnescape(text)
	if err == nil {
		lower += "\n" + strings.ToLower(unescaped)
	}
	for _, s := range []string{erasedEmail, erasedName} {
		if strings.Contains(lower, strings.ToLower(s)) {
			found = append(found, s)
		}
	}
	for _, w := range []string{"ada", "lovelace"} { // the name's parts, as words
		if regexp.MustCompile(`\b` + w + `\b`).MatchString(lower) {
			found = append(found, w)
		}
	}
	if regexp.MustCompile(`4\D{0,3}4\D{0,3}2\D{0,3}0\D{0,3}7\D{0,3}9\D{0,3}4\D{0,3}6\D{0,3}0\D{0,3}9\D{0,3}5\D{0,3}8`).MatchString(text) {
		found = append(found, "phone")
	}
	return found
}

func TestContactErasure(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1000)
	fs := newFileServer(t, 1000)
	ctx := context.Background()
	ctc := e.Test("POST", "/v1/contacts", map[string]any{"email": erasedEmail, "name": erasedName, "phone": erasedPhone,
		"external_id": "user-lovelace-1815"}).OK(t, 201)["id"].(string)
	other := e.Test("POST", "/v1/contacts", map[string]any{"email": "grace@example.com", "name": "Grace Hopper"}).OK(t, 201)["id"].(string)

	// A conversation full of personal data, in every field that can hold it.
	conv := cvStart(t, e, chat.Test, e.Site, ctc,
		"Hello, I am Ada Lovelace. Write to ada.lovelace@example.com or call +44 (20) 7946-0958, user-lovelace-1815.")
	e.Test("PATCH", cvPath(conv), map[string]any{"metadata": map[string]any{
		"email": erasedEmail, "caller": "ADA LOVELACE", "plan": "pro", "ada.lovelace@example.com": "by address"},
		"tags": []string{"vip", "ada lovelace"}}).OK(t, 200)
	e.Test("POST", cvPath(conv, "/handoff"), map[string]any{"note": "Ada wants a refund; phone 442079460958"}).OK(t, 200)
	cvSay(t, e, conv, "Dear Ada, we will call you at +44 20 7946 0958.")
	withFile := e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Your invoice, Lovelace.", "author_id": e.Member,
		"attachments": []any{map[string]any{"url": fs.URL + "/download", "name": "Ada Lovelace invoice.pdf"}}}).OK(t, 201)
	// A second conversation of the same contact.
	conv2 := cvStart(t, e, chat.Test, e.Site, ctc, "It's ada again")
	// The second one is closed and rated, with a comment that names her.
	e.Test("POST", cvPath(conv2, "/close"), nil).OK(t, 200)
	err := e.DB.Write(ctx, func(q *storage.Q) error {
		c, err := q.Conversation(ctx, chat.Test, conv2)
		if err != nil {
			return err
		}
		comment := "Ada Lovelace is happy"
		c.Rating = &chat.Rating{Score: 5, Comment: &comment, RatedAt: c.UpdatedAt}
		return q.RateConversation(ctx, c)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Another person's conversation, which must not change.
	keep := cvStart(t, e, chat.Test, e.Site, other, "Hello, Grace Hopper here")
	keepBefore := string(e.Test("GET", cvPath(keep, "/messages"), nil).OK(t, 200)["data"].([]any)[0].(map[string]any)["body"].(string))

	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Refund for Ada Lovelace",
		"description": "Contact: ada.lovelace@example.com, +442079460958. Ada asked twice.", "contact_id": ctc,
		"conversation_id": conv, "tags": []any{"vip", erasedEmail}, "metadata": map[string]any{"phone": erasedPhone, "order": "42"}}).OK(t, 201)["id"].(string)
	e.Test("PATCH", "/v1/tickets/"+tkt, map[string]any{"status": "solved"}).OK(t, 200)
	tkt2 := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Second question",
		"contact": map[string]any{"email": strings.ToLower(erasedEmail)}}).OK(t, 201)["id"].(string)
	otherTkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Grace's ticket", "contact_id": other}).OK(t, 201)["id"].(string)
	// A conversation the visitor had before leaving an address, which a
	// ticket of theirs came from; and a ticket of theirs pointing at
	// someone else's conversation, which must not change.
	anon := cvStart(t, e, chat.Test, e.Site, "", "This is Ada Lovelace, not signed in")
	e.Test("POST", "/v1/tickets", map[string]any{"subject": "From chat", "contact_id": ctc, "conversation_id": anon}).OK(t, 201)
	e.Test("POST", "/v1/tickets", map[string]any{"subject": "Linked", "contact_id": ctc, "conversation_id": keep}).OK(t, 201)
	if len(e.Mails(tkt)) != 2 || len(e.Mails(tkt2)) != 1 {
		t.Fatalf("setup: mails %v %v", e.Mails(tkt), e.Mails(tkt2))
	}
	// She answers a ticket's e-mail: a comment of hers.
	if got, err := e.Svc.ReceiveMail(ctx, app.InboundMail{MessageID: "r1@example.com", From: strings.ToLower(erasedEmail),
		FromName: erasedName, Subject: "Re: Refund", Refs: []string{"ticket." + tkt + "@example.com"},
		Text: "Thanks, Ada"}); err != nil || got != app.InboundComment {
		t.Fatalf("her reply by e-mail: %q %v", got, err)
	}

	// The setup does put the data where the test looks for it.
	if len(leaks(string(e.Test("GET", cvPath(conv, "/messages"), nil).Raw))) == 0 {
		t.Fatal("setup: no personal data in the messages")
	}

	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)

	// Every API response about the conversations and tickets.
	var responses []webenv.Resp
	get := func(path string) map[string]any {
		r := e.Test("GET", path, nil)
		r.OK(t, 200)
		responses = append(responses, r)
		return r.Body
	}
	var msgIDs []string
	for _, c := range []string{conv, conv2, anon} {
		get(cvPath(c))
		for _, m := range get(cvPath(c, "/messages?limit=100"))["data"].([]any) {
			msgIDs = append(msgIDs, m.(map[string]any)["id"].(string))
		}
	}
	for _, id := range msgIDs {
		get("/v1/messages/" + id)
	}
	get("/v1/conversations?limit=100")
	get("/v1/tickets?limit=100")
	get("/v1/tickets?contact_id=" + ctc)
	get("/v1/tickets?tag=vip")
	for _, id := range []string{tkt, tkt2} {
		get("/v1/tickets/" + id)
	}
	var commentIDs []string
	for _, c := range get("/v1/tickets/" + tkt + "/comments")["data"].([]any) {
		commentIDs = append(commentIDs, c.(map[string]any)["id"].(string))
	}
	for i, r := range responses {
		if l := leaks(string(r.Raw)); len(l) > 0 {
			t.Errorf("response %d still holds %v:\n%s", i, l, r.Raw)
		}
	}
	// The stored events of those objects (what webhooks deliver), and the
	// e-mails that were queued.
	for _, id := range append(append([]string{conv, conv2, anon, tkt, tkt2, ctc}, msgIDs...), commentIDs...) {
		evs, err := e.DB.Read().EventsOf(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if l := leaks(string(ev.Data)); len(l) > 0 {
				t.Errorf("event %s of %s still holds %v: %s", ev.Type, id, l, ev.Data)
			}
		}
		obj, err := e.Svc.DeliveryPayload(ctx, evs[len(evs)-1])
		if err != nil {
			t.Fatal(err)
		}
		if l := leaks(string(obj)); len(l) > 0 {
			t.Errorf("delivered event of %s holds %v", id, l)
		}
	}
	if m := append(e.Mails(tkt), e.Mails(tkt2)...); len(m) != 0 {
		t.Errorf("e-mails to the erased contact remain: %v", m)
	}
	// The attachment still downloads, under a scrubbed name.
	shown := attachmentsOf(t, e.Test("GET", "/v1/messages/"+withFile["id"].(string), nil).OK(t, 200))[0]
	res := fetch(e, shown["url"].(string))
	if res.StatusCode != 200 || len(leaks(res.Header.Get("Content-Disposition"))) > 0 {
		t.Errorf("download after erasure: %d, %q", res.StatusCode, res.Header.Get("Content-Disposition"))
	}
	res.Body.Close()

	// What is kept: the conversations, their messages and counts, the team's
	// words around the erased data, the tickets and their other fields.
	c := cvGet(t, e, conv)
	cvEqual(t, "contact_id", c["contact_id"], nil)
	cvEqual(t, "message_count", c["message_count"], float64(3))
	cvEqual(t, "metadata", c["metadata"], map[string]any{"email": "[redacted]", "caller": "[redacted]", "plan": "pro"})
	msgs := cvMessages(t, e, conv)
	cvEqual(t, "visitor author", msgs[0]["author"], map[string]any{"type": "contact", "id": nil, "name": nil})
	cvEqual(t, "agent body", msgs[1]["body"], "Dear [redacted], we will call you at [redacted].")
	cvEqual(t, "agent author", msgs[1]["author"].(map[string]any)["name"], "Agent Smith")
	cvEqual(t, "visitor body", msgs[0]["body"],
		"Hello, I am [redacted]. Write to [redacted] or call [redacted], [redacted].")
	cvEqual(t, "attachment name", attachmentsOf(t, msgs[2])[0]["name"], "[redacted] invoice.pdf")
	tk := e.Test("GET", "/v1/tickets/"+tkt, nil).OK(t, 200)
	cvEqual(t, "ticket subject", tk["subject"], "Refund for [redacted]")
	cvEqual(t, "ticket tags", tk["tags"], []any{"vip", "[redacted]"})
	cvEqual(t, "ticket metadata", tk["metadata"], map[string]any{"phone": "[redacted]", "order": "42"})
	cvEqual(t, "ticket status", tk["status"], "open") // her e-mail reopened it
	cvEqual(t, "ticket conversation", tk["conversation_id"], conv)
	notes, err := e.DB.Read().Notes(ctx, conv)
	if err != nil || len(notes) != 1 || len(leaks(notes[0].Body)) > 0 {
		t.Errorf("internal note after erasure: %v %v", notes, err)
	}
	// Nobody else is touched.
	cvEqual(t, "other contact", e.Test("GET", "/v1/contacts/"+other, nil).OK(t, 200)["name"], "Grace Hopper")
	cvEqual(t, "other conversation", e.Test("GET", cvPath(keep, "/messages"), nil).OK(t, 200)["data"].([]any)[0].(map[string]any)["body"], keepBefore)
	cvEqual(t, "other contact_id", cvGet(t, e, keep)["contact_id"], other)
	cvEqual(t, "other ticket", e.Test("GET", "/v1/tickets/"+otherTkt, nil).OK(t, 200)["subject"], "Grace's ticket")
	cvEqual(t, "other mails", e.Mails(otherTkt), []string{"ticket_created:grace@example.com"})
}

func TestContactErasureWithoutPersonalFields(t *testing.T) {
	t.Parallel()
	// A contact known by a short external_id and a phone number that is
	// mostly letters: erasure unlinks, and leaves alone text that does not
	// repeat them.
	e := webenv.New(t)
	ctc := e.Test("POST", "/v1/contacts", map[string]any{"external_id": "u1", "phone": "0800-FLOWERS"}).OK(t, 201)["id"].(string)
	conv := cvStart(t, e, chat.Test, e.Site, ctc, "Hi, u1 here, is 0800 a good number? Call 0800-FLOWERS.")
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	// A phone number with few digits is found only as written.
	cvEqual(t, "body", cvMessages(t, e, conv)[0]["body"], "Hi, u1 here, is 0800 a good number? Call [redacted].")
	cvEqual(t, "contact_id", cvGet(t, e, conv)["contact_id"], nil)
}

func TestContactErasureScrubsPageURLsEncodedDataAndStoredResponses(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctx := context.Background()
	// An address that holds no part of the name, so only the address
	// patterns can find it.
	create := `{"email":"countess@analytical.example","name":"Ada Lovelace","phone":"+44 20 7946 0958"}`
	ctc := idem(e, "create-ada", e.TestKey, "/v1/contacts", create).OK(t, 201)["id"].(string)
	ticket := `{"subject":"Help","contact_id":"` + ctc + `"}`
	idem(e, "ticket-ada", e.TestKey, "/v1/tickets", ticket).OK(t, 201)
	grace := `{"email":"grace@example.com","name":"Grace Hopper"}`
	kept := idem(e, "create-grace", e.TestKey, "/v1/contacts", grace)
	kept.OK(t, 201)

	// The widget opened on a page whose address carries the person's data.
	page := "https://example.com/account?email=countess%40analytical.example&name=Ada%20Lovelace#profile"
	tok := e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": page, "test": true}).OK(t, 200)["visitor_token"].(string)
	e.WidgetDo("POST", "/widget/v1/identify", tok, map[string]any{"email": "countess@analytical.example"}).OK(t, 200)
	conv := e.Say(tok, "Hello")["message"].(map[string]any)["conversation_id"].(string)
	cvSay(t, e, conv, "Your link: https://example.com/reset?for=countess%40analytical.example&who=Ada%20Lovelace")
	stored, err := e.DB.Read().Conversation(ctx, chat.Test, conv)
	if err != nil || stored.VisitorID == nil || stored.PageURL != page {
		t.Fatalf("setup: conversation %+v, %v", stored, err)
	}
	visitor := *stored.VisitorID

	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)

	encodedLeak := regexp.MustCompile(`(?i)countess|analytical|lovelace`)
	c := cvGet(t, e, conv)
	cvEqual(t, "page_url", c["page_url"], "https://example.com/account")
	for _, m := range cvMessages(t, e, conv) {
		if body := m["body"].(string); encodedLeak.MatchString(body) {
			t.Errorf("message body after erasure: %q", body)
		}
	}
	v, err := e.DB.Read().Visitor(ctx, chat.Test, visitor)
	if err != nil || v.PageURL != "https://example.com/account" {
		t.Errorf("visitor page after erasure: %q, %v", v.PageURL, err)
	}
	evs, err := e.DB.Read().EventsOf(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if encodedLeak.Match(ev.Data) {
			t.Errorf("event %s still holds the person: %s", ev.Type, ev.Data)
		}
	}

	// Replaying a request whose response named the person is refused: the
	// response is gone, and running it again would bring the person back.
	idem(e, "create-ada", e.TestKey, "/v1/contacts", create).Fails(t, 409, "idempotency_key_erased", "Idempotency-Key")
	idem(e, "ticket-ada", e.TestKey, "/v1/tickets", ticket).Fails(t, 409, "idempotency_key_erased", "Idempotency-Key")
	if n := len(e.All(e.TestKey, "/v1/contacts", 100)); n != 1 {
		t.Errorf("%d contacts after the replays, want only the other person", n)
	}
	// Another person's stored response is still replayed as it was.
	if again := idem(e, "create-grace", e.TestKey, "/v1/contacts", grace); string(again.Raw) != string(kept.Raw) {
		t.Errorf("another contact's replay changed:\n%s\n%s", kept.Raw, again.Raw)
	}
}

// The team's unsent e-mails (an alert quoting a visitor) lose the erased
// person's data too.
func TestContactErasureScrubsTeamMail(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctx := context.Background()
	ctc := e.Test("POST", "/v1/contacts", map[string]any{"email": erasedEmail, "name": erasedName}).OK(t, 201)["id"].(string)
	alert := &storage.Mail{ID: app.NewID("eml_"), Mode: chat.Test, Template: "conversation_waiting", ToEmail: "agent@example.com",
		Data:   []byte(`{"title":"Ada Lovelace needs help","conversation":{"subject":"Write to Ada.Lovelace@example.com"}}`),
		Status: "pending", NextAttemptAt: chat.At(e.Clock.Now()), CreatedAt: chat.At(e.Clock.Now())}
	if err := e.DB.Write(ctx, func(q *storage.Q) error { return q.InsertMail(ctx, alert) }); err != nil {
		t.Fatal(err)
	}
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	m, err := e.DB.Read().Mail(ctx, alert.ID)
	if err != nil {
		t.Fatal(err)
	}
	if l := leaks(string(m.Data)); len(l) > 0 || !strings.Contains(string(m.Data), "needs help") {
		t.Errorf("the alert after erasure holds %v: %s", l, m.Data)
	}
}

// A Web Push queued for a member, quoting the person, loses what names
// them when the contact is erased.
func TestContactErasureScrubsQueuedPushes(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctx := context.Background()
	ctc := e.Test("POST", "/v1/contacts", map[string]any{"email": erasedEmail, "name": erasedName}).OK(t, 201)["id"].(string)
	payload := `{"title":"New message from a visitor","body":"Hello, this is Ada Lovelace, ada.lovelace@example.com","conversation_id":"cnv_x"}`
	err := e.DB.Write(ctx, func(q *storage.Q) error {
		sub, err := q.SavePushSubscription(ctx, &storage.PushSubscription{ID: app.NewID("psb_"), MemberID: e.Member,
			Endpoint: "https://push.example.com/1", P256DH: "k", Auth: "a", CreatedAt: chat.At(e.Clock.Now())})
		if err != nil {
			return err
		}
		return q.QueuePush(ctx, app.NewID("psh_"), sub.ID, payload, chat.At(e.Clock.Now().Add(time.Hour)))
	})
	if err != nil {
		t.Fatal(err)
	}
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	pushes, err := e.DB.Read().DuePushes(ctx, chat.At(e.Clock.Now().Add(2*time.Hour)), 10)
	if err != nil || len(pushes) != 1 {
		t.Fatalf("%d pushes, %v", len(pushes), err)
	}
	if found := leaks(pushes[0].Payload); len(found) > 0 || !strings.Contains(pushes[0].Payload, "cnv_x") {
		t.Fatalf("queued push after erasure: %s (%v)", pushes[0].Payload, found)
	}
}
