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
	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// TestWidgetAndRESTAgree follows one conversation from the widget through
// the REST API and back: statuses, counts and events agree on both sides,
// and the visitor sees each change live.
func TestWidgetAndRESTAgree(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	live := e.OpenStream(tok)
	if live.Status != 200 {
		t.Fatalf("events: status %d", live.Status)
	}
	b := e.Say(tok, "How do I reset my password?")
	convID := b["message"].(map[string]any)["conversation_id"].(string)
	live.Message("How do I reset my password?")
	live.Message("Settings")
	live.Conversation("open")

	// Listed and read through the REST API, in the visitor's mode only.
	list := e.All(e.TestKey, "/v1/conversations?status=open", 10)
	if !slices.Equal(list, []string{convID}) {
		t.Fatalf("open conversations %v", list)
	}
	if l := e.All(e.LiveKey, "/v1/conversations", 10); len(l) != 0 {
		t.Fatalf("live mode sees %v", l)
	}
	c := e.Test("GET", "/v1/conversations/"+convID, nil).OK(t, 200)
	if c["message_count"] != float64(2) || c["status"] != "open" {
		t.Fatalf("conversation %v", c)
	}
	msgs := e.Test("GET", "/v1/conversations/"+convID+"/messages", nil).OK(t, 200)["data"].([]any)
	if len(msgs) != 2 || msgs[1].(map[string]any)["author"].(map[string]any)["type"] != "bot" {
		t.Fatalf("messages %v", msgs)
	}

	// Hand-off, an agent's answer and close, each seen live by the visitor.
	e.Test("POST", "/v1/conversations/"+convID+"/handoff", map[string]any{"note": "check the account"}).OK(t, 200)
	live.Conversation("waiting")
	sent := time.Now()
	e.Test("POST", "/v1/conversations/"+convID+"/messages", map[string]any{"body": "Hi, Agent Smith here. Done!",
		"author_id": e.Member}).OK(t, 201)
	got := live.Message("Agent Smith here")
	if d := time.Since(sent); d > time.Second {
		t.Fatalf("agent reply took %v to arrive", d)
	}
	if a := got["author"].(map[string]any); a["type"] != "agent" || a["name"] != "Agent Smith" || a["id"] != nil {
		t.Fatalf("agent message author %v", a)
	}
	live.Conversation("handed_off")
	e.Test("POST", "/v1/conversations/"+convID+"/close", nil).OK(t, 200)
	live.Conversation("closed")
	c = e.Test("GET", "/v1/conversations/"+convID, nil).OK(t, 200)
	if c["message_count"] != float64(3) || c["status"] != "closed" {
		t.Fatalf("conversation %v", c)
	}
	want := []string{"test:conversation.created", "test:conversation.handed_off", "test:conversation.closed"}
	if got := e.Events(convID); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	// The visitor writes again: a new conversation, which the stream follows.
	b = e.Say(tok, "Thanks! One more question about shipping.")
	if b["message"].(map[string]any)["conversation_id"] == convID {
		t.Fatal("message after close joined the closed conversation")
	}
	live.Message("One more question")
	live.Conversation("open")
}

