package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Hit is one request a Receiver got.
type Hit struct {
	At        time.Time // by the receiver's clock
	Header    http.Header
	Body      []byte
	EventID   string // the payload's id and type, when it is an event
	EventType string
}

// Receiver is a real HTTP server standing in for a customer's webhook
// endpoint: it keeps every request and signals each arrival.
type Receiver struct {
	srv     *httptest.Server
	now     func() time.Time
	answer  func(n int, r *http.Request) int
	arrived chan struct{}
	mu      sync.Mutex
	hits    []Hit
}

// NewReceiver starts a receiver that stamps each request with now (nil:
// the real time) and answers the nth (0-based) with answer's status (nil:
// 200); answer may read the body again. It closes when the test ends.
func NewReceiver(tb testing.TB, now func() time.Time, answer func(n int, r *http.Request) int) *Receiver {
	if now == nil {
		now = time.Now
	}
	rc := &Receiver{now: now, answer: answer, arrived: make(chan struct{}, 1)}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	tb.Cleanup(rc.srv.Close)
	return rc
}

func (rc *Receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var p struct{ ID, Type string }
	json.Unmarshal(body, &p)
	rc.mu.Lock()
	n := len(rc.hits)
	rc.hits = append(rc.hits, Hit{At: rc.now(), Header: r.Header.Clone(), Body: body, EventID: p.ID, EventType: p.Type})
	rc.mu.Unlock()
	select {
	case rc.arrived <- struct{}{}:
	default: // a signal is already waiting
	}
	status := 200
	if rc.answer != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		status = rc.answer(n, r)
	}
	w.WriteHeader(status)
}

// Hits lists the requests received, in order.
func (rc *Receiver) Hits() []Hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Hit(nil), rc.hits...)
}

// Len counts the requests received.
func (rc *Receiver) Len() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.hits)
}

// Types lists the event types received, in order.
func (rc *Receiver) Types() []string {
	var out []string
	for _, h := range rc.Hits() {
		out = append(out, h.EventType)
	}
	return out
}

// Arrived is signalled after each request is recorded, for Until.
func (rc *Receiver) Arrived() <-chan struct{} { return rc.arrived }

// URL is the endpoint's address.
func (rc *Receiver) URL() string { return rc.srv.URL + "/hook" }
