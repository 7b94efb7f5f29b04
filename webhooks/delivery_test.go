package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	stripewebhook "github.com/stripe/stripe-go/v84/webhook"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/webhooks"
)

func TestSignatureAndPayload(t *testing.T) {
	t.Parallel()
	// The real time, so the third-party verifier's five-minute check passes.
	start := time.Now().UTC().Truncate(time.Millisecond)
	e := newEnv(t, setup{start: start})
	rc := e.receiver(nil)
	_, secret := e.endpoint(rc.URL(), "ticket.created")
	contact := e.contact("ada@example.com")
	tk := e.ticket(contact, `Printer <on> "fire" & smoke`)
	want := e.ok(200, "GET", "/v1/tickets/"+tk, nil)
	e.flush()

	hits := rc.Hits()
	if len(hits) != 1 {
		t.Fatalf("%d requests, want 1", len(hits))
	}
	h := hits[0]
	sig := h.Header.Get("Service-Signature")
	m := regexp.MustCompile(`^t=(\d+),v1=([0-9a-f]{64})$`).FindStringSubmatch(sig)
	if m == nil {
		t.Fatalf("Service-Signature %q", sig)
	}
	if m[1] != strconv.FormatInt(start.Unix(), 10) {
		t.Fatalf("t=%s, want the send time %d", m[1], start.Unix())
	}
	mac := hmac.New(sha256.New, []byte(secret)) // keyed with the whole secret, whsec_ included
	mac.Write([]byte(m[1] + "."))
	mac.Write(h.Body)
	if !hmac.Equal([]byte(m[2]), []byte(hex.EncodeToString(mac.Sum(nil)))) {
		t.Fatal("v1 is not HMAC-SHA256(secret, t + '.' + body)")
	}
	// A third-party verifier of the same scheme accepts it, tolerance included…
	if err := stripewebhook.ValidatePayload(h.Body, sig, secret); err != nil {
		t.Fatalf("stripe-go rejects our signature: %v", err)
	}
	// …and rejects a changed body or another secret.
	if stripewebhook.ValidatePayload(append([]byte(" "), h.Body...), sig, secret) == nil ||
		stripewebhook.ValidatePayload(h.Body, sig, secret+"x") == nil {
		t.Fatal("stripe-go accepts a tampered delivery: the test proves nothing")
	}
	if ct := h.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}

	var p map[string]any
	if err := json.Unmarshal(h.Body, &p); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if join(keys) != "created_at,data,id,livemode,object,type" {
		t.Fatalf("payload fields %v", keys)
	}
	if !strings.HasPrefix(p["id"].(string), "evt_") || p["object"] != "event" || p["type"] != "ticket.created" ||
		p["livemode"] != false || p["created_at"] != start.Format(chat.TimeLayout) {
		t.Fatalf("payload %v", p)
	}
	if got := p["data"].(map[string]any)["object"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("data.object\n%v\nwant the API's ticket\n%v", got, want)
	}
	if !strings.Contains(string(h.Body), `Printer <on> \"fire\" & smoke`) {
		t.Fatalf("body escapes differently from the API: %s", h.Body)
	}
	// The same event through the API.
	ev := e.ok(200, "GET", "/v1/events/"+p["id"].(string), nil)
	var again map[string]any
	b, _ := json.Marshal(ev)
	json.Unmarshal(b, &again)
	if !reflect.DeepEqual(again, p) {
		t.Fatalf("GET /v1/events/{id}\n%v\nwant the payload\n%v", again, p)
	}
}

func TestLivemodeFollowsTheKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	rc := e.receiver(nil)
	code, out := e.call("POST", "/v1/webhook-endpoints", e.liveKey, map[string]any{"url": rc.URL(), "events": []string{"*"}})
	if code != 201 {
		t.Fatalf("%d %v", code, out)
	}
	e.contact("test@example.com") // test mode: not for the live endpoint
	if code, out := e.call("POST", "/v1/contacts", e.liveKey, map[string]any{"email": "live@example.com"}); code != 201 {
		t.Fatalf("%d %v", code, out)
	}
	e.flush()
	hits := rc.Hits()
	if len(hits) != 1 || !strings.Contains(string(hits[0].Body), `"livemode":true`) ||
		!strings.Contains(string(hits[0].Body), "live@example.com") {
		t.Fatalf("live endpoint got %d requests: %v", len(hits), rc.Types())
	}
}

