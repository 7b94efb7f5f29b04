package webhooks_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	stripewebhook "github.com/stripe/stripe-go/v84/webhook"

	"chatsvc/app"
)

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{hooks: func(o *app.WebhookOptions) { o.AllowHTTP, o.AllowPrivate = false, false }})
	ok := "https://hooks.example.com/in"
	for _, c := range []struct {
		name        string
		body        any
		code, param string
	}{
		{"no url", map[string]any{"events": []string{"*"}}, "parameter_missing", "url"},
		{"no events", map[string]any{"url": ok}, "parameter_missing", "events"},
		{"http without allow_http", map[string]any{"url": "http://hooks.example.com/", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"ftp", map[string]any{"url": "ftp://hooks.example.com/", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"relative", map[string]any{"url": "/hook", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"credentials", map[string]any{"url": "https://u:p@hooks.example.com/", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"empty url", map[string]any{"url": "", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"private literal", map[string]any{"url": "https://10.0.0.1/", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"loopback literal", map[string]any{"url": "https://[::1]/", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"NAT64 of the metadata address", map[string]any{"url": "https://[64:ff9b::a9fe:a9fe]/", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"6to4 of a private address", map[string]any{"url": "https://[2002:a00:1::1]/", "events": []string{"*"}}, "parameter_invalid", "url"},
		{"url too long", map[string]any{"url": ok + "?" + strings.Repeat("a", 2048), "events": []string{"*"}}, "parameter_invalid", "url"},
		{"url not a string", map[string]any{"url": 5, "events": []string{"*"}}, "parameter_invalid", "url"},
		{"events empty", map[string]any{"url": ok, "events": []string{}}, "parameter_invalid", "events"},
		{"events not strings", map[string]any{"url": ok, "events": []int{1}}, "parameter_invalid", "events"},
		{"unknown type", map[string]any{"url": ok, "events": []string{"ticket.created", "ticket.exploded"}}, "parameter_invalid", "events.1"},
		{"ping is not subscribable", map[string]any{"url": ok, "events": []string{"ping"}}, "parameter_invalid", "events.0"},
		{"* with others", map[string]any{"url": ok, "events": []string{"ticket.created", "*"}}, "parameter_invalid", "events.1"},
		{"description too long", map[string]any{"url": ok, "events": []string{"*"}, "description": strings.Repeat("d", 501)}, "parameter_invalid", "description"},
		{"enabled on create", map[string]any{"url": ok, "events": []string{"*"}, "enabled": false}, "parameter_unknown", "enabled"},
		{"secret on create", map[string]any{"url": ok, "events": []string{"*"}, "secret": "whsec_x"}, "parameter_unknown", "secret"},
		{"null events", map[string]any{"url": ok, "events": nil}, "parameter_invalid", "events"},
	} {
		e.fails(e.key, 400, c.code, c.param, "POST", "/v1/webhook-endpoints", c.body)
	}
	// Limits are inclusive.
	e.ok(201, "POST", "/v1/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/" + strings.Repeat("a", 2048-26),
		"events": []string{"ticket.created", "ticket.created"}, "description": strings.Repeat("d", 500)})
}

func TestEndpointLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	out := e.ok(201, "POST", "/v1/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/a",
		"events": []string{"ticket.created", "ticket.created", "contact.created"}, "description": "CRM"})
	id, secret := out["id"].(string), out["secret"].(string)
	if !regexp.MustCompile(`^whe_[0-9A-Za-z]{24}$`).MatchString(id) || !regexp.MustCompile(`^whsec_[0-9A-Za-z]{32}$`).MatchString(secret) {
		t.Fatalf("id %q secret %q", id, secret)
	}
	fields := func(o map[string]any) string {
		var k []string
		for f := range o {
			k = append(k, f)
		}
		slices.Sort(k)
		return join(k)
	}
	if fields(out) != "created_at,description,enabled,events,id,object,secret,url" || out["object"] != "webhook_endpoint" ||
		out["enabled"] != true || out["description"] != "CRM" {
		t.Fatalf("creation response %v", out)
	}
	if got, _ := json.Marshal(out["events"]); string(got) != `["ticket.created","contact.created"]` {
		t.Fatalf("events %s (duplicates dropped, order kept)", got)
	}
	// The secret never shows again.
	for _, o := range []map[string]any{
		e.ok(200, "GET", "/v1/webhook-endpoints/"+id, nil),
		e.ok(200, "GET", "/v1/webhook-endpoints", nil)["data"].([]any)[0].(map[string]any),
		e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"url": "https://hooks.example.com/b",
			"events": []string{"*"}, "enabled": false, "description": nil}),
	} {
		if fields(o) != "created_at,description,enabled,events,id,object,url" {
			t.Fatalf("fields %s in %v", fields(o), o)
		}
	}
	got := e.ok(200, "GET", "/v1/webhook-endpoints/"+id, nil)
	if got["url"] != "https://hooks.example.com/b" || got["enabled"] != false || got["description"] != nil {
		t.Fatalf("after PATCH: %v", got)
	}
	e.fails(e.key, 400, "parameter_invalid", "events.0", "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"events": []string{"nope"}})
	e.fails(e.key, 400, "parameter_invalid", "enabled", "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": "yes"})
	e.fails(e.key, 400, "parameter_unknown", "secret", "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"secret": "x"})
	// Another mode cannot see it.
	for _, m := range []string{"GET", "PATCH", "DELETE"} {
		e.fails(e.liveKey, 404, "resource_missing", "id", m, "/v1/webhook-endpoints/"+id, nil)
	}
	e.fails(e.liveKey, 404, "resource_missing", "id", "POST", "/v1/webhook-endpoints/"+id+"/test", nil)
	e.fails(e.liveKey, 404, "resource_missing", "id", "GET", "/v1/webhook-endpoints/"+id+"/deliveries", nil)
	if code, out := e.call("GET", "/v1/webhook-endpoints", e.liveKey, nil); code != 200 || len(out["data"].([]any)) != 0 {
		t.Fatalf("live list: %d %v", code, out)
	}
	d := e.ok(200, "DELETE", "/v1/webhook-endpoints/"+id, nil)
	if d["id"] != id || d["object"] != "webhook_endpoint" || d["deleted"] != true {
		t.Fatalf("deleted envelope %v", d)
	}
	e.fails(e.key, 404, "resource_missing", "id", "GET", "/v1/webhook-endpoints/"+id, nil)
	e.fails(e.key, 404, "resource_missing", "id", "DELETE", "/v1/webhook-endpoints/"+id, nil)
}

func TestEndpointListPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	var want []string
	for i := 0; i < 7; i++ {
		id, _ := e.endpoint("https://hooks.example.com/"+string(rune('a'+i)), "*")
		want = append([]string{id}, want...) // newest first
	}
	var got []string
	path := "/v1/webhook-endpoints?limit=3"
	for {
		page := e.ok(200, "GET", path, nil)
		for _, o := range page["data"].([]any) {
			got = append(got, o.(map[string]any)["id"].(string))
		}
		if page["has_more"] != true {
			break
		}
		path = "/v1/webhook-endpoints?limit=3&cursor=" + page["next_cursor"].(string)
	}
	if join(got) != join(want) {
		t.Fatalf("pages %v, want %v", got, want)
	}
	e.fails(e.key, 400, "parameter_invalid", "limit", "GET", "/v1/webhook-endpoints?limit=101", nil)
	e.fails(e.key, 400, "parameter_unknown", "enabled", "GET", "/v1/webhook-endpoints?enabled=true", nil)
}

func TestWebhooksDisabledPlan(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{hooks: func(o *app.WebhookOptions) { o.Disabled = true }})
	ev := e.contact("ada@example.com") // events still exist and can be read
	_ = ev
	for _, r := range []struct{ method, path string }{
		{"POST", "/v1/webhook-endpoints"}, {"GET", "/v1/webhook-endpoints"}, {"GET", "/v1/webhook-endpoints/whe_x"},
		{"PATCH", "/v1/webhook-endpoints/whe_x"}, {"DELETE", "/v1/webhook-endpoints/whe_x"},
		{"POST", "/v1/webhook-endpoints/whe_x/test"}, {"GET", "/v1/webhook-endpoints/whe_x/deliveries"},
		{"POST", "/v1/events/evt_x/resend"},
	} {
		// A bad body does not change the answer: the plan is checked first.
		e.fails(e.key, 403, "feature_not_available", "", r.method, r.path, map[string]any{"bogus": 1})
	}
	if code, out := e.call("GET", "/v1/events", e.key, nil); code != 200 || len(out["data"].([]any)) != 1 {
		t.Fatalf("GET /v1/events without webhooks: %d %v", code, out)
	}
}

func TestAllowHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{}) // allow_http on
	e.ok(201, "POST", "/v1/webhook-endpoints", map[string]any{"url": "http://hooks.example.com/", "events": []string{"*"}})
}

