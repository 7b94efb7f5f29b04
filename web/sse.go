package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// keepAlive is how often an idle event stream sends a comment, so proxies
// and browsers keep the connection open.
const keepAlive = 15 * time.Second

// eventStream is the shape every Server-Sent Events route shares.
type eventStream struct {
	// Changed signals that there may be something new to send.
	Changed <-chan struct{}
	// Send writes what is new; again asks for it to be called once more at
	// once, without waiting for a signal. An error ends the stream.
	Send func() (again bool, err error)
	// Coalesce, when set, waits that long after a signal before sending, so
	// a busy service does not make the stream look after every write.
	Coalesce time.Duration
	// Alive, when set, is asked at every keep-alive whether the stream may
	// go on (a signed-out session stops receiving).
	Alive func() bool
}

// serveEvents runs an event stream until the client leaves, Send fails,
// or the server shuts down.
func (h *handlers) serveEvents(w http.ResponseWriter, r *http.Request, s eventStream) {
	rc := http.NewResponseController(w)
	// The server's WriteTimeout would cut the stream after a minute.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		slog.DebugContext(r.Context(), "event stream: no write deadline control", "err", err)
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n\n")
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		again, err := s.Send()
		if err != nil {
			if r.Context().Err() == nil {
				slog.ErrorContext(r.Context(), "event stream failed", "request_id", requestID(r), "err", err)
			}
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		if !again && !h.await(w, r, s, tick.C) {
			return
		}
	}
}

// await waits for a signal that something changed, writing keep-alives
// meanwhile; false means the stream ends.
func (h *handlers) await(w http.ResponseWriter, r *http.Request, s eventStream, tick <-chan time.Time) bool {
	for {
		select {
		case <-r.Context().Done():
			return false
		case <-h.closing:
			return false
		case <-s.Changed:
			return s.Coalesce == 0 || h.pause(r, s.Coalesce)
		case <-tick:
			if s.Alive != nil && !s.Alive() {
				return false
			}
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return false
			}
		}
	}
}

// pause waits d unless the stream ends first.
func (h *handlers) pause(r *http.Request, d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	case <-h.closing:
		return false
	}
}

// writeEvent writes one Server-Sent Event whose data is v as JSON.
func writeEvent(w http.ResponseWriter, id, event string, v any) {
	var buf bytes.Buffer
	if id != "" {
		fmt.Fprintf(&buf, "id: %s\n", id)
	}
	fmt.Fprintf(&buf, "event: %s\ndata: ", event)
	enc := json.NewEncoder(&buf) // one line: JSON never holds a raw newline
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return
	}
	buf.WriteString("\n")
	w.Write(buf.Bytes())
}
