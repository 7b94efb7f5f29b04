package app_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/crawler"
	"chatsvc/knowledge"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// install is a data dir the service can be started on, stopped and
// started again, as a restart would.
type install struct {
	t     *testing.T
	dir   string
	clock *testenv.Clock
	db    *storage.DB
	idx   *knowledge.Index
	svc   *app.Service
}

func newInstall(t *testing.T) *install {
	in := &install{t: t, dir: t.TempDir(), clock: testenv.NewClock(testenv.T0, 0)}
	in.start()
	t.Cleanup(in.stop)
	return in
}

func (in *install) start() {
	in.t.Helper()
	db := testenv.Reopen(in.t, in.dir)
	idx, err := knowledge.Open(in.dir)
	if err != nil {
		in.t.Fatal(err)
	}
	in.db, in.idx = db, idx
	in.svc = app.New(db, app.Options{Now: in.clock.Now, Knowledge: &app.Knowledge{Index: idx, NightlyAt: "03:00",
		Crawler: crawler.Options{MaxPages: 20, MaxDepth: 2, Parallelism: 2, Timeout: 5 * time.Second, MaxPageBytes: 1 << 20,
			MaxSitemapBytes: 1 << 20, AllowPrivate: true}}})
}

func (in *install) stop() {
	if in.db != nil {
		in.idx.Close()
		in.db.Close()
		in.db = nil
	}
}

func (in *install) restart() {
	in.stop()
	in.start()
}

// work runs the sync and index workers until they are idle.
func (in *install) work() {
	in.t.Helper()
	for more := true; more; {
		more = false
		for _, step := range []func(context.Context) (bool, error){in.svc.SyncStep, in.svc.IndexStep} {
			m, err := step(context.Background())
			if err != nil {
				in.t.Fatal(err)
			}
			more = more || m
		}
	}
}

func (in *install) nightly(at time.Time) {
	in.t.Helper()
	in.clock.Set(at)
	if _, err := in.svc.NightlyStep(context.Background()); err != nil {
		in.t.Fatal(err)
	}
}

