package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/chat"
	"chatsvc/knowledge/knowledgetest"
	"chatsvc/testenv"
)

// helpPages are the knowledge the widget tests' assistant answers from.
var helpPages = []knowledgetest.Page{
	{URL: "https://example.com/help/refunds", Title: "Refunds",
		Text: "Refunds are paid back to the original card within 5 business days. You can ask for a refund within 30 days of purchase from the Orders page."},
	{URL: "https://example.com/help/shipping", Title: "Shipping",
		Text: "Orders ship from our warehouse within 24 hours. Standard delivery takes 3 to 5 days; express delivery takes one day."},
	{URL: "https://example.com/help/password", Title: "Reset your password",
		Text: "To reset your password, open Settings, choose Security and press Reset password. A reset link is e-mailed to you and stays valid for one hour."},
}

// widgetOpts tune newWidgetEnv.
type widgetOpts struct {
	responder app.Responder // default: the extractive assistant over helpPages
	replyWait time.Duration // default: 2s
	noWorker  bool          // do not run the assistant worker
}

// newWidgetEnv is newEnv's service with an assistant and its worker running.
func newWidgetEnv(t *testing.T, o widgetOpts) *env {
	t.Helper()
	if o.responder == nil {
		idx := knowledgetest.New()
		for _, p := range helpPages {
			for _, m := range []chat.Mode{chat.Live, chat.Test} {
				p.Mode = m
				idx.Add(p)
			}
		}
		o.responder = assistant.New(idx, assistant.Extractive{})
	}
	if o.replyWait == 0 {
		o.replyWait = 2 * time.Second
	}
	e := newEnv(t, func(ao *app.Options) { ao.Assistant, ao.ReplyWait = o.responder, o.replyWait })
	if !o.noWorker {
		e.runAssistant()
	}
	return e
}

// runAssistant runs the assistant's worker until the test ends.
func (e *env) runAssistant() {
	wctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	w := e.svc.AssistantWorker()
	w.Every = 50 * time.Millisecond // its tick finds retries come due on the fake clock
	go func() { defer close(done); w.Run(wctx) }()
	e.t.Cleanup(func() { stop(); <-done }) // runs before newEnv's cleanup closes the database
}

// wdo sends a widget API request with a visitor token ("" for none) and
// extra headers (name, value pairs).
func (e *env) wdo(method, path, token string, body any, headers ...string) resp {
	e.t.Helper()
	if token != "" {
		headers = append([]string{"X-Visitor-Token", token}, headers...)
	}
	return toResp(testenv.Call(e.t, e.srv.Client(), method, e.srv.URL+path, body, headers...))
}

// session starts a visitor session on the test site and returns the token.
func (e *env) session(test bool) string {
	e.t.Helper()
	b := e.wdo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.site,
		"page_url": "https://example.com/pricing", "test": test}).ok(e.t, 200)
	return b["visitor_token"].(string)
}

// say posts a visitor message and returns the response body.
func (e *env) say(token, text string) map[string]any {
	e.t.Helper()
	return e.wdo("POST", "/widget/v1/messages", token, map[string]any{"body": text}).ok(e.t, 201)
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	id, event string
	data      map[string]any
}

// stream is an open event stream of a visitor.
type stream struct {
	t      *testing.T
	events chan sseEvent
	cancel func()
	status int
	seen   map[string]bool // message ids received: each must come once
}

// openStream connects to GET /widget/v1/events (token in the query, as
// EventSource sends it) and reads events in the background.
func (e *env) openStream(token string, headers ...string) *stream {
	e.t.Helper()
	return e.openStreamAt(e.srv.URL+"/widget/v1/events?visitor_token="+token, headers...)
}

// openStreamAt connects to the event stream at url (the dashboard's too).
func (e *env) openStreamAt(url string, headers ...string) *stream {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		cancel()
		e.t.Fatal(err)
	}
	s := &stream{t: e.t, events: make(chan sseEvent, 100), cancel: cancel, status: res.StatusCode, seen: map[string]bool{}}
	e.t.Cleanup(cancel)
	go func() {
		defer res.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.event != "" {
					s.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.data)
			}
		}
	}()
	return s
}

// next waits (at most a second, the live-update promise) for the next event
// matching pred.
func (s *stream) next(what string, pred func(sseEvent) bool) sseEvent {
	s.t.Helper()
	deadline := time.After(time.Second)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				s.t.Fatalf("stream ended while waiting for %s", what)
			}
			if ev.event == "message" {
				if s.seen[ev.id] {
					s.t.Fatalf("message %s sent twice", ev.id)
				}
				s.seen[ev.id] = true
			}
			if pred(ev) {
				return ev
			}
		case <-deadline:
			s.t.Fatalf("no %s within a second", what)
		}
	}
}

// message waits for a message event whose body contains text.
func (s *stream) message(text string) map[string]any {
	s.t.Helper()
	return s.next("message "+text, func(ev sseEvent) bool {
		b, _ := ev.data["body"].(string)
		return ev.event == "message" && strings.Contains(b, text)
	}).data
}

// conversation waits for a conversation event with the given status.
func (s *stream) conversation(status string) map[string]any {
	s.t.Helper()
	return s.next("conversation "+status, func(ev sseEvent) bool {
		return ev.event == "conversation" && ev.data["status"] == status
	}).data
}
