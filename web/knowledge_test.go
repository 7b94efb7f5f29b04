package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/chat"
	"chatsvc/crawler"
	"chatsvc/knowledge"
	"chatsvc/testenv/webenv"
)

// ksEnv is a service with knowledge wired in: a search index in the temp
// dir and a crawler allowed to reach local test sites.
type ksEnv struct {
	*webenv.Env
	idx *knowledge.Index
}

func newKsEnv(t *testing.T, allowPrivate bool, exempt ...netip.AddrPort) *ksEnv {
	return newKsEnvWith(t, allowPrivate, false, exempt...)
}

// newKsEnvWith is newKsEnv, with the extractive assistant answering from
// the index when withAssistant is set.
func newKsEnvWith(t *testing.T, allowPrivate, withAssistant bool, exempt ...netip.AddrPort) *ksEnv {
	t.Helper()
	idx, err := knowledge.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	e := webenv.New(t, func(o *app.Options) {
		o.Knowledge = &app.Knowledge{Index: idx, SyncMinInterval: 10 * time.Minute, Crawler: crawler.Options{
			MaxPages: 50, MaxDepth: 3, RespectRobots: true, Parallelism: 4, Timeout: 5 * time.Second,
			MaxPageBytes: 1 << 20, AllowPrivate: allowPrivate, Exempt: exempt}}
		if withAssistant {
			o.Assistant = assistant.New(idx, assistant.Extractive{})
		}
	})
	return &ksEnv{Env: e, idx: idx}
}

// work runs the knowledge workers until none has anything left to do.
func (k *ksEnv) work() {
	k.T.Helper()
	ctx := context.Background()
	for more := true; more; {
		more = false
		for _, step := range []func(context.Context) (bool, error){k.Svc.SyncStep, k.Svc.IndexStep} {
			m, err := step(ctx)
			if err != nil {
				k.T.Fatal(err)
			}
			more = more || m
		}
	}
	if n, err := k.Svc.IndexStep(ctx); n || err != nil {
		k.T.Fatalf("index queue not drained: %v %v", n, err)
	}
}

// find returns the source ids of the passages matching text for a site in test mode.
func (k *ksEnv) find(site, text string) []string {
	k.T.Helper()
	ps, err := k.idx.Search(context.Background(), knowledge.Query{Mode: chat.Test, SiteID: site, Text: text, Limit: 50})
	if err != nil {
		k.T.Fatal(err)
	}
	var ids []string
	for _, p := range ps {
		if !slices.Contains(ids, p.SourceID) {
			ids = append(ids, p.SourceID)
		}
	}
	slices.Sort(ids)
	return ids
}

