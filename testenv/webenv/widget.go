package webenv

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

// WidgetOptions tune NewWidget.
type WidgetOptions struct {
	Responder app.Responder // default: the extractive assistant over helpPages
	ReplyWait time.Duration // default: 2s
	NoWorker  bool          // do not run the assistant worker
}

// NewWidget is New's service with an assistant and its worker running.
func NewWidget(t *testing.T, o WidgetOptions) *Env {
	t.Helper()
	if o.Responder == nil {
		idx := knowledgetest.New()
		for _, p := range helpPages {
			for _, m := range []chat.Mode{chat.Live, chat.Test} {
				p.Mode = m
				idx.Add(p)
			}
		}
		o.Responder = assistant.New(idx, assistant.Extractive{})
	}
	if o.ReplyWait == 0 {
		o.ReplyWait = 2 * time.Second
	}
	e := New(t, func(ao *app.Options) { ao.Assistant, ao.ReplyWait = o.Responder, o.ReplyWait })
	if !o.NoWorker {
		e.RunAssistant()
	}
	return e
}

// RunAssistant runs the assistant's worker until the test ends.
func (e *Env) RunAssistant() {
	wctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	w := e.Svc.AssistantWorker()
	w.Every = 50 * time.Millisecond // its tick finds retries come due on the fake clock
	go func() { defer close(done); w.Run(wctx) }()
	e.T.Cleanup(func() { stop(); <-done }) // runs before New's cleanup closes the database
}

// WidgetDo sends a widget API request with a visitor token ("" for none) and
// extra headers (name, value pairs).
func (e *Env) WidgetDo(method, path, token string, body any, headers ...string) Resp {
	e.T.Helper()
	if token != "" {
		headers = append([]string{"X-Visitor-Token", token}, headers...)
	}
	return ToResp(testenv.Call(e.T, e.Server.Client(), method, e.Server.URL+path, body, headers...))
}

// Session starts a visitor Session on the test site and returns the token.
func (e *Env) Session(test bool) string {
	e.T.Helper()
	b := e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site,
		"page_url": "https://example.com/pricing", "test": test}).OK(e.T, 200)
	return b["visitor_token"].(string)
}

// Say posts a visitor message and returns the response body.
func (e *Env) Say(token, text string) map[string]any {
	e.T.Helper()
	return e.WidgetDo("POST", "/widget/v1/messages", token, map[string]any{"body": text}).OK(e.T, 201)
}

// SSEEvent is one Server-Sent Event.
type SSEEvent struct {
	ID, Event string
	Data      map[string]any
}

// Stream is an open event Stream of a visitor.
type Stream struct {
	t      *testing.T
	Events chan SSEEvent // closed when the stream ends
	Cancel func()        // closes the stream
	Status int
	seen   map[string]bool // message ids received: each must come once
}

// OpenStream connects to GET /widget/v1/events (token in the query, as
// EventSource sends it) and reads events in the background.
func (e *Env) OpenStream(token string, headers ...string) *Stream {
	e.T.Helper()
	return e.OpenStreamAt(e.Server.URL+"/widget/v1/events?visitor_token="+token, headers...)
}

// OpenStreamAt connects to the event stream at url (the dashboard's too).
func (e *Env) OpenStreamAt(url string, headers ...string) *Stream {
	e.T.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := e.Server.Client().Do(req)
	if err != nil {
		cancel()
		e.T.Fatal(err)
	}
	s := &Stream{t: e.T, Events: make(chan SSEEvent, 100), Cancel: cancel, Status: res.StatusCode, seen: map[string]bool{}}
	e.T.Cleanup(cancel)
	go func() {
		defer res.Body.Close()
		defer close(s.Events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev SSEEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Event != "" {
					s.Events <- ev
				}
				ev = SSEEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Event = line[7:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.Data)
			}
		}
	}()
	return s
}

// Next waits (at most a second, the live-update promise) for the Next event
// matching pred.
func (s *Stream) Next(what string, pred func(SSEEvent) bool) SSEEvent {
	s.t.Helper()
	deadline := time.After(time.Second)
	for {
		select {
		case ev, ok := <-s.Events:
			if !ok {
				s.t.Fatalf("stream ended while waiting for %s", what)
			}
			if ev.Event == "message" {
				if s.seen[ev.ID] {
					s.t.Fatalf("message %s sent twice", ev.ID)
				}
				s.seen[ev.ID] = true
			}
			if pred(ev) {
				return ev
			}
		case <-deadline:
			s.t.Fatalf("no %s within a second", what)
		}
	}
}

// Message waits for a Message event whose body contains text.
func (s *Stream) Message(text string) map[string]any {
	s.t.Helper()
	return s.Next("message "+text, func(ev SSEEvent) bool {
		b, _ := ev.Data["body"].(string)
		return ev.Event == "message" && strings.Contains(b, text)
	}).Data
}

// Conversation waits for a Conversation event with the given status.
func (s *Stream) Conversation(status string) map[string]any {
	s.t.Helper()
	return s.Next("conversation "+status, func(ev SSEEvent) bool {
		return ev.Event == "conversation" && ev.Data["status"] == status
	}).Data
}

// Ask posts a visitor question and returns the assistant's reply id and the conversation id.
func Ask(e *Env, token, text string) (replyID, convID string) {
	e.T.Helper()
	b := e.Say(token, text)
	reply, ok := b["reply"].(map[string]any)
	if !ok {
		e.T.Fatalf("no reply to %q: %v", text, b)
	}
	return reply["id"].(string), b["message"].(map[string]any)["conversation_id"].(string)
}
