package web_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/testenv"
	"chatsvc/web"
)

// TestWidgetAndRESTAgree follows one conversation from the widget through
// the REST API and back: statuses, counts and events agree on both sides,
// and the visitor sees each change live.
func TestWidgetAndRESTAgree(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{})
	tok := e.session(true)
	live := e.openStream(tok)
	if live.status != 200 {
		t.Fatalf("events: status %d", live.status)
	}
	b := e.say(tok, "How do I reset my password?")
	convID := b["message"].(map[string]any)["conversation_id"].(string)
	live.message("How do I reset my password?")
	live.message("Settings")
	live.conversation("open")

	// Listed and read through the REST API, in the visitor's mode only.
	list := e.all(e.testKey, "/v1/conversations?status=open", 10)
	if !slices.Equal(list, []string{convID}) {
		t.Fatalf("open conversations %v", list)
	}
	if l := e.all(e.liveKey, "/v1/conversations", 10); len(l) != 0 {
		t.Fatalf("live mode sees %v", l)
	}
	c := e.test("GET", "/v1/conversations/"+convID, nil).ok(t, 200)
	if c["message_count"] != float64(2) || c["status"] != "open" {
		t.Fatalf("conversation %v", c)
	}
	msgs := e.test("GET", "/v1/conversations/"+convID+"/messages", nil).ok(t, 200)["data"].([]any)
	if len(msgs) != 2 || msgs[1].(map[string]any)["author"].(map[string]any)["type"] != "bot" {
		t.Fatalf("messages %v", msgs)
	}

	// Hand-off, an agent's answer and close, each seen live by the visitor.
	e.test("POST", "/v1/conversations/"+convID+"/handoff", map[string]any{"note": "check the account"}).ok(t, 200)
	live.conversation("waiting")
	sent := time.Now()
	e.test("POST", "/v1/conversations/"+convID+"/messages", map[string]any{"body": "Hi, Agent Smith here. Done!",
		"author_id": e.member}).ok(t, 201)
	got := live.message("Agent Smith here")
	if d := time.Since(sent); d > time.Second {
		t.Fatalf("agent reply took %v to arrive", d)
	}
	if a := got["author"].(map[string]any); a["type"] != "agent" || a["name"] != "Agent Smith" || a["id"] != nil {
		t.Fatalf("agent message author %v", a)
	}
	live.conversation("handed_off")
	e.test("POST", "/v1/conversations/"+convID+"/close", nil).ok(t, 200)
	live.conversation("closed")
	c = e.test("GET", "/v1/conversations/"+convID, nil).ok(t, 200)
	if c["message_count"] != float64(3) || c["status"] != "closed" {
		t.Fatalf("conversation %v", c)
	}
	want := []string{"test:conversation.created", "test:conversation.handed_off", "test:conversation.closed"}
	if got := e.events(convID); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	// The visitor writes again: a new conversation, which the stream follows.
	b = e.say(tok, "Thanks! One more question about shipping.")
	if b["message"].(map[string]any)["conversation_id"] == convID {
		t.Fatal("message after close joined the closed conversation")
	}
	live.message("One more question")
	live.conversation("open")
}

func TestWidgetEventsResumeAndIsolation(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{})
	alice, bob := e.session(false), e.session(false)
	first := e.say(alice, "alice: first question about refunds")["message"].(map[string]any)["id"].(string)
	// Resuming after the first message sends only what came later.
	s := e.openStream(alice, "Last-Event-ID", first)
	ev := s.next("a message", func(ev sseEvent) bool { return ev.event == "message" })
	if ev.id == first || ev.data["author"].(map[string]any)["type"] != "bot" {
		t.Fatalf("resumed stream sent %v %v", ev.id, ev.data)
	}
	bobs := e.openStream(bob)
	e.say(bob, "bob: a question about shipping")
	bobs.message("bob:")
	e.say(alice, "alice: second")
	s.message("alice: second")
	// Bob's stream never carries Alice's messages: everything it sent before
	// Bob's next message, written after Alice's, is Bob's.
	e.say(bob, "bob: one more")
	bobs.next("bob's next message", func(ev sseEvent) bool {
		b, _ := ev.data["body"].(string)
		if strings.Contains(b, "alice") {
			t.Fatalf("bob received %v", ev.data)
		}
		return strings.Contains(b, "bob: one more")
	})
	if st := e.openStream("vt_forged.token"); st.status != 401 {
		t.Fatalf("forged token: status %d", st.status)
	}
}