func TestPing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	var status = 200
	rc := e.receiver(func(int, *http.Request) int { return status })
	id, secret := e.endpoint(rc.URL(), "ticket.created")
	out := e.ok(200, "POST", "/v1/webhook-endpoints/"+id+"/test", nil)
	if out["delivered"] != true || out["status_code"] != float64(200) || out["error"] != nil {
		t.Fatalf("test: %v", out)
	}
	if _, ok := out["duration_ms"].(float64); !ok {
		t.Fatalf("duration_ms %v", out["duration_ms"])
	}
	h := rc.Hits()[0]
	if err := stripewebhook.ValidatePayloadIgnoringTolerance(h.Body, h.Header.Get("Service-Signature"), secret); err != nil {
		t.Fatalf("ping signature: %v", err)
	}
	var p struct {
		Type     string
		Livemode bool
		Data     struct{ Object map[string]any }
	}
	json.Unmarshal(h.Body, &p)
	if p.Type != "ping" || p.Livemode || p.Data.Object["id"] != id || p.Data.Object["secret"] != nil {
		t.Fatalf("ping payload %s", h.Body)
	}
	status = 418
	out = e.ok(200, "POST", "/v1/webhook-endpoints/"+id+"/test", nil)
	if out["delivered"] != false || out["status_code"] != float64(418) || out["error"] != "HTTP 418" {
		t.Fatalf("failing test: %v", out)
	}
	// Pings are logged, and do not count as failures.
	log := e.ok(200, "GET", "/v1/webhook-endpoints/"+id+"/deliveries", nil)["data"].([]any)
	if len(log) != 2 || log[0].(map[string]any)["event_type"] != "ping" {
		t.Fatalf("ping attempts logged: %v", log)
	}
	// A disabled endpoint receives nothing, not even a ping.
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+id, map[string]any{"enabled": false})
	hits := len(rc.Hits())
	out = e.ok(200, "POST", "/v1/webhook-endpoints/"+id+"/test", nil)
	if out["delivered"] != false || out["status_code"] != float64(0) || !strings.Contains(out["error"].(string), "disabled") ||
		len(rc.Hits()) != hits {
		t.Fatalf("test of a disabled endpoint: %v; %d requests received", out, len(rc.Hits())-hits)
	}
	e.fails(e.key, 400, "parameter_unknown", "x", "POST", "/v1/webhook-endpoints/"+id+"/test", map[string]any{"x": 1})
	if e.queued() != 0 {
		t.Fatal("a ping was queued")
	}
	// Redirects are failures and are not followed.
	target := e.receiver(nil)
	moved := httptest.NewServer(http.RedirectHandler(target.URL(), http.StatusFound))
	defer moved.Close()
	movedID, _ := e.endpoint(moved.URL, "*")
	out = e.ok(200, "POST", "/v1/webhook-endpoints/"+movedID+"/test", nil)
	if out["delivered"] != false || out["status_code"] != float64(302) || out["error"] != "HTTP 302 (redirects are not followed)" ||
		len(target.Hits()) != 0 {
		t.Fatalf("redirect: %v; target got %d", out, len(target.Hits()))
	}
	// Nothing listens: no status, an error.
	dead, _ := e.endpoint("http://127.0.0.1:1/", "*")
	out = e.ok(200, "POST", "/v1/webhook-endpoints/"+dead+"/test", nil)
	if out["delivered"] != false || out["status_code"] != float64(0) || out["error"] != "connection refused" {
		t.Fatalf("unreachable: %v", out)
	}
}