func TestEveryEventTypeFiresOnceForItsAction(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	rc := e.receiver(nil)
	e.endpoint(rc.URL(), "*")
	ctx := context.Background()
	var contact, ticket, conv string
	cases := []struct {
		action string
		do     func()
		want   []string
	}{
		{"create contact", func() { contact = e.contact("ada@example.com") }, []string{"contact.created"}},
		{"create ticket", func() { ticket = e.ticket(contact, "Refund") }, []string{"ticket.created"}},
		{"ticket for a new e-mail", func() {
			e.ok(201, "POST", "/v1/tickets", map[string]any{"subject": "Hi", "contact": map[string]any{"email": "new@example.com"}})
		}, []string{"contact.created", "ticket.created"}},
		{"change priority", func() { e.ok(200, "PATCH", "/v1/tickets/"+ticket, map[string]any{"priority": "high"}) },
			[]string{"ticket.updated"}},
		{"solve", func() { e.ok(200, "PATCH", "/v1/tickets/"+ticket, map[string]any{"status": "solved"}) },
			[]string{"ticket.updated", "ticket.solved"}},
		{"change subject only", func() { e.ok(200, "PATCH", "/v1/tickets/"+ticket, map[string]any{"subject": "x"}) }, nil},
		{"comment on a ticket", func() {
			e.ok(201, "POST", "/v1/tickets/"+ticket+"/comments", map[string]any{"body": "Refunded.", "author_id": e.member})
		}, []string{"ticket_comment.created"}},
		{"visitor's first message", func() {
			c, _, err := e.svc.StartConversation(ctx, chat.Test, app.VisitorStart{SiteID: e.site, PageURL: "https://example.com/", Body: "Hello"})
			if err != nil {
				t.Fatal(err)
			}
			conv = c.ID
		}, []string{"conversation.created", "message.created"}},
		{"hand-off", func() { e.ok(200, "POST", "/v1/conversations/"+conv+"/handoff", nil) }, []string{"conversation.handed_off"}},
		{"agent message", func() {
			e.ok(201, "POST", "/v1/conversations/"+conv+"/messages", map[string]any{"body": "Hi!", "author_id": e.member})
		}, []string{"message.created"}},
		{"close", func() { e.ok(200, "POST", "/v1/conversations/"+conv+"/close", nil) }, []string{"conversation.closed"}},
		{"close again", func() { e.ok(200, "POST", "/v1/conversations/"+conv+"/close", nil) }, nil},
		{"a visitor rates a closed conversation", func() {
			sess, err := e.svc.StartSession(ctx, app.SessionStart{SiteID: app.Value(e.site),
				PageURL: app.Value("https://example.com/"), Test: app.Value(true)})
			if err != nil {
				t.Fatal(err)
			}
			v, err := e.svc.Visit(ctx, sess.VisitorToken, app.Origin{})
			if err != nil {
				t.Fatal(err)
			}
			ex, err := e.svc.PostVisitorMessage(ctx, v, app.VisitorMessage{Body: app.Value("Thanks, bye")})
			if err != nil {
				t.Fatal(err)
			}
			e.ok(200, "POST", "/v1/conversations/"+ex.Message.ConversationID+"/close", nil)
			if _, err := e.svc.RateConversation(ctx, v, app.VisitorRating{Score: app.Value(5)}); err != nil {
				t.Fatal(err)
			}
		}, []string{"conversation.created", "message.created", "conversation.closed", "conversation.rated"}},
		{"knowledge source events", func() {
			for _, typ := range []string{"knowledge_source.ready", "knowledge_source.failed"} {
				err := e.db.Write(ctx, func(q *storage.Q) error {
					return q.InsertEvent(ctx, &chat.Event{ID: app.NewID("evt_"), Mode: chat.Test, Type: typ,
						ObjectID: "src_1", Data: json.RawMessage(`{"id":"src_1","object":"knowledge_source"}`), CreatedAt: chat.At(t0)})
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}, []string{"knowledge_source.ready", "knowledge_source.failed"}},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		before := len(rc.Hits())
		c.do()
		e.flush()
		e.flush() // a second round sends nothing more
		// Order of arrival is not guaranteed (docs/webhooks.md): compare as sets.
		got := slices.Sorted(slices.Values(rc.Types()[before:]))
		if join(got) != join(slices.Sorted(slices.Values(c.want))) {
			t.Fatalf("%s: receiver got %v, want %v", c.action, got, c.want)
		}
		for _, h := range rc.Hits()[before:] {
			if seen[h.EventID] {
				t.Fatalf("%s: event %s delivered twice", c.action, h.EventID)
			}
			seen[h.EventID] = true
		}
	}
	for _, typ := range app.WebhookEventTypes {
		if !slices.Contains(rc.Types(), typ) {
			t.Errorf("event type %s never delivered", typ)
		}
	}
}

func TestSubscriptionsModesAndTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	tickets, all, live, off := e.receiver(nil), e.receiver(nil), e.receiver(nil), e.receiver(nil)
	contact := e.contact("ada@example.com") // before any endpoint: goes nowhere
	e.endpoint(tickets.URL(), "ticket.created", "ticket.solved")
	e.endpoint(all.URL(), "*")
	if code, out := e.call("POST", "/v1/webhook-endpoints", e.liveKey, map[string]any{"url": live.URL(), "events": []string{"*"}}); code != 201 {
		t.Fatalf("%d %v", code, out)
	}
	offID, _ := e.endpoint(off.URL(), "*")
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+offID, map[string]any{"enabled": false})
	tk := e.ticket(contact, "Broken")
	e.ok(200, "PATCH", "/v1/tickets/"+tk, map[string]any{"status": "solved"})
	e.flush()
	late := e.receiver(nil)
	e.endpoint(late.URL(), "*") // created after those events: gets none of them
	e.flush()

	for _, c := range []struct {
		name string
		rc   *testenv.Receiver
		want string
	}{
		{"ticket.created+solved", tickets, "ticket.created,ticket.solved"},
		{"*", all, "ticket.created,ticket.solved,ticket.updated"},
		{"live mode", live, ""},
		{"disabled", off, ""},
		{"created later", late, ""},
	} {
		if got := join(slices.Sorted(slices.Values(c.rc.Types()))); got != c.want {
			t.Errorf("%s endpoint got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSubscriptionAsOfTheEventsTime changes endpoints before the fan-out
// worker ran: each event still goes where the subscriptions pointed when it
// was written.
func TestSubscriptionAsOfTheEventsTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	narrowed, paused := e.receiver(nil), e.receiver(nil)
	nID, _ := e.endpoint(narrowed.URL(), "*")
	pID, _ := e.endpoint(paused.URL(), "*")
	e.contact("before@example.com") // not fanned out yet: no flush
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+nID, map[string]any{"events": []string{"ticket.created"}})
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+pID, map[string]any{"enabled": false})
	e.contact("after@example.com")
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+pID, map[string]any{"enabled": true})
	e.flush()
	for name, rc := range map[string]*testenv.Receiver{"narrowed": narrowed, "paused": paused} {
		hits := rc.Hits()
		if len(hits) != 1 || !strings.Contains(string(hits[0].Body), "before@example.com") {
			t.Errorf("%s endpoint: %d requests, want only the contact written before the change", name, len(hits))
		}
	}
}

// TestRetryScheduleGiveUpDisableMailAndReEnable follows one event to an
// endpoint that always fails through the default schedule: 1m, 5m, 30m,
// 2h, then every 6h, a last attempt when the 72h window closes, then the
// endpoint is disabled and the owner e-mailed. Re-enabling resumes the
// deliveries still queued.
func TestRetryScheduleGiveUpDisableMailAndReEnable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	var failing atomic.Bool
	failing.Store(true)
	rc := e.receiver(func(int, *http.Request) int {
		if failing.Load() {
			return 503
		}
		return 204
	})
	id, _ := e.endpoint(rc.URL(), "ticket.created")
	contact := e.contact("ada@example.com")
	e.ticket(contact, "First")

	want := []time.Duration{0, time.Minute, 6 * time.Minute, 36 * time.Minute, 2*time.Hour + 36*time.Minute}
	for d := 8*time.Hour + 36*time.Minute; d < 72*time.Hour; d += 6 * time.Hour {
		want = append(want, d)
	}
	want = append(want, 72*time.Hour)
	var second string
	firstHits := func() []testenv.Hit {
		var out []testenv.Hit
		for _, h := range rc.Hits() {
			if h.EventID == rc.Hits()[0].EventID {
				out = append(out, h)
			}
		}
		return out
	}
	for i, d := range want {
		if i > 0 {
			e.at(d - time.Millisecond)
			e.flush()
			if n := len(firstHits()); n != i {
				t.Fatalf("attempt %d came before %v (%d attempts)", i+1, d, n)
			}
		}
		if d == 68*time.Hour+36*time.Minute {
			// Another event while failing: it is queued, and still waiting
			// when the endpoint is disabled.
			e.at(d - time.Second)
			second = e.ticket(contact, "Second")
		}
		e.at(d)
		e.flush()
		hits := firstHits()
		if len(hits) != i+1 {
			t.Fatalf("attempt %d not made at %v (%d attempts)", i+1, d, len(hits))
		}
		if last := hits[i]; !last.At.Equal(t0.Add(d)) {
			t.Fatalf("attempt %d at %v, want %v", i+1, last.At.Sub(t0), d)
		}
	}
	if len(want) != 17 {
		t.Fatalf("schedule has %d attempts: %v", len(want), want)
	}

	// Given up and disabled, with one e-mail to the owner.
	ep := e.ok(200, "GET", "/v1/webhook-endpoints/"+id, nil)
	if ep["enabled"] != false {
		t.Fatalf("endpoint still enabled after failing 72h: %v", ep)
	}
	mails := e.mails(app.MailWebhookEndpointDisabled)
	if len(mails) != 1 || mails[0].ToEmail != "owner@example.com" {
		t.Fatalf("disable e-mails: %+v", mails)
	}
	var data struct {
		Endpoint map[string]any `json:"endpoint"`
		Reason   string         `json:"reason"`
	}
	if err := json.Unmarshal(mails[0].Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Endpoint["id"] != id || data.Endpoint["enabled"] != false || data.Reason != "HTTP 503" {
		t.Fatalf("e-mail data %s", mails[0].Data)
	}
	if _, leaked := data.Endpoint["secret"]; leaked || strings.Contains(string(mails[0].Data), "whsec_") {
		t.Fatalf("e-mail data carries the secret: %s", mails[0].Data)
	}
	n := len(rc.Hits())
	e.at(100 * time.Hour)
	e.flush()
	if len(rc.Hits()) != n {
		t.Fatal("a disabled endpoint still receives")
	}
	contact2 := e.contact("bob@example.com")
	e.ticket(contact2, "While disabled") // not for a disabled endpoint, ever
	e.flush()

	// The attempt log: 17 attempts for the first event, with their retries.
	list := e.ok(200, "GET", "/v1/webhook-endpoints/"+id+"/deliveries?limit=100", nil)
	var firstID string
	for _, a := range list["data"].([]any) {
		if a.(map[string]any)["attempt"] == float64(17) {
			firstID = a.(map[string]any)["event_id"].(string)
		}
	}
	log := e.ok(200, "GET", "/v1/webhook-endpoints/"+id+"/deliveries?limit=100&event_id="+firstID, nil)["data"].([]any)
	if len(log) != 17 {
		t.Fatalf("%d attempts logged for the first event, want 17", len(log))
	}
	for i, a := range log { // newest first
		a := a.(map[string]any)
		k := 16 - i
		if a["attempt"] != float64(k+1) || a["status_code"] != float64(503) || a["delivered"] != false ||
			a["created_at"] != t0.Add(want[k]).Format(chat.TimeLayout) {
			t.Fatalf("attempt %d logged as %v", k+1, a)
		}
		next := a["next_attempt_at"]
		if k == 16 && next != nil || k < 16 && next != t0.Add(want[k+1]).Format(chat.TimeLayout) {
			t.Fatalf("attempt %d: next_attempt_at %v", k+1, next)
		}
	}

	// Re-enabled: the queued second event goes at once, the one written
	// while disabled never.
	failing.Store(false)
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": true})
	e.flush()
	hits := rc.Hits()[n:]
	if len(hits) != 1 || !strings.Contains(string(hits[0].Body), second) {
		t.Fatalf("after re-enabling: %d requests, want the queued second ticket", len(hits))
	}
	if e.queued() != 0 {
		t.Fatalf("%d deliveries still queued", e.queued())
	}
	if len(e.mails(app.MailWebhookEndpointDisabled)) != 1 {
		t.Fatal("a second e-mail")
	}
}

func TestReEnablingSendsQueuedDeliveriesAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	var fail atomic.Bool
	fail.Store(true)
	rc := e.receiver(func(int, *http.Request) int {
		if fail.Load() {
			return 500
		}
		return 200
	})
	id, _ := e.endpoint(rc.URL(), "*")
	e.contact("ada@example.com")
	e.flush() // fails; next attempt at t0+1m
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": false})
	e.at(2 * time.Minute)
	e.flush()
	if len(rc.Hits()) != 1 {
		t.Fatal("a disabled endpoint received a retry")
	}
	fail.Store(false)
	e.at(2*time.Minute + time.Second)
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": true})
	e.flush()
	if len(rc.Hits()) != 2 || !rc.Hits()[1].At.Equal(t0.Add(2*time.Minute+time.Second)) || e.queued() != 0 {
		t.Fatalf("after re-enabling: %d requests, %d queued", len(rc.Hits()), e.queued())
	}
	// Re-enabled again later: a queued retry goes at once, not at its time.
	fail.Store(true)
	e.contact("bob@example.com")
	e.flush() // fails; next attempt one minute later
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": false})
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": true})
	e.flush()
	if len(rc.Hits()) != 4 {
		t.Fatalf("%d requests: re-enabling must make the queued retry due at once", len(rc.Hits()))
	}
}