// TestWidgetEventsEndOnShutdown checks that an open stream does not hold
// up the server's graceful shutdown, and outlives the write timeout.
func TestWidgetEventsEndOnShutdown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.OpenDB(t, "")
	svc := app.New(db, app.Options{})
	site, err := svc.CreateSite(ctx, "s", "")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	real := web.NewServer("", web.Handler(svc))
	real.WriteTimeout, real.ReadTimeout = 200*time.Millisecond, 200*time.Millisecond
	srv.Config = real
	srv.Start()
	defer srv.Close()
	e := &env{t: t, db: db, svc: svc, srv: srv, site: site.ID}
	tok := e.session(false)
	s := e.openStream(tok)
	// The real write timeout is what is tested: the stream must outlive it,
	// and no signal can stand in for the server's own clock.
	time.Sleep(400 * time.Millisecond)
	e.say(tok, "still there?")
	s.message("still there?")
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := real.Shutdown(sctx); err != nil {
		t.Fatalf("shutdown with an open stream: %v", err)
	}
	for end := time.After(time.Second); ; {
		select {
		case _, ok := <-s.events:
			if !ok {
				return
			}
		case <-end:
			t.Fatal("stream still open after shutdown")
		}
	}
}

// slowResponder answers once released, or fails while failing is set.
type slowResponder struct {
	mu      sync.Mutex
	release chan struct{}
	fail    bool
	calls   int
	asked   chan struct{} // when set, signalled on each call
}

func (s *slowResponder) Respond(ctx context.Context, q app.Question) (app.Answer, error) {
	s.mu.Lock()
	s.calls++
	fail, release := s.fail, s.release
	s.mu.Unlock()
	if s.asked != nil {
		select {
		case s.asked <- struct{}{}:
		default: // a signal is pending already
		}
	}
	if fail {
		return app.Answer{}, errors.New("provider down")
	}
	select {
	case <-release:
	case <-ctx.Done():
		return app.Answer{}, ctx.Err()
	}
	return app.Answer{Body: "late answer to: " + q.Text, Sources: []chat.Source{{Title: "T", URL: "https://example.com/t"}}}, nil
}

func TestWidgetSlowAssistant(t *testing.T) {
	t.Parallel()
	r := &slowResponder{release: make(chan struct{})}
	e := newWidgetEnv(t, widgetOpts{responder: r, replyWait: 100 * time.Millisecond})
	tok := e.session(false)
	s := e.openStream(tok)
	start := time.Now()
	b := e.say(tok, "hello?")
	if b["reply"] != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("slow assistant: reply %v after %v", b["reply"], time.Since(start))
	}
	// The visitor's message is stored before the assistant answers.
	if l := e.wdo("GET", "/widget/v1/messages", tok, nil).ok(t, 200)["data"].([]any); len(l) != 1 {
		t.Fatalf("%d messages stored", len(l))
	}
	close(r.release)
	got := s.message("late answer to: hello?")
	if len(got["sources"].([]any)) != 1 {
		t.Fatalf("late reply %v", got)
	}
}

func TestWidgetFailingAssistant(t *testing.T) {
	t.Parallel()
	r := &slowResponder{release: make(chan struct{}), fail: true}
	e := newWidgetEnv(t, widgetOpts{responder: r, replyWait: 100 * time.Millisecond})
	tok := e.session(false)
	s := e.openStream(tok)
	b := e.say(tok, "is anyone there?")
	if b["reply"] != nil {
		t.Fatalf("reply %v", b["reply"])
	}
	convID := b["message"].(map[string]any)["conversation_id"].(string)
	// Each retry waits on the (fake) clock; after the last, the visitor is
	// told a person will follow up and the conversation is handed off.
	msgID := b["message"].(map[string]any)["id"].(string)
	for i := 0; i < 2; i++ {
		// Once the failed attempt is recorded, move past its retry time.
		e.waitFor(func() bool {
			j, err := e.db.Read().AssistantJob(context.Background(), msgID)
			return err == nil && j.Attempts > i
		})
		e.clock.Advance(time.Minute) // the worker's next tick finds the retry due
	}
	s.message(app.FallbackReply)
	s.conversation("waiting")
	if c := e.live("GET", "/v1/conversations/"+convID, nil).ok(t, 200); c["status"] != "waiting" || c["message_count"] != float64(2) {
		t.Fatalf("conversation %v", c)
	}
	r.mu.Lock()
	calls := r.calls
	r.mu.Unlock()
	if calls != 3 {
		t.Fatalf("%d attempts, want 3", calls)
	}
}