// owed lists the sources owed a sync, by name.
func (in *install) owed() []string {
	in.t.Helper()
	var names []string
	for _, mode := range []chat.Mode{chat.Test, chat.Live} {
		l, err := in.svc.KnowledgeSources(context.Background(), mode, app.ListParams{Limit: "100"})
		if err != nil {
			in.t.Fatal(err)
		}
		for _, k := range l.Data {
			if k.SyncRequestedAt != nil {
				names = append(names, k.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}

func (in *install) source(id string) *chat.KnowledgeSource {
	in.t.Helper()
	k, err := in.db.Read().KnowledgeSourceByID(context.Background(), id)
	if err != nil {
		in.t.Fatal(err)
	}
	return k
}

// events counts the events of each type about a source.
func (in *install) events(id string) map[string]int {
	in.t.Helper()
	evs, err := in.db.Read().EventsOf(context.Background(), id)
	if err != nil {
		in.t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		n[strings.TrimPrefix(e.Type, "knowledge_source.")]++
	}
	return n
}

func (in *install) create(mode chat.Mode, typ, name, target string) string {
	in.t.Helper()
	body := app.SourceCreate{Type: app.Value(typ), Name: app.Value(name)}
	if typ == app.SourceText {
		body.Content = app.Value(target)
	} else {
		body.URL = app.Value(target)
	}
	k, err := in.svc.CreateKnowledgeSource(context.Background(), mode, body)
	if err != nil {
		in.t.Fatal(err)
	}
	return k.ID
}

func (in *install) search(text string) []knowledge.Passage {
	in.t.Helper()
	ps, err := in.idx.Search(context.Background(), knowledge.Query{Mode: chat.Test, Text: text, Limit: 10})
	if err != nil {
		in.t.Fatal(err)
	}
	return ps
}

// switchable is a one-page site whose text and availability tests change.
type switchable struct {
	*httptest.Server
	mu     sync.Mutex
	text   string
	down   bool
	onPage func() // called on each page request
}

func newSwitchable(t *testing.T, text string) *switchable {
	s := &switchable{text: text}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		text, down, on := s.text, s.down, s.onPage
		s.mu.Unlock()
		if r.URL.Path != "/" || down {
			http.NotFound(w, r)
			return
		}
		if on != nil {
			on()
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><title>Help</title><body><main><h1>Help</h1><p>%s</p></main></body></html>", text)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *switchable) set(f func(s *switchable)) {
	s.mu.Lock()
	f(s)
	s.mu.Unlock()
}

func TestNightlySyncRunsOnceADayFailedSourcesIncluded(t *testing.T) {
	in := newInstall(t)
	good := newSwitchable(t, "Parcels ship on weekdays.")
	flaky := newSwitchable(t, "Gift cards never expire.")
	flaky.set(func(s *switchable) { s.down = true })
	ids := map[string]string{
		"faq":   in.create(chat.Test, app.SourceText, "faq", "Opening hours are nine to five."),
		"good":  in.create(chat.Test, app.SourceURL, "good", good.URL+"/"),
		"flaky": in.create(chat.Test, app.SourceURL, "flaky", flaky.URL+"/"),
		"live":  in.create(chat.Live, app.SourceText, "live", "Live mode text."),
	}
	in.work()
	if k := in.source(ids["flaky"]); k.Status != app.SourceFailed || k.FailureReason == nil ||
		!strings.Contains(*k.FailureReason, "404") {
		t.Fatalf("flaky source %+v", k)
	}
	day := func(d, h, m int) time.Time { return time.Date(2026, 10, d, h, m, 0, 0, time.UTC) }

	in.nightly(day(1, 12, 0)) // first run on this database: records today's slot only
	if o := in.owed(); len(o) != 0 {
		t.Fatalf("owed %v right after setup", o)
	}
	in.nightly(day(2, 2, 59))
	if o := in.owed(); len(o) != 0 {
		t.Fatalf("owed %v before nightly_at", o)
	}
	in.nightly(day(2, 3, 0))
	if o, want := in.owed(), []string{"faq", "flaky", "good", "live"}; !slices.Equal(o, want) {
		t.Fatalf("owed %v at nightly_at, want %v", o, want)
	}
	flaky.set(func(s *switchable) { s.down = false })
	in.work()
	in.nightly(day(2, 3, 1))
	in.nightly(day(2, 23, 59))
	if o := in.owed(); len(o) != 0 {
		t.Fatalf("owed %v: the night's run was repeated", o)
	}
	if k := in.source(ids["flaky"]); k.Status != app.SourceReady || k.FailureReason != nil || k.PageCount != 1 {
		t.Fatalf("failed source not retried: %+v", k)
	}

	in.restart()
	in.nightly(day(2, 23, 59)) // a restart does not repeat the night's run
	if o := in.owed(); len(o) != 0 {
		t.Fatalf("owed %v after a restart", o)
	}
	in.nightly(day(4, 10, 0)) // down through two nights: one catch-up run
	if o := in.owed(); len(o) != 4 {
		t.Fatalf("owed %v after the missed nights", o)
	}
	in.work()
	in.nightly(day(4, 10, 1))
	if o := in.owed(); len(o) != 0 {
		t.Fatalf("owed %v: the catch-up ran twice", o)
	}
	for name, id := range ids {
		want := map[string]int{"ready": 3}
		if name == "flaky" {
			want = map[string]int{"failed": 1, "ready": 2}
		}
		if got := in.events(id); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: events %v, want %v", name, got, want)
		}
	}
}

func TestSyncInterruptedByARestartIsResumed(t *testing.T) {
	in := newInstall(t)
	site := newSwitchable(t, "Returns are accepted for thirty days.")
	id := in.create(chat.Test, app.SourceURL, "help", site.URL+"/")
	in.work()
	in.nightly(in.clock.Now())
	if ps := in.search("returns"); len(ps) != 1 || !strings.Contains(ps[0].Text, "thirty days") {
		t.Fatalf("search %v", ps)
	}

	// The nightly sync starts and the process dies while the page is read.
	site.set(func(s *switchable) { s.text = "Returns are accepted for sixty days." })
	in.nightly(time.Date(2026, 10, 2, 3, 0, 0, 0, time.UTC))
	ctx, crash := context.WithCancel(context.Background())
	site.set(func(s *switchable) { s.onPage = crash })
	if _, err := in.svc.SyncStep(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted sync: %v", err)
	}
	if k := in.source(id); k.Status != app.SourceIndexing || k.SyncRequestedAt == nil {
		t.Fatalf("after the crash %+v, want indexing and still owed", k)
	}
	site.set(func(s *switchable) { s.onPage = nil })

	in.restart()
	in.nightly(time.Date(2026, 10, 2, 3, 5, 0, 0, time.UTC))
	// The sync is resumed; when it reports ready, its pages are searchable.
	if more, err := in.svc.SyncStep(context.Background()); err != nil || !more {
		t.Fatalf("resumed sync: %v %v", more, err)
	}
	if k := in.source(id); k.Status != app.SourceReady || k.SyncRequestedAt != nil {
		t.Fatalf("after the resumed sync %+v", k)
	}
	ps := in.search("returns")
	if len(ps) != 1 || !strings.Contains(ps[0].Text, "sixty days") {
		t.Fatalf("search after the resumed sync %v", ps)
	}
	if got := in.events(id); fmt.Sprint(got) != fmt.Sprint(map[string]int{"ready": 2}) {
		t.Fatalf("events %v, want one ready per completed sync", got)
	}

	// The index folder is lost: the database refills it.
	in.stop()
	if err := os.RemoveAll(filepath.Join(in.dir, knowledge.DirName)); err != nil {
		t.Fatal(err)
	}
	in.start()
	if n, err := in.svc.RefillKnowledgeIndex(context.Background()); err != nil || n != 1 {
		t.Fatalf("refill queued %d sources: %v", n, err)
	}
	in.work()
	if again := in.search("returns"); !reflect.DeepEqual(again, ps) {
		t.Fatalf("after the refill %v, want %v", again, ps)
	}
}

func TestSourceDeletedDuringItsSyncLeavesNothing(t *testing.T) {
	in := newInstall(t)
	site := newSwitchable(t, "Warranty lasts two years.")
	id := in.create(chat.Test, app.SourceURL, "help", site.URL+"/")
	site.set(func(s *switchable) {
		s.onPage = func() {
			if _, err := in.svc.DeleteKnowledgeSource(context.Background(), chat.Test, id); err != nil {
				t.Error(err)
			}
			// The index worker handles the deletion before the sync ends.
			if _, err := in.svc.IndexStep(context.Background()); err != nil {
				t.Error(err)
			}
		}
	})
	in.work()
	if n, _ := in.idx.Count(); n != 0 {
		t.Fatalf("%d documents of a deleted source in the index", n)
	}
	if got := in.events(id); len(got) != 0 {
		t.Fatalf("events %v about a deleted source", got)
	}
}

func TestFailedSyncAfterACrashKeepsTheRecordedPages(t *testing.T) {
	in := newInstall(t)
	site := newSwitchable(t, "Support answers within one day.")
	id := in.create(chat.Test, app.SourceURL, "help", site.URL+"/")
	in.work()
	in.nightly(in.clock.Now())

	// A sync indexes new pages, then the process dies before recording them.
	site.set(func(s *switchable) { s.text = "Support answers within one hour." })
	in.nightly(time.Date(2026, 10, 2, 3, 0, 0, 0, time.UTC))
	chunks, err := in.db.Read().KnowledgeChunks(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	k := in.source(id)
	stale := []knowledge.Chunk{{SourceID: id, Mode: k.Mode, URL: chunks[0].URL, Title: chunks[0].Title,
		Heading: chunks[0].Heading, Text: "Support answers within one hour."}}
	if err := in.idx.Replace(context.Background(), id, stale); err != nil {
		t.Fatal(err)
	}
	in.restart()
	// The resumed sync fails: the index must go back to the pages the database kept.
	site.set(func(s *switchable) { s.down = true })
	in.work()
	if k := in.source(id); k.Status != app.SourceFailed {
		t.Fatalf("source %+v, want failed", k)
	}
	ps := in.search("support answers")
	if len(ps) != 1 || !strings.Contains(ps[0].Text, "one day") {
		t.Fatalf("search %v, want the recorded page", ps)
	}
}

// TestGzipBombSitemapFailsTheSource serves a 64 KiB sitemap.xml.gz that
// inflates to 64 MiB: the source must fail, saying why, and no page it
// lists may be read.
func TestGzipBombSitemapFailsTheSource(t *testing.T) {
	in := newInstall(t)
	site := newSwitchable(t, "Listed by the bomb.")
	var bomb bytes.Buffer
	w, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/</loc></url>`, site.URL)
	w.Write(bytes.Repeat([]byte(" "), 64<<20))
	w.Write([]byte("</urlset>"))
	w.Close()
	var pages atomic.Int32
	site.set(func(s *switchable) { s.onPage = func() { pages.Add(1) } })
	site.Config.Handler = gzipAt(site.Config.Handler, "/sitemap.xml.gz", bomb.Bytes())

	id := in.create(chat.Test, app.SourceSitemap, "bomb", site.URL+"/sitemap.xml.gz")
	in.work()
	k := in.source(id)
	if k.Status != app.SourceFailed || k.FailureReason == nil || !strings.Contains(*k.FailureReason, "once decompressed") {
		t.Fatalf("source %+v (reason %q), want failed for its size", k, deref(k.FailureReason))
	}
	if got := in.events(id); fmt.Sprint(got) != "map[failed:1]" {
		t.Errorf("events %v, want one knowledge_source.failed", got)
	}
	if n := pages.Load(); n != 0 {
		t.Errorf("%d pages read from a sitemap that failed", n)
	}
}

// gzipAt serves body, a gzip file, at path, and the rest with h.
func gzipAt(h http.Handler, path string, body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(body)
	})
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// A text source is read in a moment: it is synced at once, also while a
// crawl of another source (of any mode) is in progress.
func TestTextSourceDoesNotWaitForACrawl(t *testing.T) {
	in := newInstall(t)
	release := make(chan struct{})
	crawling := make(chan struct{}, 1)
	site := newSwitchable(t, "Returns are accepted for thirty days.")
	site.set(func(s *switchable) {
		s.onPage = func() {
			select {
			case crawling <- struct{}{}:
			default:
			}
			<-release
		}
	})
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, w := range in.svc.KnowledgeWorkers() {
		wg.Add(1)
		go func() { defer wg.Done(); w.Run(ctx) }()
	}
	t.Cleanup(func() { close(release); stop(); wg.Wait() }) // before the install stops
	changes := in.svc.Changes()
	defer changes.Stop()

	crawled := in.create(chat.Test, app.SourceURL, "help", site.URL+"/")
	<-crawling
	text := in.create(chat.Live, app.SourceText, "shipping", "Parcels leave our warehouse within two days.")
	testenv.Until(t, changes.C, "the text source ready during the crawl", func() bool {
		return in.source(text).Status == app.SourceReady
	})
	if k := in.source(crawled); k.Status != app.SourceIndexing {
		t.Fatalf("the crawled source is %s, want still indexing", k.Status)
	}
}

func TestOwnSiteIsSyncedWithoutThePause(t *testing.T) {
	in := newInstall(t)
	// A pause of an hour after each request: a polite crawl of this site
	// would not end while the test runs.
	in.svc = app.New(in.db, app.Options{Now: in.clock.Now, Knowledge: &app.Knowledge{Index: in.idx, NightlyAt: "03:00",
		Crawler: crawler.Options{MaxPages: 20, MaxDepth: 2, Parallelism: 1, Delay: time.Hour, Timeout: 5 * time.Second,
			MaxPageBytes: 1 << 20, AllowPrivate: true, RespectRobots: true}}})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><title>%s</title></head><body><main><p>The page %s says returns take thirty days.</p>
			<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a> <a href="/private">private</a></main></body></html>`, r.URL.Path, r.URL.Path)
	}))
	defer site.Close()
	k, err := in.svc.CreateKnowledgeSource(context.Background(), chat.Test, app.SourceCreate{Type: app.Value(app.SourceURL),
		Name: app.Value("help"), URL: app.Value(site.URL + "/"), Politeness: app.Value(app.SourceOwn)})
	if err != nil {
		t.Fatal(err)
	}
	if k.Politeness != app.SourceOwn {
		t.Fatalf("politeness %q, want own", k.Politeness)
	}
	done := make(chan struct{})
	go func() { defer close(done); in.work() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the sync of the team's own site waited for the pause")
	}
	if got := in.source(k.ID); got.Status != app.SourceReady || got.PageCount != 4 {
		t.Fatalf("status %s with %d pages, want ready with 4 (robots.txt keeps /private out)", got.Status, got.PageCount)
	}
}
