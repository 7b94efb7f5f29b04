package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/chat"
	"chatsvc/docs"
	"chatsvc/docs/openapicheck"
	"chatsvc/files"
	"chatsvc/knowledge/knowledgetest"
	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
	"chatsvc/webhooks"
)

// registeredRoutes reads the route patterns ("GET /v1/tickets/{id}") that
// the package's source registers with Handle or HandleFunc under /v1/ or
// /widget/v1/, or
// lists in a route table, so a route added anywhere in package web is seen
// without a list to update.
func registeredRoutes(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var routes []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				checkPatternArg(t, fset, n)
			case *ast.BasicLit:
				pattern, _ := strconv.Unquote(n.Value)
				if method, path, ok := strings.Cut(pattern, " "); ok && n.Kind == token.STRING && method != "OPTIONS" &&
					(strings.HasPrefix(path, "/v1/") || strings.HasPrefix(path, "/widget/v1/") && path != "/widget/v1/") &&
					method == strings.ToUpper(method) {
					routes = append(routes, method+" "+path)
				}
			}
			return true
		})
	}
	slices.Sort(routes)
	return routes
}

// checkPatternArg refuses a mux registration whose pattern is computed,
// unless it comes from a route table's pattern field, whose literals are
// read like any other.
func checkPatternArg(t *testing.T, fset *token.FileSet, call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 || (sel.Sel.Name != "Handle" && sel.Sel.Name != "HandleFunc") {
		return
	}
	if recv, _ := sel.X.(*ast.Ident); recv == nil || recv.Name != "mux" {
		return // another Handle method (slog's)
	}
	switch a := call.Args[0].(type) {
	case *ast.BasicLit:
		return
	case *ast.SelectorExpr:
		if a.Sel.Name == "pattern" {
			return
		}
	}
	t.Errorf("%s: a route pattern that is not a string literal cannot be checked", fset.Position(call.Pos()))
}

// describedRoutes lists the document's operations as route patterns.
func describedRoutes(doc *openapi3.T) []string {
	var routes []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if strings.HasPrefix(path, "/widget/") { // served from {public_url}, not {public_url}/v1
				routes = append(routes, method+" "+path)
			} else {
				routes = append(routes, method+" /v1"+path)
			}
		}
	}
	slices.Sort(routes)
	return routes
}

// Every route registered under /v1 is in docs/openapi.json, and the
// document describes no route that does not exist.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	t.Parallel()
	doc, err := openapicheck.Load()
	if err != nil {
		t.Fatal(err)
	}
	registered, described := registeredRoutes(t), describedRoutes(doc)
	if len(registered) < 30 {
		t.Fatalf("found only %d routes in the source: %v", len(registered), registered)
	}
	for _, r := range registered {
		if !slices.Contains(described, r) {
			t.Errorf("route %s is registered but not described in docs/openapi.json", r)
		}
	}
	for _, r := range described {
		if !slices.Contains(registered, r) {
			t.Errorf("docs/openapi.json describes %s, which no route serves", r)
		}
	}
	// The patterns found are the ones the server answers: each one is
	// routed (a 404 here would come from the catch-all).
	e := webenv.New(t)
	for _, r := range registered {
		method, path, _ := strings.Cut(r, " ")
		path = strings.ReplaceAll(path, "{id}", "x_none")
		if res := e.Test(method, path, nil); res.Status == http.StatusNotFound && strings.HasPrefix(res.Body["error"].(map[string]any)["message"].(string), "Unrecognized") {
			t.Errorf("%s is not routed", r)
		}
	}
}