func TestSuccessAfterFailures(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	rc := e.receiver(func(n int, _ *http.Request) int {
		if n < 2 {
			return 500
		}
		return 200
	})
	id, _ := e.endpoint(rc.URL(), "contact.created")
	e.contact("ada@example.com")
	for _, d := range []time.Duration{0, time.Minute, 6 * time.Minute, 7 * time.Hour} {
		e.at(d)
		e.flush()
	}
	hits := rc.Hits()
	if len(hits) != 3 || hits[0].EventID != hits[2].EventID {
		t.Fatalf("%d requests, want 3 of the same event", len(hits))
	}
	log := e.ok(200, "GET", "/v1/webhook-endpoints/"+id+"/deliveries", nil)["data"].([]any)
	var codes []string
	for _, a := range log {
		a := a.(map[string]any)
		codes = append(codes, strconv.Itoa(int(a["status_code"].(float64)))+"/"+strconv.FormatBool(a["delivered"].(bool)))
		if strings.HasPrefix(a["id"].(string), "whd_") == false || a["object"] != "webhook_delivery" {
			t.Fatalf("delivery %v", a)
		}
	}
	if join(codes) != "200/true,500/false,500/false" {
		t.Fatalf("attempt log %v", codes)
	}
	if last := log[0].(map[string]any); last["next_attempt_at"] != nil || last["error"] != nil {
		t.Fatalf("successful attempt %v", last)
	}
	if e.queued() != 0 {
		t.Fatal("delivered but still queued")
	}
	// Later failures start a new failing period, not one dating from the first.
	ep, err := e.db.Read().WebhookEndpoint(context.Background(), chat.Test, id)
	if err != nil || ep.FailingSince != nil {
		t.Fatalf("failing_since %v after a success (%v)", ep.FailingSince, err)
	}
}