// waitFor waits until cond holds, looking again after every write the
// service commits.
func (e *env) waitFor(cond func() bool) {
	e.t.Helper()
	sub := e.svc.Changes()
	defer sub.Stop()
	testenv.Until(e.t, sub.C, "waiting on the service's writes", cond)
}

// TestWidgetReplyAfterRestart stops the service before the assistant
// answers: the question stays queued and is answered once after a restart.
func TestWidgetReplyAfterRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db := testenv.Reopen(t, dir)
	r := &slowResponder{release: make(chan struct{})}
	close(r.release)
	svc := app.New(db, app.Options{Assistant: r, ReplyWait: -1})
	site, _ := svc.CreateSite(ctx, "s", "")
	srv := httptest.NewServer(web.Handler(svc))
	e := &env{t: t, db: db, svc: svc, srv: srv, site: site.ID}
	tok := e.session(false)
	b := e.say(tok, "queued question") // no worker runs: the question waits
	if b["reply"] != nil {
		t.Fatal("reply without a worker")
	}
	srv.Close()
	db.Close()

	db = testenv.Reopen(t, dir)
	defer db.Close()
	svc = app.New(db, app.Options{Assistant: r, ReplyWait: -1})
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); svc.AssistantWorker().Run(wctx) }()
	srv = httptest.NewServer(web.Handler(svc))
	defer srv.Close()
	e = &env{t: t, db: db, svc: svc, srv: srv, site: site.ID}
	e.waitFor(func() bool {
		return len(e.wdo("GET", "/widget/v1/messages", tok, nil).ok(t, 200)["data"].([]any)) == 2
	})
	stop()
	<-done
	// A second worker run finds nothing left to answer.
	svc2 := app.New(db, app.Options{Assistant: r, ReplyWait: -1})
	wctx, stop = context.WithTimeout(ctx, 200*time.Millisecond)
	defer stop()
	svc2.AssistantWorker().Run(wctx)
	if l := e.wdo("GET", "/widget/v1/messages", tok, nil).ok(t, 200)["data"].([]any); len(l) != 2 {
		t.Fatalf("%d messages after a second run, want 2", len(l))
	}
	if r.calls != 1 {
		t.Fatalf("assistant asked %d times, want 1", r.calls)
	}
}

// TestWidgetQueuedQuestionAfterHandOff hands a conversation off (or closes
// it) while its question waits for the assistant: the assistant then stays
// silent and the question leaves the queue.
func TestWidgetQueuedQuestionAfterHandOff(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"handoff", "close"} {
		t.Run(action, func(t *testing.T) {
			e := newWidgetEnv(t, widgetOpts{noWorker: true, replyWait: -1})
			tok := e.session(false)
			convID := e.say(tok, "How long does a refund take?")["message"].(map[string]any)["conversation_id"].(string)
			e.live("POST", "/v1/conversations/"+convID+"/"+action, nil).ok(t, 200)
			if action == "handoff" { // no question is queued in a conversation that is not open
				e.say(tok, "Are you there?")
				jobs, err := e.db.Read().DueAssistantJobs(context.Background(), chat.At(e.clock.Now().Add(time.Hour)), 10)
				if err != nil || len(jobs) != 1 {
					t.Fatalf("queued questions %d (%v), want the first one only", len(jobs), err)
				}
			}
			w := e.svc.AssistantWorker()
			if more, err := w.Step(context.Background()); err != nil || more {
				t.Fatalf("step: %v %v", more, err)
			}
			w.Drain()
			if hasBot(e, convID) {
				t.Fatalf("the assistant spoke after %s", action)
			}
			jobs, err := e.db.Read().DueAssistantJobs(context.Background(), chat.At(e.clock.Now().Add(time.Hour)), 10)
			if err != nil || len(jobs) != 0 {
				t.Fatalf("jobs left: %v %v", jobs, err)
			}
		})
	}
}

