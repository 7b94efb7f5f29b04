package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"chatsvc/app"
)

// keepAlive is how often an idle event stream sends a comment, so proxies
// and browsers keep the connection open.
const keepAlive = 15 * time.Second

// visitorEvents streams the visitor's new messages (event `message`, id =
// message id) and conversation changes (event `conversation`) as
// Server-Sent Events. It looks again after every committed write to the
// visitor's conversations, so an agent's reply reaches the visitor at once. A reconnecting EventSource
// sends Last-Event-ID and resumes after that message. The stream ends when
// the client leaves or the server shuts down.
func (h *handlers) visitorEvents(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "visitor_token")
	if err != nil {
		writeError(w, r, err)
		return
	}
	v, ok := h.visit(w, r, q.Get("visitor_token"))
	if !ok {
		return
	}
	release, err := h.svc.HoldVisitorStream(v)
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer release()
	rc := http.NewResponseController(w)
	// The server's WriteTimeout would cut the stream after a minute.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		slog.DebugContext(r.Context(), "event stream: no write deadline control", "err", err)
	}
	changed := h.svc.ChangesOf(v.Visitor.ID)
	defer changed.Stop()
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n\n")
	feed := &app.VisitorFeed{LastMessageID: r.Header.Get("Last-Event-ID")}
	following := ""
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		for {
			msgs, conv, err := h.svc.VisitorUpdates(r.Context(), v, feed)
			if err != nil {
				if r.Context().Err() == nil {
					slog.ErrorContext(r.Context(), "event stream failed", "request_id", requestID(r), "err", err)
				}
				return
			}
			for _, m := range msgs {
				writeEvent(w, m.ID, "message", m)
			}
			if conv != nil {
				writeEvent(w, "", "conversation", conv)
			}
			if len(msgs) < app.MaxVisitorPage {
				break
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
		if feed.ConversationID != following {
			// A new conversation: follow it too, and look once more for
			// what it received before it was followed.
			following = feed.ConversationID
			changed.Follow(v.Visitor.ID, following)
			continue
		}
		select {
		case <-r.Context().Done():
			return
		case <-h.closing:
			return
		case <-changed.C:
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		}
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