func TestDeletingAnEndpointStopsDelivery(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	rc := e.receiver(always(500))
	id, _ := e.endpoint(rc.URL(), "*")
	e.contact("ada@example.com")
	e.flush()
	if len(rc.Hits()) != 1 {
		t.Fatal("no first attempt")
	}
	e.ok(200, "DELETE", "/v1/webhook-endpoints/"+id, nil)
	e.contact("bob@example.com")
	for _, d := range []time.Duration{time.Minute, time.Hour, 80 * time.Hour} {
		e.at(d)
		e.flush()
	}
	if n := len(rc.Hits()); n != 1 || e.queued() != 0 {
		t.Fatalf("%d requests and %d queued after deletion", n, e.queued())
	}
}

func TestHangingReceiverIsCutAtTheTimeout(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	e := newEnv(t, setup{timeout: timeout})
	release := make(chan struct{})
	defer close(release)
	rc := e.receiver(func(_ int, r *http.Request) int {
		select { // hang until the sender gives up (or the test ends)
		case <-r.Context().Done():
		case <-release:
		}
		return 200
	})
	id, _ := e.endpoint(rc.URL(), "*")
	e.contact("ada@example.com")
	start := time.Now()
	e.flush()
	if took := time.Since(start); took < timeout || took > 10*timeout {
		t.Fatalf("attempt took %v with a %v timeout", took, timeout)
	}
	a := e.ok(200, "GET", "/v1/webhook-endpoints/"+id+"/deliveries", nil)["data"].([]any)[0].(map[string]any)
	if a["delivered"] != false || a["status_code"] != nil || a["error"] != "timed out after 300ms" ||
		a["duration_ms"].(float64) < 300 || a["next_attempt_at"] != t0.Add(time.Minute).Format(chat.TimeLayout) {
		t.Fatalf("attempt %v", a)
	}
}

