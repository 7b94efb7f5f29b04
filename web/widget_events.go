package web

import (
	"net/http"
	"time"

	"chatsvc/app"
)

// visitorEvents streams the visitor's new messages (event `message`, id =
// message id) and conversation changes (event `conversation`) as
// Server-Sent Events. It looks again after every committed write to the
// visitor's conversations, so an agent's reply reaches the visitor at once.
// A reconnecting EventSource sends Last-Event-ID and resumes after that
// message. The stream ends when the client leaves or the server shuts down.
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
	changed := h.svc.ChangesOf(v.Visitor.ID)
	defer changed.Stop()
	feed := &app.VisitorFeed{LastMessageID: r.Header.Get("Last-Event-ID")}
	following := ""
	var agentTyped time.Time
	h.serveEvents(w, r, eventStream{Changed: changed.C, Send: func() (bool, error) {
		msgs, conv, err := h.svc.VisitorUpdates(r.Context(), v, feed)
		if err != nil {
			return false, err
		}
		for _, m := range msgs {
			writeEvent(w, m.ID, "message", m)
		}
		if conv != nil {
			writeEvent(w, "", "conversation", conv)
		}
		h.typingNews(w, feed.ConversationID, app.TypingAgent, &agentTyped)
		if len(msgs) == app.MaxVisitorPage {
			return true, nil // more are waiting
		}
		if feed.ConversationID != following {
			// A new conversation: follow it too, and look once more for
			// what it received before it was followed.
			following = feed.ConversationID
			changed.Follow(v.Visitor.ID, following)
			return true, nil
		}
		return false, nil
	}})
}
