package web

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/http"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
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
	groups, err := d.h.svc.Inbox(ctx, s.Mode, s.Member.ID, "")
	if err != nil {
		return inboxState{}, err
	}
	var st inboxState
	h := fnv.New64a()
	for _, g := range groups {
		for _, row := range g.Rows {
			if g.Status == chat.StatusWaiting {
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
	changed := d.h.svc.Changes()
	defer changed.Stop()
	last := ""
	// A conversation page also hears when its visitor types.
	conv, visitorTyped := r.URL.Query().Get("conversation"), time.Time{}
	d.h.serveEvents(w, r, eventStream{Changed: changed.C, Coalesce: inboxCheckEvery,
		Send: func() (bool, error) {
			st, err := d.inboxState(r.Context(), s)
			if err == nil && st.Digest != last {
				writeEvent(w, "", "inbox", st)
				last = st.Digest
			}
			d.h.typingNews(w, conv, app.TypingVisitor, &visitorTyped)
			return false, err
		},
		Alive: func() bool {
			_, err := d.h.svc.DashboardSessionOf(r.Context(), sessionToken(r))
			return err == nil
		}})
	return nil
}

func sessionToken(r *http.Request) string {
	if c, err := r.Cookie(sessionCookie); err == nil {
		return c.Value
	}
	return ""
}