// The served document is docs/openapi.json with this server as its server;
// it needs no API key and loads in a standard validator.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	res := e.Do("GET", "/v1/openapi.json", "", nil)
	if res.Status != 200 || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("GET /v1/openapi.json: %d %v", res.Status, res.Header)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(res.Raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("served document does not validate: %v", err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != webenv.PublicURL+"/v1" {
		t.Errorf("servers = %v, want %s/v1", doc.Servers, webenv.PublicURL)
	}
	widget := doc.Paths.Find("/widget/v1/sessions")
	if widget == nil || len(widget.Servers) != 1 || widget.Servers[0].URL != webenv.PublicURL {
		t.Errorf("the widget's servers = %v, want %s", widget, webenv.PublicURL)
	}
	// Beyond the servers' addresses, the file as it is.
	served := bytes.ReplaceAll(res.Raw, []byte(`"url": "`+webenv.PublicURL+`/v1"`), []byte(`"url": "{public_url}/v1"`))
	served = bytes.ReplaceAll(served, []byte(`"url": "`+webenv.PublicURL+`"`), []byte(`"url": "{public_url}"`))
	var got, file map[string]any
	if err := json.Unmarshal(served, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(docs.OpenAPI, &file); err != nil {
		t.Fatal(err)
	}
	delete(got, "servers")
	delete(file, "servers")
	if !reflect.DeepEqual(got, file) {
		t.Error("the served document differs from docs/openapi.json beyond servers")
	}
	if !bytes.HasPrefix(res.Raw, []byte("{\n  \"openapi\": \"3.1.0\",\n  \"info\"")) {
		t.Errorf("the served document does not keep the file's order: %.60s", res.Raw)
	}
	e.Do("GET", "/v1/openapi.json?x=1", "", nil).Fails(t, 400, "parameter_unknown", "x")
}

// A run through the main flows of every resource, errors included: each
// response is validated against the document by the client's transport
// (see webenv.New), and every described operation must have been answered.
func TestOpenAPIFlows(t *testing.T) {
	t.Parallel()
	doc, err := openapicheck.Load()
	if err != nil {
		t.Fatal(err)
	}
	// The receiver checks what it is sent against the document's webhook.
	hook := doc.Webhooks["event"].Post
	receiver := testenv.NewReceiver(t, nil, func(_ int, r *http.Request) int {
		var payload any
		if err := json.NewDecoder(r.Body).Decode(&payload); err != nil {
			t.Errorf("webhook body: %v", err)
		}
		schema := hook.RequestBody.Value.Content.Get("application/json").Schema.Value
		if err := schema.VisitJSON(payload, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("webhook payload does not match docs/openapi.json: %v", err)
		}
		sig := hook.Parameters.GetByInAndName(openapi3.ParameterInHeader, "Service-Signature").Schema.Value
		if err := sig.VisitJSON(r.Header.Get("Service-Signature"), openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("Service-Signature does not match docs/openapi.json: %v", err)
		}
		return 200
	})
	e := webenv.New(t, func(o *app.Options) {
		o.Webhooks = app.WebhookOptions{AllowHTTP: true, AllowPrivate: true,
			Sender: webhooks.NewSender(webhooks.SenderOptions{AllowPrivate: true, Timeout: 5 * time.Second})}
		o.Assistant, o.ReplyWait = assistant.New(knowledgetest.New(), assistant.Extractive{}), 2*time.Second
	})
	e.RunAssistant()
	check := e.Server.Client().Transport.(*openapicheck.Checker)
	id := func(r webenv.Resp, status int) string { return r.OK(t, status)["id"].(string) }

	// Webhook endpoints first, so later changes produce events and deliveries.
	whe := id(e.Test("POST", "/v1/webhook-endpoints", map[string]any{"url": receiver.URL(), "events": []string{"*"}, "description": "CRM"}), 201)
	e.Test("GET", "/v1/webhook-endpoints?limit=1", nil).OK(t, 200)
	e.Test("GET", "/v1/webhook-endpoints/"+whe, nil).OK(t, 200)
	e.Test("PATCH", "/v1/webhook-endpoints/"+whe, map[string]any{"description": nil, "enabled": true}).OK(t, 200)
	if e.Test("POST", "/v1/webhook-endpoints/"+whe+"/test", nil).OK(t, 200)["delivered"] != true || len(receiver.Hits()) != 1 {
		t.Fatal("the ping was not delivered")
	}
	e.Test("GET", "/v1/webhook-endpoints/"+whe+"/deliveries", nil).OK(t, 200)

	// Contacts.
	ctc := id(e.Test("POST", "/v1/contacts", map[string]any{"email": "ada@example.com", "name": "Ada", "attributes": map[string]any{"plan": "pro", "seats": 3}}), 201)
	e.Test("POST", "/v1/contacts", map[string]any{"email": "ada@example.com", "phone": "+44 20 1234"}).OK(t, 200)
	other := e.Contact("bob@example.com")
	e.Test("GET", "/v1/contacts?email=ada@example.com", nil).OK(t, 200)
	e.Test("GET", "/v1/contacts/"+ctc, nil).OK(t, 200)
	e.Test("GET", "/v1/contacts/"+ctc+"/export", nil).OK(t, 200)
	e.Test("PATCH", "/v1/contacts/"+ctc, map[string]any{"name": "Ada L."}).OK(t, 200)
	e.Test("PATCH", "/v1/contacts/"+other, map[string]any{"email": "ada@example.com"}).Fails(t, 409, "resource_conflict", "email")

	// Conversations and messages.
	conv := e.Conversation(chat.Test, "Where is my order?")
	e.Test("GET", "/v1/conversations?status=open&limit=5", nil).OK(t, 200)
	e.Test("GET", "/v1/conversations/"+conv, nil).OK(t, 200)
	e.Test("PATCH", "/v1/conversations/"+conv, map[string]any{"assignee_id": e.Member, "metadata": map[string]any{"order": "A-1"}}).OK(t, 200)
	e.Test("POST", "/v1/conversations/"+conv+"/handoff", map[string]any{"note": "VIP"}).OK(t, 200)
	msg := id(e.Test("POST", "/v1/conversations/"+conv+"/messages", map[string]any{"body": "On its way.", "author_id": e.Member}), 201)
	e.Test("GET", "/v1/conversations/"+conv+"/messages?limit=1", nil).OK(t, 200)
	e.Test("GET", "/v1/messages/"+msg, nil).OK(t, 200)
	e.Test("POST", "/v1/conversations/"+conv+"/close", nil).OK(t, 200)
	e.Test("POST", "/v1/conversations/"+conv+"/handoff", nil).Fails(t, 409, "conversation_closed", "")

	// Tickets.
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Refund", "description": "Twice charged",
		"contact": map[string]any{"email": "cy@example.com"}, "tags": []string{"billing"}, "metadata": map[string]any{"k": "v"}}).OK(t, 201)
	e.Test("POST", "/v1/tickets", map[string]any{"subject": "Follow-up", "contact_id": ctc, "conversation_id": conv, "priority": "high"}).OK(t, 201)
	e.Test("GET", "/v1/tickets?status=open&tag=billing&created_after=2026-01-01", nil).OK(t, 200)
	e.Test("GET", "/v1/tickets/T-1", nil).OK(t, 200)
	e.Test("PATCH", "/v1/tickets/"+tkt["id"].(string), map[string]any{"status": "solved", "assignee_id": e.Member2}).OK(t, 200)
	e.Test("POST", "/v1/tickets/"+tkt["id"].(string)+"/comments", map[string]any{"body": "Refunded.", "author_id": e.Member}).OK(t, 201)
	e.Test("GET", "/v1/tickets/"+tkt["id"].(string)+"/comments", nil).OK(t, 200)
	e.Test("DELETE", "/v1/tickets/1", nil).OK(t, 200)

	// Notes.
	e.Test("POST", "/v1/conversations/"+conv+"/notes", map[string]any{"body": "Call back Monday.", "author_id": e.Member}).OK(t, 201)
	e.Test("GET", "/v1/conversations/"+conv+"/notes", nil).OK(t, 200)

	// Canned replies and search.
	cnr := id(e.Test("POST", "/v1/canned-replies", map[string]any{"shortcut": "hi", "title": "Hello", "body": "Hi {{contact.name}}"}), 201)
	e.Test("GET", "/v1/canned-replies?limit=1", nil).OK(t, 200)
	e.Test("GET", "/v1/canned-replies/"+cnr, nil).OK(t, 200)
	e.Test("PATCH", "/v1/canned-replies/"+cnr, map[string]any{"title": "Greeting"}).OK(t, 200)
	e.Test("DELETE", "/v1/canned-replies/"+cnr, nil).OK(t, 200)
	syn := id(e.Test("POST", "/v1/assistant/synonyms", map[string]any{"words": []string{"stash", "put aside"}}), 201)
	e.Test("GET", "/v1/assistant/synonyms?limit=1", nil).OK(t, 200)
	e.Test("GET", "/v1/assistant/synonyms/"+syn, nil).OK(t, 200)
	e.Test("PATCH", "/v1/assistant/synonyms/"+syn, map[string]any{"words": []string{"stash", "shelve"}}).OK(t, 200)
	e.Test("DELETE", "/v1/assistant/synonyms/"+syn, nil).OK(t, 200)
	e.SearchIndexed()
	if found := e.Test("GET", "/v1/search?q=order&type=conversation&limit=5", nil).OK(t, 200)["data"].([]any); len(found) != 1 {
		t.Errorf("search: %v", found)
	}

	// Sites.
	e.Test("GET", "/v1/sites", nil).OK(t, 200)
	e.Test("GET", "/v1/sites/"+e.Site, nil).OK(t, 200)
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"domains": []string{"example.com"},
		"business_hours": map[string]any{"timezone": "Europe/Berlin", "weekly": map[string]any{"mon": [][]string{{"09:00", "17:00"}}}},
		"widget":         map[string]any{"color": "#112233"}}).OK(t, 200)

	// Knowledge sources.
	src := id(e.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "text", "name": "FAQ", "content": "# Shipping\nTwo days."}), 201)
	e.Test("GET", "/v1/knowledge-sources", nil).OK(t, 200)
	e.Test("POST", "/v1/assistant/answers", map[string]any{"question": "How fast do you ship?", "site_id": e.Site}).OK(t, 200)
	e.Test("GET", "/v1/knowledge-sources/"+src, nil).OK(t, 200)
	e.Test("POST", "/v1/knowledge-sources/"+src+"/sync", nil).Fails(t, 429, "sync_rate_limited", "")
	e.Clock.Advance(11 * time.Minute)
	e.Test("POST", "/v1/knowledge-sources/"+src+"/sync", nil).OK(t, 202)
	e.Test("DELETE", "/v1/knowledge-sources/"+src, nil).OK(t, 200)

	// The widget's calls, from a visitor's first message to the rating.
	e.WidgetDo("GET", "/widget/v1/sites/"+e.Site, "", nil).OK(t, 200)
	tok := e.Session(true)
	said := e.Say(tok, "How long does a refund take?")
	up := upload(e, tok, "receipt.png", testenv.PNG(2, 2)).OK(t, 201)["id"].(string)
	e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"attachments": []string{up}}).OK(t, 201)
	e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)
	if r := e.WidgetDo("POST", "/widget/v1/typing", tok, nil); r.Status != http.StatusNoContent {
		t.Errorf("typing: %d", r.Status)
	}
	stream, err := e.Server.Client().Get(e.Server.URL + "/widget/v1/events?visitor_token=" + tok)
	if err != nil {
		t.Fatal(err)
	}
	stream.Body.Close()
	e.WidgetDo("POST", "/widget/v1/identify", tok, map[string]any{"email": "vera@example.com", "name": "Vera"}).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/tickets", tok, map[string]any{"subject": "Refund", "description": "Twice charged"}).OK(t, 201)
	if reply, ok := said["reply"].(map[string]any); ok {
		e.WidgetDo("POST", "/widget/v1/messages/"+reply["id"].(string)+"/feedback", tok, map[string]any{"helpful": false}).OK(t, 200)
	} else {
		t.Errorf("no assistant reply to give feedback on: %v", said)
	}
	e.WidgetDo("POST", "/widget/v1/handoff", tok, nil).OK(t, 200)
	e.Test("POST", "/v1/conversations/"+said["message"].(map[string]any)["conversation_id"].(string)+"/close", nil).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/rating", tok, map[string]any{"score": 5, "comment": "Quick"}).OK(t, 200)

	// Reports.
	e.Test("GET", "/v1/reports/summary?site_id="+e.Site, nil).OK(t, 200)
	if r := e.Test("GET", "/v1/reports/summary.csv", nil); r.Status != 200 {
		t.Errorf("summary.csv: %d", r.Status)
	}
	e.Test("GET", "/v1/reports/unanswered", nil).OK(t, 200)

	// Events, resend, and the end of the endpoint and the contact.
	evs := e.Test("GET", "/v1/events?limit=3", nil).OK(t, 200)["data"].([]any)
	evt := evs[0].(map[string]any)["id"].(string)
	e.Test("GET", "/v1/events/"+evt, nil).OK(t, 200)
	e.Test("POST", "/v1/events/"+evt+"/resend", map[string]any{"webhook_endpoint_id": whe}).OK(t, 202)
	e.Test("DELETE", "/v1/webhook-endpoints/"+whe, nil).OK(t, 200)
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	e.Do("GET", "/v1/openapi.json", "", nil).OK(t, 200)

	// Errors of every kind.
	e.Do("GET", "/v1/tickets", "", nil).Fails(t, 401, "api_key_missing", "")
	e.Do("GET", "/v1/tickets", "csk_test_nope", nil).Fails(t, 401, "api_key_invalid", "")
	e.Test("GET", "/v1/tickets/tkt_nope", nil).Fails(t, 404, "resource_missing", "id")
	e.Test("POST", "/v1/tickets", map[string]any{}).Fails(t, 400, "parameter_missing", "subject")
	e.Test("GET", "/v1/conversations?bogus=1", nil).Fails(t, 400, "parameter_unknown", "bogus")
	e.Test("POST", "/v1/tickets", `{"subject": "`+strings.Repeat("x", web.MaxBodyBytes)+`"}`).Fails(t, 413, "body_too_large", "")
	e.Test("PUT", "/v1/tickets", nil).Fails(t, 405, "method_not_allowed", "")
	e.Test("GET", "/v1/nothing", nil).Fails(t, 404, "resource_missing", "")

	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			answered := false
			for status := range op.Responses.Map() {
				if n, _ := strconv.Atoi(status); n < 300 && check.Seen(op.OperationID, n) {
					answered = true
				}
			}
			if !answered {
				t.Errorf("%s %s (%s): no success response went through the check", method, path, op.OperationID)
			}
		}
	}
	for _, s := range []struct {
		op     string
		status int
	}{{"listTickets", 401}, {"getTicket", 404}, {"createTicket", 400}, {"createTicket", 413},
		{"handOffConversation", 409}, {"updateContact", 409}, {"syncKnowledgeSource", 429}, {"upsertContact", 200}} {
		if !check.Seen(s.op, s.status) {
			t.Errorf("%s %d: not checked", s.op, s.status)
		}
	}
}

