// Package apienv starts the service the way the tests of several packages
// need it: on a real database in a temporary folder, with a fake clock, and
// (New) behind a started HTTP server whose /v1 answers are checked against
// docs/openapi.json, with API keys, a site and two team members made, and
// the desk-search-index worker running.
//
// It lives apart from testenv because it imports app, whose own tests use
// testenv.
package apienv

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/docs/openapicheck"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// PublicURL is the public root the test services sign file URLs with.
const PublicURL = "https://chat.example.com"

// Env is a running service on a temporary data dir, reached over real HTTP.
type Env struct {
	Dir     string // the data dir
	DB      *storage.DB
	Svc     *app.Service
	Clock   *testenv.Clock
	Server  *httptest.Server
	Client  *http.Client // checks every /v1 answer against docs/openapi.json
	TestKey string       // csk_test_…
	LiveKey string       // csk_live_…
	Site    string       // site id
	Member  string       // agent@example.com, "Agent Smith"
	Member2 string       // other@example.com, "Other Agent"
	Search  *SearchIndex // the desk-search-index worker
}

// Options say how to build the service.
type Options struct {
	Start time.Time     // the clock's start; zero: testenv.T0
	Step  time.Duration // how far each clock reading moves it
	// Handler serves the service over HTTP (the web package's handler).
	Handler func(*app.Service) http.Handler
	// App changes the service's options; dir is the data dir.
	App func(dir string, o *app.Options)
}

// New starts a service behind HTTP and seeds it; it stops when the test
// ends.
func New(t *testing.T, o Options) *Env {
	t.Helper()
	e := NewService(t, o)
	e.Search = RunSearchIndex(t, e.Svc, e.DB) // stopped before OpenDB's cleanup closes the database
	e.Server = httptest.NewServer(o.Handler(e.Svc))
	t.Cleanup(e.Server.Close) // before OpenDB's cleanup closes the database
	e.Client = e.Server.Client()
	e.Client.Transport = openapicheck.New(t, e.Server.URL, e.Client.Transport)
	e.seed(t)
	return e
}

// NewService builds the service alone, for the tests of its workers: no
// HTTP (o.Handler is not used), nothing seeded.
func NewService(t *testing.T, o Options) *Env {
	t.Helper()
	if o.Start.IsZero() {
		o.Start = testenv.T0
	}
	e := &Env{Dir: t.TempDir(), Clock: testenv.NewClock(o.Start, o.Step)}
	e.DB = testenv.OpenDB(t, e.Dir)
	// Passwords at bcrypt's least cost: tests set hundreds, and measure no strength.
	ao := app.Options{Now: e.Clock.Now, PublicURL: PublicURL, PasswordCost: bcrypt.MinCost}
	if o.App != nil {
		o.App(e.Dir, &ao)
	}
	e.Svc = app.New(e.DB, ao)
	return e
}

// seed makes what nearly every test needs: a key of each mode, a site and
// two team members.
func (e *Env) seed(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	var err error
	e.TestKey, _, err = e.Svc.CreateKey(ctx, chat.Test, "tests")
	must(err)
	e.LiveKey, _, err = e.Svc.CreateKey(ctx, chat.Live, "tests")
	must(err)
	site, err := e.Svc.CreateSite(ctx, "Test site", "example.com")
	must(err)
	e.Site = site.ID
	m, err := e.Svc.CreateMember(ctx, "agent@example.com", "Agent Smith", "")
	must(err)
	m2, err := e.Svc.CreateMember(ctx, "other@example.com", "Other Agent", "")
	must(err)
	e.Member, e.Member2 = m.ID, m2.ID
}

// Call sends a request with key ("" for none) and reads the answer.
func (e *Env) Call(t testing.TB, method, path, key string, body any) testenv.Response {
	t.Helper()
	var auth []string
	if key != "" {
		auth = []string{"Authorization", "Bearer " + key}
	}
	return testenv.Call(t, e.Client, method, e.Server.URL+path, body, auth...)
}

// SearchIndex is a service's desk-search-index worker run for a test, which a
// test can wait on.
type SearchIndex struct {
	db      *storage.DB
	wake    chan struct{} // wakes the worker
	indexed chan struct{} // signalled after each of its steps
	stop    func()
}

// RunSearchIndex runs svc's desk-search-index worker until Stop or the end of
// the test.
func RunSearchIndex(t testing.TB, svc *app.Service, db *storage.DB) *SearchIndex {
	s := &SearchIndex{db: db, wake: make(chan struct{}, 1), indexed: make(chan struct{}, 1)}
	w := svc.SearchIndexWorker()
	step := w.Step
	w.Wake, w.Step = s.wake, func(ctx context.Context) (bool, error) {
		defer notify(s.indexed)
		return step(ctx)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	var once sync.Once
	s.stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(s.Stop)
	return s
}

// Stop stops the worker and waits for its step to end.
func (s *SearchIndex) Stop() { s.stop() }

// Indexed waits until the worker has indexed every text written so far:
// search then finds what was written before the call.
func (s *SearchIndex) Indexed(t testing.TB) {
	t.Helper()
	notify(s.wake)
	testenv.Until(t, s.indexed, "the search index caught up", func() bool {
		queued, err := s.db.Read().SearchQueued(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return !queued
	})
}

func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