// helpSite serves a small help centre.
func helpSite(t *testing.T) *httptest.Server {
	t.Helper()
	pages := map[string]string{
		"/":         `<title>Help</title><main><h1>Help centre</h1><p>Answers to common questions.</p><a href="/refunds">Refunds</a> <a href="/shipping">Shipping</a></main>`,
		"/refunds":  `<title>Refunds</title><main><h1>Refunds</h1><p>Refunds are paid within 14 days to the original card.</p></main>`,
		"/shipping": `<title>Shipping</title><main><h1>Shipping</h1><p>Parcels leave the warehouse every weekday.</p></main>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>"+body+"</body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestKnowledgeSourceObjectAndLifecycle(t *testing.T) {
	t.Parallel()
	k := newKsEnv(t, true)
	site := helpSite(t)
	src := k.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "url", "name": "Help centre",
		"url": site.URL + "/"}).OK(t, 201)
	keys := make([]string, 0, len(src))
	for key := range src {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	want := []string{"created_at", "failure_reason", "id", "language", "last_synced_at", "name", "object", "page_count", "politeness", "status", "type", "url"}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("fields %v, want exactly %v", keys, want)
	}
	id := src["id"].(string)
	if !strings.HasPrefix(id, "src_") || src["object"] != "knowledge_source" || src["status"] != "pending" ||
		src["page_count"] != 0.0 || src["last_synced_at"] != nil || src["url"] != site.URL+"/" || src["type"] != "url" {
		t.Fatalf("created %v", src)
	}
	if len(k.find(k.Site, "refunds")) != 0 {
		t.Fatal("searchable before the sync")
	}

	k.work()
	got := k.Test("GET", "/v1/knowledge-sources/"+id, nil).OK(t, 200)
	if got["status"] != "ready" || got["page_count"] != 3.0 || got["last_synced_at"] == nil {
		t.Fatalf("after sync %v", got)
	}
	if ev := k.Events(id); !reflect.DeepEqual(ev, []string{"test:knowledge_source.ready"}) {
		t.Fatalf("events %v", ev)
	}
	if data := k.EventData(id, "knowledge_source.ready"); data["status"] != "ready" || data["page_count"] != 3.0 {
		t.Fatalf("event data %v", data)
	}
	if got := k.find(k.Site, "how long do refunds take"); !reflect.DeepEqual(got, []string{id}) {
		t.Fatalf("search found %v", got)
	}

	// Another mode sees nothing of it.
	k.Live("GET", "/v1/knowledge-sources/"+id, nil).Fails(t, 404, "resource_missing", "id")
	k.Live("DELETE", "/v1/knowledge-sources/"+id, nil).Fails(t, 404, "resource_missing", "id")

	d := k.Test("DELETE", "/v1/knowledge-sources/"+id, nil).OK(t, 200)
	if !reflect.DeepEqual(d, map[string]any{"id": id, "object": "knowledge_source", "deleted": true}) {
		t.Fatalf("deleted envelope %v", d)
	}
	k.work()
	if got := k.find(k.Site, "refunds"); len(got) != 0 {
		t.Fatalf("deleted source still found: %v", got)
	}
	if n, _ := k.idx.Count(); n != 0 {
		t.Fatalf("%d documents left in the index", n)
	}
	k.Test("GET", "/v1/knowledge-sources/"+id, nil).Fails(t, 404, "resource_missing", "id")
	k.Test("POST", "/v1/knowledge-sources/"+id+"/sync", nil).Fails(t, 404, "resource_missing", "id")
}

func TestKnowledgeSourceValidation(t *testing.T) {
	t.Parallel()
	k := newKsEnv(t, true)
	long := func(n int) string { return strings.Repeat("a", n) }
	for _, c := range []struct {
		name        string
		body        any
		status      int
		code, param string
	}{
		{"no body", nil, 400, "parameter_missing", "type"},
		{"no type", map[string]any{"name": "x", "url": "https://example.com"}, 400, "parameter_missing", "type"},
		{"bad type", map[string]any{"type": "pdf", "name": "x"}, 400, "parameter_invalid", "type"},
		{"type not a string", map[string]any{"type": 1, "name": "x"}, 400, "parameter_invalid", "type"},
		{"no name", map[string]any{"type": "text", "content": "x"}, 400, "parameter_missing", "name"},
		{"blank name", map[string]any{"type": "text", "name": " ", "content": "x"}, 400, "parameter_invalid", "name"},
		{"long name", map[string]any{"type": "text", "name": long(201), "content": "x"}, 400, "parameter_invalid", "name"},
		{"url missing", map[string]any{"type": "url", "name": "x"}, 400, "parameter_missing", "url"},
		{"url null", map[string]any{"type": "sitemap", "name": "x", "url": nil}, 400, "parameter_missing", "url"},
		{"url relative", map[string]any{"type": "url", "name": "x", "url": "/help"}, 400, "parameter_invalid", "url"},
		{"url ftp", map[string]any{"type": "url", "name": "x", "url": "ftp://example.com/"}, 400, "parameter_invalid", "url"},
		{"url with password", map[string]any{"type": "url", "name": "x", "url": "https://u:p@example.com/"}, 400, "parameter_invalid", "url"},
		{"url too long", map[string]any{"type": "url", "name": "x", "url": "https://example.com/" + long(2030)}, 400, "parameter_invalid", "url"},
		{"content on url", map[string]any{"type": "url", "name": "x", "url": "https://example.com/", "content": "x"}, 400, "parameter_invalid", "content"},
		{"content missing", map[string]any{"type": "text", "name": "x"}, 400, "parameter_missing", "content"},
		{"content null", map[string]any{"type": "text", "name": "x", "content": nil}, 400, "parameter_invalid", "content"},
		{"content empty", map[string]any{"type": "text", "name": "x", "content": ""}, 400, "parameter_invalid", "content"},
		{"content too long", map[string]any{"type": "text", "name": "x", "content": long(100001)}, 400, "parameter_invalid", "content"},
		{"url on text", map[string]any{"type": "text", "name": "x", "content": "x", "url": "https://example.com/"}, 400, "parameter_invalid", "url"},
		{"unknown site", map[string]any{"type": "text", "name": "x", "content": "x", "site_id": "site_nope"}, 400, "resource_missing", "site_id"},
		{"unknown field", map[string]any{"type": "text", "name": "x", "content": "x", "pages": 3}, 400, "parameter_unknown", "pages"},
		{"language not a tag", map[string]any{"type": "text", "name": "x", "content": "x", "language": "german!"}, 400, "parameter_invalid", "language"},
		{"language empty", map[string]any{"type": "text", "name": "x", "content": "x", "language": ""}, 400, "parameter_invalid", "language"},
		{"language too long", map[string]any{"type": "text", "name": "x", "content": "x", "language": "en-" + long(33)}, 400, "parameter_invalid", "language"},
		{"language a number", map[string]any{"type": "text", "name": "x", "content": "x", "language": 7}, 400, "parameter_invalid", "language"},
		{"politeness unknown", map[string]any{"type": "url", "name": "x", "url": "https://example.com/", "politeness": "fast"}, 400, "parameter_invalid", "politeness"},
		{"politeness empty", map[string]any{"type": "url", "name": "x", "url": "https://example.com/", "politeness": ""}, 400, "parameter_invalid", "politeness"},
		{"politeness null", map[string]any{"type": "url", "name": "x", "url": "https://example.com/", "politeness": nil}, 400, "parameter_invalid", "politeness"},
		{"politeness in capitals", map[string]any{"type": "url", "name": "x", "url": "https://example.com/", "politeness": "OWN"}, 400, "parameter_invalid", "politeness"},
		{"not an object", "[1]", 400, "body_invalid", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			k.Do("POST", "/v1/knowledge-sources", k.TestKey, c.body).Fails(t, c.status, c.code, c.param)
		})
	}
	for _, body := range []map[string]any{
		{"type": "text", "name": long(200), "content": long(100000)},
		{"type": "text", "name": "x", "content": "x", "url": nil, "site_id": nil},
		{"type": "sitemap", "name": "x", "url": "https://example.com/sitemap.xml", "site_id": k.Site},
		{"type": "text", "name": "x", "content": "x", "language": nil},
	} {
		k.Test("POST", "/v1/knowledge-sources", body).OK(t, 201)
	}
	// A language tag is stored in its canonical form, and shown.
	src := k.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "text", "name": "x", "content": "x", "language": "fr_ca"}).OK(t, 201)
	if src["language"] != "fr-CA" {
		t.Fatalf("language %v, want fr-CA", src["language"])
	}
	// politeness is polite unless the team says the site is its own.
	for body, want := range map[string]string{
		`{"type":"url","name":"x","url":"https://example.com/"}`:                             "polite",
		`{"type":"url","name":"x","url":"https://example.com/","politeness":"polite"}`:       "polite",
		`{"type":"sitemap","name":"x","url":"https://example.com/s.xml","politeness":"own"}`: "own",
	} {
		src := k.Test("POST", "/v1/knowledge-sources", body).OK(t, 201)
		if src["politeness"] != want {
			t.Fatalf("%s: politeness %v, want %s", body, src["politeness"], want)
		}
		if got := k.Test("GET", "/v1/knowledge-sources/"+src["id"].(string), nil).OK(t, 200); got["politeness"] != want {
			t.Fatalf("%s read back: politeness %v, want %s", body, got["politeness"], want)
		}
	}
	k.Test("GET", "/v1/knowledge-sources?page=2", nil).Fails(t, 400, "parameter_unknown", "page")
	k.Test("GET", "/v1/knowledge-sources?limit=101", nil).Fails(t, 400, "parameter_invalid", "limit")
	k.Test("POST", "/v1/knowledge-sources/src_nope/sync", map[string]any{"force": true}).Fails(t, 400, "parameter_unknown", "force")
}

func TestKnowledgeSourceListNewestFirst(t *testing.T) {
	t.Parallel()
	k := newKsEnv(t, true)
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, k.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "text", "name": itoa(i),
			"content": "Text " + itoa(i)}).OK(t, 201)["id"].(string))
	}
	k.Live("POST", "/v1/knowledge-sources", map[string]any{"type": "text", "name": "live", "content": "x"}).OK(t, 201)
	slices.Reverse(ids)
	if got := k.All(k.TestKey, "/v1/knowledge-sources", 2); !reflect.DeepEqual(got, ids) {
		t.Fatalf("list %v, want %v", got, ids)
	}
}

func TestSyncIsRateLimitedFromTheCreation(t *testing.T) {
	t.Parallel()
	k := newKsEnv(t, true)
	k.Clock.SetStep(0)
	src := k.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "text", "name": "FAQ",
		"content": "# Opening hours\nWe are open from nine to five."}).OK(t, 201)
	id := src["id"].(string)
	created, _ := time.Parse(time.RFC3339, src["created_at"].(string))
	k.work()

	k.Clock.Advance(4 * time.Minute)
	r := k.Test("POST", "/v1/knowledge-sources/"+id+"/sync", nil)
	r.Fails(t, 429, "sync_rate_limited", "")
	if r.Body["error"].(map[string]any)["type"] != "rate_limit_error" || r.Header.Get("Retry-After") != "360" {
		t.Fatalf("429 %s with Retry-After %q, want 360", r.Raw, r.Header.Get("Retry-After"))
	}

	k.Clock.Advance(6 * time.Minute)
	s := k.Test("POST", "/v1/knowledge-sources/"+id+"/sync", nil).OK(t, 202)
	if s["status"] != "indexing" || s["id"] != id {
		t.Fatalf("sync answered %v", s)
	}
	k.Test("POST", "/v1/knowledge-sources/"+id+"/sync", "").Fails(t, 429, "sync_rate_limited", "")
	k.work()
	got := k.Test("GET", "/v1/knowledge-sources/"+id, nil).OK(t, 200)
	if got["status"] != "ready" || got["last_synced_at"] != created.Add(10*time.Minute).Format(chat.TimeLayout) {
		t.Fatalf("after the sync %v", got)
	}
	if ev := k.Events(id); len(ev) != 2 {
		t.Fatalf("events %v, want two ready events", ev)
	}
}

func TestSourcesAreSearchedBySiteAndMode(t *testing.T) {
	t.Parallel()
	k := newKsEnv(t, true)
	other, err := k.Svc.CreateSite(context.Background(), "Other", "")
	if err != nil {
		t.Fatal(err)
	}
	text := map[string]any{"type": "text", "name": "Returns", "content": "Returns are free for thirty days."}
	all := k.Test("POST", "/v1/knowledge-sources", text).OK(t, 201)["id"].(string)
	text["site_id"] = k.Site
	mine := k.Test("POST", "/v1/knowledge-sources", text).OK(t, 201)["id"].(string)
	text["site_id"] = other.ID
	theirs := k.Test("POST", "/v1/knowledge-sources", text).OK(t, 201)["id"].(string)
	delete(text, "site_id")
	k.Live("POST", "/v1/knowledge-sources", text).OK(t, 201)
	k.work()
	for _, c := range []struct {
		site string
		want []string
	}{{k.Site, []string{all, mine}}, {other.ID, []string{all, theirs}}, {"", []string{all}}} {
		want := slices.Clone(c.want)
		slices.Sort(want)
		if got := k.find(c.site, "free returns"); !reflect.DeepEqual(got, want) {
			t.Errorf("site %q: %v, want %v", c.site, got, want)
		}
	}
}

func TestPrivateSourceFailsWithAReasonForTheTeam(t *testing.T) {
	t.Parallel()
	site := helpSite(t)
	// front stands in for a public site (the guard exempts its exact
	// address) that redirects to the private one.
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, site.URL+"/", http.StatusFound)
	}))
	t.Cleanup(front.Close)
	_, port, _ := strings.Cut(strings.TrimPrefix(site.URL, "http://"), ":")
	k := newKsEnv(t, false, netip.MustParseAddrPort(strings.TrimPrefix(front.URL, "http://")))
	for _, c := range []struct{ name, url string }{
		{"address", site.URL + "/"},
		{"host name resolving to 127.0.0.1", "http://localhost:" + port + "/"},
		{"redirect", front.URL + "/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := &ksEnv{Env: tkOn(k.Env, t), idx: k.idx}
			id := k.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "url", "name": "Intranet",
				"url": c.url}).OK(t, 201)["id"].(string)
			k.work()
			got := k.Test("GET", "/v1/knowledge-sources/"+id, nil).OK(t, 200)
			if got["status"] != "failed" || got["page_count"] != 0.0 || got["last_synced_at"] != nil {
				t.Fatalf("source %v", got)
			}
			if reason, _ := got["failure_reason"].(string); !strings.Contains(reason, "private or local network address") {
				t.Fatalf("failure_reason %v", got["failure_reason"])
			}
			if ev := k.Events(id); !reflect.DeepEqual(ev, []string{"test:knowledge_source.failed"}) {
				t.Fatalf("events %v", ev)
			}
			src, err := k.DB.Read().KnowledgeSource(context.Background(), chat.Test, id)
			if err != nil {
				t.Fatal(err)
			}
			if src.FailureReason == nil || !strings.Contains(*src.FailureReason, "private or local network address") ||
				!strings.Contains(*src.FailureReason, site.URL[len("http://"):]) && c.name != "host name resolving to 127.0.0.1" {
				t.Fatalf("stored reason %v", deref(src.FailureReason))
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// A sync that failed says why in the object, and "Sync now" may be asked
// again at once: the ten minutes protect sites from crawls that succeed,
// not the team from retrying one that failed. One retry runs at a time.
func TestFailedSyncSaysWhyAndMayBeRetriedAtOnce(t *testing.T) {
	t.Parallel()
	down := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(down.Close)
	k := newKsEnv(t, true)
	k.Clock.SetStep(0)
	id := k.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "url", "name": "Help",
		"url": down.URL + "/"}).OK(t, 201)["id"].(string)
	k.work()
	got := k.Test("GET", "/v1/knowledge-sources/"+id, nil).OK(t, 200)
	if reason, _ := got["failure_reason"].(string); got["status"] != "failed" || !strings.Contains(reason, "404") {
		t.Fatalf("failed source %v", got)
	}
	s := k.Test("POST", "/v1/knowledge-sources/"+id+"/sync", nil).OK(t, 202)
	if s["status"] != "indexing" {
		t.Fatalf("sync answered %v", s)
	}
	k.Test("POST", "/v1/knowledge-sources/"+id+"/sync", nil).Fails(t, 429, "sync_rate_limited", "")
}