func TestPrivateAddressesRefusedAtSendTime(t *testing.T) {
	t.Parallel()
	// allow_private off: a name resolving to loopback passes validation but
	// the guarded client refuses to connect.
	e := newEnv(t, setup{hooks: func(o *app.WebhookOptions) { o.AllowPrivate = false }})
	rc := e.receiver(nil)
	e.clock.Set(t0)
	u := strings.Replace(rc.URL(), "127.0.0.1", "localhost", 1)
	id, _ := e.endpoint(u, "*")
	out := e.ok(200, "POST", "/v1/webhook-endpoints/"+id+"/test", nil)
	if out["delivered"] != false || len(rc.Hits()) != 0 || !strings.Contains(out["error"].(string), "private address") {
		t.Fatalf("private address: %v, %d requests", out, len(rc.Hits()))
	}
}

func TestEventsListAndGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	c := e.contact("ada@example.com")
	tk := e.ticket(c, "One")
	e.ok(200, "PATCH", "/v1/tickets/"+tk, map[string]any{"status": "solved"})
	if code, _ := e.call("POST", "/v1/contacts", e.liveKey, map[string]any{"email": "live@example.com"}); code != 201 {
		t.Fatal(code)
	}
	types := func(path string) []string {
		var out []string
		for _, o := range e.ok(200, "GET", path, nil)["data"].([]any) {
			out = append(out, o.(map[string]any)["type"].(string))
		}
		return out
	}
	if got := join(types("/v1/events")); got != "ticket.solved,ticket.updated,ticket.created,contact.created" {
		t.Fatalf("events newest first: %s", got)
	}
	if got := join(types("/v1/events?type=ticket.created")); got != "ticket.created" {
		t.Fatalf("type filter: %s", got)
	}
	// Pages of 1 walk the same list.
	var walked []string
	path := "/v1/events?limit=1"
	for {
		page := e.ok(200, "GET", path, nil)
		for _, o := range page["data"].([]any) {
			walked = append(walked, o.(map[string]any)["type"].(string))
		}
		if page["has_more"] != true {
			break
		}
		path = "/v1/events?limit=1&cursor=" + page["next_cursor"].(string)
	}
	if join(walked) != "ticket.solved,ticket.updated,ticket.created,contact.created" {
		t.Fatalf("walked %v", walked)
	}
	e.fails(e.key, 400, "parameter_invalid", "type", "GET", "/v1/events?type=ticket.exploded", nil)
	e.fails(e.key, 400, "parameter_unknown", "object_id", "GET", "/v1/events?object_id=x", nil)
	first := e.ok(200, "GET", "/v1/events?type=contact.created", nil)["data"].([]any)[0].(map[string]any)
	id := first["id"].(string)
	if got := e.ok(200, "GET", "/v1/events/"+id, nil); got["id"] != id || got["livemode"] != false ||
		got["data"].(map[string]any)["object"].(map[string]any)["id"] != c {
		t.Fatalf("GET event: %v", got)
	}
	e.fails(e.liveKey, 404, "resource_missing", "id", "GET", "/v1/events/"+id, nil)
	if code, out := e.call("GET", "/v1/events", e.liveKey, nil); code != 200 || len(out["data"].([]any)) != 1 ||
		out["data"].([]any)[0].(map[string]any)["livemode"] != true {
		t.Fatalf("live events: %v", out)
	}
}

