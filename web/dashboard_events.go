package web

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/http"
	"time"

	"chatsvc/app"
)

// inboxState is what the dashboard's live stream reports: how many
// conversations wait for a person, how many messages the member has not
// seen, and a digest that changes whenever any listed conversation does.
type inboxState struct {
	Waiting int    `json:"waiting"`
	Unread  int    `json:"unread"`
	Digest  string `json:"digest"`
}

func (d *dashboard) inboxState(ctx context.Context, s *app.DashboardSession) (inboxState, error) {
	groups, err := d.h.svc.Inbox(ctx, s.Mode, s.Member.ID)
	if err != nil {
		return inboxState{}, err
	}
	var st inboxState
	h := fnv.New64a()
	for _, g := range groups {
		for _, row := range g.Rows {
			if g.Status == "waiting" {
				st.Waiting++
			}
			st.Unread += row.Unread
			fmt.Fprintf(h, "%s/%s/%d/%d;", row.ID, row.Status, row.MessageCount, row.UpdatedAt)
		}
	}
	st.Digest = fmt.Sprintf("%x", h.Sum64())
	return st, nil
}

// inboxCheckEvery bounds how often one dashboard's stream recomputes the
// inbox: the live promise is a second, and a busy service writes far more often.
const inboxCheckEvery = 250 * time.Millisecond

// events streams the inbox's state as Server-Sent Events (event `inbox`)
// each time it changes, so pages refresh their lists and the title shows
// what waits. It looks again after every committed write; the stream ends
// when the client leaves, the session ends or the server shuts down.
func (d *dashboard) events(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	rc := http.NewResponseController(w)
	// The server's WriteTimeout would cut the stream after a minute.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		slog.DebugContext(r.Context(), "dashboard stream: no write deadline control", "err", err)
	}
	changed := d.h.svc.Changes()
	defer changed.Stop()
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n\n")
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	last := ""
	for {
		st, err := d.inboxState(r.Context(), s)
		if err != nil {
			if r.Context().Err() == nil {
				slog.ErrorContext(r.Context(), "dashboard stream failed", "request_id", requestID(r), "err", err)
			}
			return nil
		}
		if st.Digest != last {
			writeEvent(w, "", "inbox", st)
			last = st.Digest
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
		select {
		case <-r.Context().Done():
			return nil
		case <-d.h.closing:
			return nil
		case <-changed.C:
			// Writes coalesce: each stream looks at most every
			// inboxCheckEvery, however busy the service is.
			select {
			case <-time.After(inboxCheckEvery):
			case <-r.Context().Done():
				return nil
			case <-d.h.closing:
				return nil
			}
		case <-tick.C:
			// A signed-out or expired session stops receiving.
			if _, err := d.h.svc.DashboardSessionOf(r.Context(), sessionToken(r)); err != nil {
				return nil
			}
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
		}
	}
}

func sessionToken(r *http.Request) string {
	if c, err := r.Cookie(sessionCookie); err == nil {
		return c.Value
	}
	return ""
}