func TestSlowEndpointDoesNotDelayHealthyOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{opts: webhooks.Options{PerEndpoint: 2}})
	release := make(chan struct{})
	var slowNow, slowMax atomic.Int32
	slow := e.receiver(func(_ int, r *http.Request) int {
		n := slowNow.Add(1)
		defer slowNow.Add(-1)
		for m := slowMax.Load(); n > m && !slowMax.CompareAndSwap(m, n); m = slowMax.Load() {
		}
		<-release
		return 200
	})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // runs before the receiver's server closes
	healthy := e.receiver(nil)
	e.endpoint(slow.URL(), "*")
	e.endpoint(healthy.URL(), "*")

	e.runWorkers(free)
	const events = 20
	for i := 0; i < events; i++ {
		e.contact("c" + strconv.Itoa(i) + "@example.com")
	}
	testenv.Until(t, healthy.Arrived(), "the healthy endpoint gets every event", func() bool { return len(healthy.Hits()) == events })
	if n := len(slow.Hits()); n > 2 || slowMax.Load() > 2 {
		t.Fatalf("slow endpoint: %d requests started, %d at once; want at most 2 (its bound)", n, slowMax.Load())
	}
	free()
	testenv.Eventually(t, "the slow endpoint catches up", func() bool { return len(slow.Hits()) >= events && e.queued() == 0 })
	for _, rc := range []*testenv.Receiver{healthy, slow} {
		ids := map[string]bool{}
		for _, h := range rc.Hits() {
			if ids[h.EventID] {
				t.Fatalf("event %s sent twice", h.EventID)
			}
			ids[h.EventID] = true
		}
		if len(ids) != events {
			t.Fatalf("%d distinct events, want %d", len(ids), events)
		}
	}
}