func TestResend(t *testing.T) {
	t.Parallel()
	e := newEnv(t, setup{})
	a, b, c := e.receiver(nil), e.receiver(nil), e.receiver(nil)
	aID, _ := e.endpoint(a.URL(), "contact.created")
	e.endpoint(b.URL(), "*")
	cID, _ := e.endpoint(c.URL(), "ticket.created") // not subscribed to contacts
	live := e.receiver(nil)
	if code, out := e.call("POST", "/v1/webhook-endpoints", e.liveKey, map[string]any{"url": live.URL(), "events": []string{"*"}}); code != 201 {
		t.Fatalf("%d %v", code, out)
	}
	e.contact("ada@example.com")
	e.flush()
	ev := e.ok(200, "GET", "/v1/events", nil)["data"].([]any)[0].(map[string]any)["id"].(string)

	out := e.ok(202, "POST", "/v1/events/"+ev+"/resend", nil)
	if out["event_id"] != ev || len(out["webhook_endpoint_ids"].([]any)) != 2 {
		t.Fatalf("resend to all: %v", out)
	}
	e.flush()
	if len(a.Hits()) != 2 || len(b.Hits()) != 2 || len(c.Hits()) != 0 || len(live.Hits()) != 0 {
		t.Fatalf("after resend: %d %d %d %d requests", len(a.Hits()), len(b.Hits()), len(c.Hits()), len(live.Hits()))
	}
	// To one endpoint, named: sent even though it does not subscribe.
	out = e.ok(202, "POST", "/v1/events/"+ev+"/resend", map[string]any{"webhook_endpoint_id": cID})
	e.flush()
	if len(c.Hits()) != 1 || c.Hits()[0].EventID != ev || len(a.Hits()) != 2 {
		t.Fatalf("resend to one: %v; %d %d", out, len(c.Hits()), len(a.Hits()))
	}
	e.ok(200, "PATCH", "/v1/webhook-endpoints/"+aID, map[string]any{"enabled": false})
	e.fails(e.key, 400, "parameter_invalid", "webhook_endpoint_id", "POST", "/v1/events/"+ev+"/resend", map[string]any{"webhook_endpoint_id": aID})
	e.fails(e.key, 400, "resource_missing", "webhook_endpoint_id", "POST", "/v1/events/"+ev+"/resend", map[string]any{"webhook_endpoint_id": "whe_nope"})
	e.fails(e.key, 404, "resource_missing", "id", "POST", "/v1/events/evt_nope/resend", nil)
	e.fails(e.liveKey, 404, "resource_missing", "id", "POST", "/v1/events/"+ev+"/resend", nil)
	e.fails(e.key, 400, "parameter_unknown", "endpoint", "POST", "/v1/events/"+ev+"/resend", map[string]any{"endpoint": cID})
}