// Answers that depend on the server's options match the document too: a
// plan without webhooks (403) and the per-key rate limit (429).
func TestOpenAPIPlanAndRateLimit(t *testing.T) {
	t.Parallel()
	e := webenv.New(t, func(o *app.Options) { o.Webhooks.Disabled = true })
	check := e.Server.Client().Transport.(*openapicheck.Checker)
	e.Test("POST", "/v1/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/"}).Fails(t, 403, "feature_not_available", "")
	e.Test("GET", "/v1/webhook-endpoints", nil).Fails(t, 403, "feature_not_available", "")
	if !check.Seen("createWebhookEndpoint", 403) || !check.Seen("listWebhookEndpoints", 403) {
		t.Error("403 answers not checked")
	}

	limited := httptest.NewServer(web.HandlerWith(e.Svc, web.Options{APIPerSecond: 0.01, APIBurst: 1}))
	defer limited.Close()
	lc := openapicheck.New(t, limited.URL, nil)
	client := &http.Client{Transport: lc}
	for i, want := range []int{200, 429} {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", limited.URL+"/v1/tickets", nil)
		req.Header.Set("Authorization", "Bearer "+e.TestKey)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("request %d: %d, want %d", i, res.StatusCode, want)
		}
	}
	if !lc.Seen("listTickets", 429) {
		t.Error("429 rate_limited not checked")
	}
}