// runWorkers runs the deliverer's loops until the test ends; before they
// stop (and before the database closes), release is called.
func (e *env) runWorkers(release func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, w := range e.d.Workers() {
		wg.Add(1)
		go func() { defer wg.Done(); w.Run(ctx) }()
	}
	e.t.Cleanup(func() { release(); cancel(); wg.Wait() })
}

// A resend is sent at once, not at the sender's next look for retries.
func TestResendIsSentAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{opts: webhooks.Options{Every: time.Hour}})
	rc := e.receiver(nil)
	e.endpoint(rc.URL(), "*")
	e.runWorkers(func() {})
	e.contact("ada@example.com")
	testenv.Until(t, rc.Arrived(), "the event is delivered", func() bool { return len(rc.Hits()) == 1 })
	ev := rc.Hits()[0].EventID
	e.ok(202, "POST", "/v1/events/"+ev+"/resend", nil)
	testenv.Until(t, rc.Arrived(), "the resend is delivered", func() bool { return len(rc.Hits()) == 2 })
	if got := rc.Hits()[1].EventID; got != ev {
		t.Fatalf("resent %s, want %s", got, ev)
	}
}

// A resend made while the first send of the same event is still in flight
// is not ended by that send's success: the event is delivered again, and
// both attempts are logged.
func TestResendWhileTheFirstSendIsInFlight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{opts: webhooks.Options{Every: time.Hour}})
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	rc := e.receiver(func(n int, _ *http.Request) int {
		if n == 0 {
			<-release // the first send waits here until the resend is queued
		}
		return 200
	})
	t.Cleanup(free) // runs before the receiver's server closes
	id, _ := e.endpoint(rc.URL(), "*")
	e.runWorkers(free)
	e.contact("ada@example.com")
	testenv.Until(t, rc.Arrived(), "the first send reaches the receiver", func() bool { return len(rc.Hits()) == 1 })
	ev := rc.Hits()[0].EventID
	e.ok(202, "POST", "/v1/events/"+ev+"/resend", nil)
	free()
	testenv.Until(t, rc.Arrived(), "the resend is delivered", func() bool { return len(rc.Hits()) == 2 })
	testenv.Eventually(t, "the resend is recorded", func() bool { return e.queued() == 0 })
	if got := rc.Hits()[1].EventID; got != ev {
		t.Fatalf("resent %s, want %s", got, ev)
	}
	testenv.Eventually(t, "both attempts are logged", func() bool {
		return len(e.ok(200, "GET", "/v1/webhook-endpoints/"+id+"/deliveries", nil)["data"].([]any)) == 2
	})
}