// TestWidgetHandOffWhileAssistantThinks hands the conversation off while
// the assistant is working out its reply: the late reply is not posted.
func TestWidgetHandOffWhileAssistantThinks(t *testing.T) {
	t.Parallel()
	r := &slowResponder{release: make(chan struct{}), asked: make(chan struct{}, 1)}
	e := newWidgetEnv(t, widgetOpts{responder: r, replyWait: -1})
	tok := e.session(false)
	convID := e.say(tok, "hello?")["message"].(map[string]any)["conversation_id"].(string)
	testenv.Until(t, r.asked, "the assistant asked", func() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.calls == 1 })
	e.live("POST", "/v1/conversations/"+convID+"/handoff", nil).ok(t, 200)
	close(r.release)
	e.waitFor(func() bool {
		jobs, err := e.db.Read().DueAssistantJobs(context.Background(), chat.At(e.clock.Now().Add(time.Hour)), 10)
		return err == nil && len(jobs) == 0
	})
	if c := e.live("GET", "/v1/conversations/"+convID, nil).ok(t, 200); c["message_count"] != float64(1) || c["status"] != "waiting" {
		t.Fatalf("conversation after a late reply: %v", c)
	}
}

// hasBot reports whether the assistant wrote in a conversation.
func hasBot(e *env, convID string) bool {
	for _, o := range e.live("GET", "/v1/conversations/"+convID+"/messages", nil).ok(e.t, 200)["data"].([]any) {
		if o.(map[string]any)["author"].(map[string]any)["type"] == "bot" {
			return true
		}
	}
	return false
}

// pickyResponder is slow on questions containing "slow" until released.
type pickyResponder struct{ release chan struct{} }

func (p pickyResponder) Respond(ctx context.Context, q app.Question) (app.Answer, error) {
	if strings.Contains(q.Text, "slow") {
		select {
		case <-p.release:
		case <-ctx.Done():
			return app.Answer{}, ctx.Err()
		}
	}
	return app.Answer{Body: "answer to " + q.Text}, nil
}

// TestWidgetSlowAnswerHoldsUpNoOther: one visitor's slow answer does not
// delay another visitor's.
func TestWidgetSlowAnswerHoldsUpNoOther(t *testing.T) {
	t.Parallel()
	p := pickyResponder{release: make(chan struct{})}
	e := newWidgetEnv(t, widgetOpts{responder: p, replyWait: 2 * time.Second})
	slow, fast := e.session(false), e.session(false)
	go func() {
		req, _ := http.NewRequest("POST", e.srv.URL+"/widget/v1/messages", strings.NewReader(`{"body":"a slow question"}`))
		req.Header.Set("X-Visitor-Token", slow)
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	e.waitFor(func() bool {
		jobs, _ := e.db.Read().DueAssistantJobs(context.Background(), chat.At(e.clock.Now().Add(time.Hour)), 10)
		return len(jobs) == 1
	})
	if b := e.say(fast, "a quick question"); b["reply"] == nil {
		t.Fatal("a quick question waited for a slow one")
	}
	close(p.release)
}

// One visitor holds at most app.VisitorStreamsMax event streams at once; a
// closed one frees its slot.
func TestWidgetEventStreamsPerVisitor(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{})
	tok := e.session(false)
	var streams []*stream
	for range app.VisitorStreamsMax {
		s := e.openStream(tok)
		if s.status != 200 {
			t.Fatalf("stream %d: status %d", len(streams)+1, s.status)
		}
		streams = append(streams, s)
	}
	if s := e.openStream(tok); s.status != 429 {
		t.Fatalf("one stream too many: status %d, want 429", s.status)
	}
	if s := e.openStream(e.session(false)); s.status != 200 {
		t.Fatalf("another visitor's stream: status %d", s.status)
	}
	streams[0].cancel()
	// The slot is freed when the server sees the connection go, which sends
	// no signal a test can wait on.
	testenv.Eventually(t, "the closed stream's slot freed", func() bool {
		s := e.openStream(tok)
		s.cancel()
		return s.status == 200
	})
}
