package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/bench/loadgen"
	"chatsvc/chat"
	"chatsvc/knowledge/knowledgetest"
	"chatsvc/storage"
	"chatsvc/web"
)

// benchPages is the size of the knowledge the assistant searches.
const benchPages = 5000

// BenchmarkWidgetRoundTrip reports, in one run, visitor message round trips
// per second (the visitor's message stored, answered by the extractive
// assistant over benchPages pages, and the reply returned in the same
// response) with p50 and p99 latency, from concurrent visitors over
// loopback HTTP; and, for scale, the rate of visitor messages that wait
// for no reply, with the ratio of the two. The index is the in-memory
// knowledge.Searcher of package knowledgetest.
//
//	go test ./bench -run '^$' -bench WidgetRoundTrip -benchtime 1x
func BenchmarkWidgetRoundTrip(b *testing.B) {
	for b.Loop() {
		idx, questions := benchIndex()
		withReply := newWidgetBench(b, assistant.New(idx, assistant.Extractive{}))
		rate, lat := withReply.run(b, questions, true)
		plain := newWidgetBench(b, nil)
		plainRate, _ := plain.run(b, questions, false)
		p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
		b.ReportMetric(rate, "round_trips/s")
		b.ReportMetric(float64(p50.Microseconds())/1000, "p50_ms")
		b.ReportMetric(float64(p99.Microseconds())/1000, "p99_ms")
		b.ReportMetric(plainRate, "messages_without_assistant/s")
		b.ReportMetric(rate/plainRate, "round_trips/plain")
		b.Logf("%d passages; %d visitors: %.0f round trips/s, p50 %v, p99 %v; without the assistant %.0f messages/s (ratio %.2f)",
			idx.Len(), clients, rate, p50, p99, plainRate, rate/plainRate)
	}
}

// benchIndex is the in-memory index over benchDocs.
func benchIndex() (*knowledgetest.Index, []string) {
	pages, questions := benchDocs()
	idx := knowledgetest.New()
	for _, p := range pages {
		idx.Add(p)
	}
	return idx, questions
}

// benchDocs makes benchPages pages on made-up topics, each with a few
// distinctive words, and a question for each that only its page answers.
func benchDocs() ([]knowledgetest.Page, []string) {
	rng := rand.New(rand.NewPCG(1, 2))
	syll := []string{"ka", "lo", "mi", "ra", "ten", "vos", "qui", "del", "mar", "zu", "fen", "tor", "pli", "gan", "sek"}
	word := func() string {
		var s strings.Builder
		for n := 2 + rng.IntN(2); n > 0; n-- {
			s.WriteString(syll[rng.IntN(len(syll))])
		}
		return s.String()
	}
	filler := "Settings are saved for the whole workspace and apply to new conversations at once. " +
		"Team members with the owner role can change them from the dashboard. " +
		"Changes are recorded in the audit log, which keeps entries for one year."
	var pages []knowledgetest.Page
	var questions []string
	for i := 0; i < benchPages; i++ {
		a, c, d := word(), word(), word()
		title := fmt.Sprintf("The %s %s option", a, c)
		text := fmt.Sprintf("The %s %s option controls how %s reports are sent to your team. %s\n\n"+
			"Turn %s %s on from the Settings page; %s reports then arrive every morning. %s",
			a, c, d, filler, a, c, d, filler)
		pages = append(pages, knowledgetest.Page{SourceID: "src_bench", Mode: chat.Test,
			URL: fmt.Sprintf("https://docs.example.com/p/%d", i), Title: title, Text: text})
		questions = append(questions, fmt.Sprintf("How do I turn on the %s %s option for %s reports?", a, c, d))
	}
	return pages, questions
}

type widgetBench struct {
	srv  *httptest.Server
	site string
}

func newWidgetBench(b *testing.B, r app.Responder) *widgetBench {
	ctx := context.Background()
	db, err := storage.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	opts := app.Options{Assistant: r, ReplyWait: 10 * time.Second}
	if r == nil {
		opts.ReplyWait = -1
	}
	svc := app.New(db, opts)
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); svc.AssistantWorker().Run(wctx) }()
	w := &widgetBench{srv: httptest.NewServer(web.Handler(svc))}
	b.Cleanup(func() { w.srv.Close(); stop(); <-done; db.Close() })
	site, err := svc.CreateSite(ctx, "Bench", "")
	if err != nil {
		b.Fatal(err)
	}
	w.site = site.ID
	return w
}

// run has each client, as its own visitor, send questions for one phase
// (a new visitor every 20 messages) and returns messages/s and the sorted
// latencies. With wantReply, a message without the reply is an error.
func (w *widgetBench) run(b *testing.B, questions []string, wantReply bool) (float64, []time.Duration) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	tokens := make([]string, clients) // each client's visitor
	r := loadgen.Run(clients, phase, func(c, i int) (time.Time, error) {
		if i%20 == 0 {
			var s struct {
				VisitorToken string `json:"visitor_token"`
			}
			if err := w.call(client, "", "/widget/v1/sessions", map[string]any{"site_id": w.site,
				"page_url": "https://example.com/", "test": true}, 200, &s); err != nil {
				return time.Time{}, err
			}
			tokens[c] = s.VisitorToken
		}
		q := questions[(c*7919+i*104729)%len(questions)]
		began := time.Now()
		var ex struct {
			Reply *struct {
				Sources []chat.Source `json:"sources"`
			} `json:"reply"`
		}
		err := w.call(client, tokens[c], "/widget/v1/messages", map[string]any{"body": q}, 201, &ex)
		if err == nil && wantReply && (ex.Reply == nil || len(ex.Reply.Sources) == 0) {
			err = fmt.Errorf("no answer with a source to %q", q)
		}
		return began, err
	})
	if r.FirstErr != nil {
		b.Fatal(r.FirstErr)
	}
	return r.Rate(), r.Latencies
}

func (w *widgetBench) call(c *http.Client, token, path string, body any, want int, out any) error {
	data, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", w.srv.URL+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Visitor-Token", token)
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		return fmt.Errorf("%s: %d %s", path, res.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}