// TestDisablingKeepsEventsWrittenBeforeIt: an event written before the
// attempt that disables an endpoint, but not yet fanned out, is still owed
// to it and goes out once it is re-enabled.
func TestDisablingKeepsEventsWrittenBeforeIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	var fail atomic.Bool
	fail.Store(true)
	rc := e.receiver(func(int, *http.Request) int {
		if fail.Load() {
			return 500
		}
		return 200
	})
	id, _ := e.endpoint(rc.URL(), "*")
	e.contact("first@example.com")
	e.flush() // fails at t0: the endpoint is failing from now on
	e.at(72 * time.Hour)
	e.contact("second@example.com") // written; the fan-out worker has not run
	send := e.d.Workers()[1]        // the send loop alone: no fan-out first
	if _, err := send.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	send.Drain()
	if ep := e.ok(200, "GET", "/v1/webhook-endpoints/"+id, nil); ep["enabled"] != false {
		t.Fatalf("not disabled after failing 72h: %v", ep)
	}
	fail.Store(false)
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": true})
	e.flush()
	hits := rc.Hits()
	if last := hits[len(hits)-1]; len(hits) != 3 || !strings.Contains(string(last.Body), "second@example.com") {
		t.Fatalf("%d requests; the event written before the disabling must follow the re-enabling", len(hits))
	}
}