// The document's limits are the ones the service enforces.
func TestOpenAPILimitsMatchTheService(t *testing.T) {
	t.Parallel()
	doc, err := openapicheck.Load()
	if err != nil {
		t.Fatal(err)
	}
	schema := func(name string, props ...string) *openapi3.Schema {
		s := doc.Components.Schemas[name].Value
		for _, p := range props {
			s = s.Properties[p].Value
		}
		return s
	}
	n := func(p *uint64) int {
		if p == nil {
			return -1
		}
		return int(*p)
	}
	metadata := schema("Metadata")
	limit := doc.Components.Parameters["Limit"].Value.Schema.Value
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"ticket subject", n(schema("TicketCreate", "subject").MaxLength), app.MaxTicketSubject},
		{"ticket subject (PATCH)", n(schema("TicketUpdate", "subject").MaxLength), app.MaxTicketSubject},
		{"ticket description", n(schema("TicketCreate", "description").MaxLength), app.MaxTicketDescription},
		{"ticket tags on create", n(schema("TicketCreate", "tags").MaxItems), app.MaxTicketTags},
		{"message body", n(schema("MessageCreate", "body").MaxLength), app.MaxMessageBody},
		{"message attachments", n(schema("MessageCreate", "attachments").MaxItems), app.MaxAttachments},
		{"attachment name", n(schema("MessageCreate", "attachments").Items.Value.Properties["name"].Value.MaxLength), files.MaxName},
		{"source name", n(schema("KnowledgeSourceCreate", "name").MaxLength), app.MaxSourceName},
		{"source url", n(schema("KnowledgeSourceCreate", "url").MaxLength), app.MaxSourceURL},
		{"source content", n(schema("KnowledgeSourceCreate", "content").MaxLength), app.MaxSourceContent},
		{"endpoint url", n(schema("WebhookEndpointCreate", "url").MaxLength), app.MaxWebhookURL},
		{"endpoint url (PATCH)", n(schema("WebhookEndpointUpdate", "url").MaxLength), app.MaxWebhookURL},
		{"endpoint description", n(schema("WebhookEndpointCreate", "description").MaxLength), app.MaxWebhookDescription},
		{"endpoint description (PATCH)", n(schema("WebhookEndpointUpdate", "description").MaxLength), app.MaxWebhookDescription},
		{"metadata pairs", n(metadata.MaxProps), app.MaxMetadataPairs},
		{"metadata key", n(metadata.PropertyNames.Value.MaxLength), app.MaxMetadataKey},
		{"metadata value", n(metadata.AdditionalProperties.Schema.Value.MaxLength), app.MaxMetadataValue},
		{"metadata key (patch)", n(schema("MetadataPatch").PropertyNames.Value.MaxLength), app.MaxMetadataKey},
		{"metadata value (patch)", n(schema("MetadataPatch").AdditionalProperties.Schema.Value.MaxLength), app.MaxMetadataValue},
		{"list limit maximum", int(*limit.Max), app.MaxLimit},
		{"list limit default", int(limit.Default.(float64)), app.DefaultLimit},
		{"Idempotency-Key", n(doc.Components.Parameters["IdempotencyKey"].Value.Schema.Value.MaxLength), app.MaxIdempotencyKey},
		{"request body", int(web.MaxBodyBytes), 1 << 20}, // the TooLarge response says 1 MiB
	} {
		if c.got != c.want {
			t.Errorf("%s: the document says %d, the service %d", c.what, c.got, c.want)
		}
	}
}