func TestWidgetEventsResumeAndIsolation(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	alice, bob := e.Session(false), e.Session(false)
	first := e.Say(alice, "alice: first question about refunds")["message"].(map[string]any)["id"].(string)
	// Resuming after the first message sends only what came later.
	s := e.OpenStream(alice, "Last-Event-ID", first)
	ev := s.Next("a message", func(ev webenv.SSEEvent) bool { return ev.Event == "message" })
	if ev.ID == first || ev.Data["author"].(map[string]any)["type"] != "bot" {
		t.Fatalf("resumed stream sent %v %v", ev.ID, ev.Data)
	}
	bobs := e.OpenStream(bob)
	e.Say(bob, "bob: a question about shipping")
	bobs.Message("bob:")
	e.Say(alice, "alice: second")
	s.Message("alice: second")
	// Bob's stream never carries Alice's messages: everything it sent before
	// Bob's next message, written after Alice's, is Bob's.
	e.Say(bob, "bob: one more")
	bobs.Next("bob's next message", func(ev webenv.SSEEvent) bool {
		b, _ := ev.Data["body"].(string)
		if strings.Contains(b, "alice") {
			t.Fatalf("bob received %v", ev.Data)
		}
		return strings.Contains(b, "bob: one more")
	})
	if st := e.OpenStream("vt_forged.token"); st.Status != 401 {
		t.Fatalf("forged token: status %d", st.Status)
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
	// Short enough to pass while the stream is open, long enough that the
	// test's own requests finish within it under the race detector on a
	// busy machine (at 200 ms they sometimes did not).
	real.WriteTimeout, real.ReadTimeout = time.Second, time.Second
	srv.Config = real
	srv.Start()
	defer srv.Close()
	e := &webenv.Env{T: t, DB: db, Svc: svc, Server: srv, Site: site.ID}
	tok := e.Session(false)
	s := e.OpenStream(tok)
	// The real write timeout is what is tested: the stream must outlive it,
	// and no signal can stand in for the server's own clock.
	time.Sleep(1200 * time.Millisecond)
	e.Say(tok, "still there?")
	s.Message("still there?")
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := real.Shutdown(sctx); err != nil {
		t.Fatalf("shutdown with an open stream: %v", err)
	}
	for end := time.After(time.Second); ; {
		select {
		case _, ok := <-s.Events:
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
	e := webenv.NewWidget(t, webenv.WidgetOptions{Responder: r, ReplyWait: 100 * time.Millisecond})
	tok := e.Session(false)
	s := e.OpenStream(tok)
	start := time.Now()
	b := e.Say(tok, "hello?")
	if b["reply"] != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("slow assistant: reply %v after %v", b["reply"], time.Since(start))
	}
	// The visitor's message is stored before the assistant answers.
	if l := e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any); len(l) != 1 {
		t.Fatalf("%d messages stored", len(l))
	}
	close(r.release)
	got := s.Message("late answer to: hello?")
	if len(got["sources"].([]any)) != 1 {
		t.Fatalf("late reply %v", got)
	}
}

func TestWidgetFailingAssistant(t *testing.T) {
	t.Parallel()
	r := &slowResponder{release: make(chan struct{}), fail: true}
	e := webenv.NewWidget(t, webenv.WidgetOptions{Responder: r, ReplyWait: 100 * time.Millisecond})
	tok := e.Session(false)
	s := e.OpenStream(tok)
	b := e.Say(tok, "is anyone there?")
	if b["reply"] != nil {
		t.Fatalf("reply %v", b["reply"])
	}
	convID := b["message"].(map[string]any)["conversation_id"].(string)
	// Each retry waits on the (fake) clock; after the last, the visitor is
	// told a person will follow up and the conversation is handed off.
	msgID := b["message"].(map[string]any)["id"].(string)
	for i := 0; i < 2; i++ {
		// Once the failed attempt is recorded, move past its retry time.
		waitFor(e, func() bool {
			j, err := e.DB.Read().AssistantJob(context.Background(), msgID)
			return err == nil && j.Attempts > i
		})
		e.Clock.Advance(time.Minute) // the worker's next tick finds the retry due
	}
	s.Message(app.FallbackReply)
	s.Conversation("waiting")
	if c := e.Live("GET", "/v1/conversations/"+convID, nil).OK(t, 200); c["status"] != "waiting" || c["message_count"] != float64(2) {
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
func waitFor(e *webenv.Env, cond func() bool) {
	e.T.Helper()
	sub := e.Svc.Changes()
	defer sub.Stop()
	testenv.Until(e.T, sub.C, "waiting on the service's writes", cond)
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
	e := &webenv.Env{T: t, DB: db, Svc: svc, Server: srv, Site: site.ID}
	tok := e.Session(false)
	b := e.Say(tok, "queued question") // no worker runs: the question waits
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
	e = &webenv.Env{T: t, DB: db, Svc: svc, Server: srv, Site: site.ID}
	waitFor(e, func() bool {
		return len(e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any)) == 2
	})
	stop()
	<-done
	// A second worker run finds nothing left to answer.
	svc2 := app.New(db, app.Options{Assistant: r, ReplyWait: -1})
	wctx, stop = context.WithTimeout(ctx, 200*time.Millisecond)
	defer stop()
	svc2.AssistantWorker().Run(wctx)
	if l := e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any); len(l) != 2 {
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
			e := webenv.NewWidget(t, webenv.WidgetOptions{NoWorker: true, ReplyWait: -1})
			tok := e.Session(false)
			convID := e.Say(tok, "How long does a refund take?")["message"].(map[string]any)["conversation_id"].(string)
			e.Live("POST", "/v1/conversations/"+convID+"/"+action, nil).OK(t, 200)
			if action == "handoff" { // no question is queued in a conversation that is not open
				e.Say(tok, "Are you there?")
				jobs, err := e.DB.Read().DueAssistantJobs(context.Background(), chat.At(e.Clock.Now().Add(time.Hour)), 10)
				if err != nil || len(jobs) != 1 {
					t.Fatalf("queued questions %d (%v), want the first one only", len(jobs), err)
				}
			}
			w := e.Svc.AssistantWorker()
			if more, err := w.Step(context.Background()); err != nil || more {
				t.Fatalf("step: %v %v", more, err)
			}
			w.Drain()
			if hasBot(e, convID) {
				t.Fatalf("the assistant spoke after %s", action)
			}
			jobs, err := e.DB.Read().DueAssistantJobs(context.Background(), chat.At(e.Clock.Now().Add(time.Hour)), 10)
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
	e := webenv.NewWidget(t, webenv.WidgetOptions{Responder: r, ReplyWait: -1})
	tok := e.Session(false)
	convID := e.Say(tok, "hello?")["message"].(map[string]any)["conversation_id"].(string)
	testenv.Until(t, r.asked, "the assistant asked", func() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.calls == 1 })
	e.Live("POST", "/v1/conversations/"+convID+"/handoff", nil).OK(t, 200)
	close(r.release)
	waitFor(e, func() bool {
		jobs, err := e.DB.Read().DueAssistantJobs(context.Background(), chat.At(e.Clock.Now().Add(time.Hour)), 10)
		return err == nil && len(jobs) == 0
	})
	if c := e.Live("GET", "/v1/conversations/"+convID, nil).OK(t, 200); c["message_count"] != float64(1) || c["status"] != "waiting" {
		t.Fatalf("conversation after a late reply: %v", c)
	}
}

// hasBot reports whether the assistant wrote in a conversation.
func hasBot(e *webenv.Env, convID string) bool {
	for _, o := range e.Live("GET", "/v1/conversations/"+convID+"/messages", nil).OK(e.T, 200)["data"].([]any) {
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
	e := webenv.NewWidget(t, webenv.WidgetOptions{Responder: p, ReplyWait: 2 * time.Second})
	slow, fast := e.Session(false), e.Session(false)
	go func() {
		req, _ := http.NewRequest("POST", e.Server.URL+"/widget/v1/messages", strings.NewReader(`{"body":"a slow question"}`))
		req.Header.Set("X-Visitor-Token", slow)
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	waitFor(e, func() bool {
		jobs, _ := e.DB.Read().DueAssistantJobs(context.Background(), chat.At(e.Clock.Now().Add(time.Hour)), 10)
		return len(jobs) == 1
	})
	if b := e.Say(fast, "a quick question"); b["reply"] == nil {
		t.Fatal("a quick question waited for a slow one")
	}
	close(p.release)
}

// One visitor holds at most app.VisitorStreamsMax event streams at once; a
// closed one frees its slot.
func TestWidgetEventStreamsPerVisitor(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(false)
	var streams []*webenv.Stream
	for range app.VisitorStreamsMax {
		s := e.OpenStream(tok)
		if s.Status != 200 {
			t.Fatalf("stream %d: status %d", len(streams)+1, s.Status)
		}
		streams = append(streams, s)
	}
	if s := e.OpenStream(tok); s.Status != 429 {
		t.Fatalf("one stream too many: status %d, want 429", s.Status)
	}
	if s := e.OpenStream(e.Session(false)); s.Status != 200 {
		t.Fatalf("another visitor's stream: status %d", s.Status)
	}
	streams[0].Cancel()
	// The slot is freed when the server sees the connection go, which sends
	// no signal a test can wait on.
	testenv.Eventually(t, "the closed stream's slot freed", func() bool {
		s := e.OpenStream(tok)
		s.Cancel()
		return s.Status == 200
	})
}
