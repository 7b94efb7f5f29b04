package web

import (
	"net/http"
	"time"

	"chatsvc/app"
)

// visitorTyping notes the visitor typing; the widget calls it at most every
// few seconds while the visitor types.
func (h *handlers) visitorTyping(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visitNoBody(w, r)
	if !ok {
		return
	}
	if err := h.svc.VisitorTyping(r.Context(), v); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// agentTyping notes a member typing a reply in the conversation.
func (d *dashboard) agentTyping(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if err := d.h.svc.AgentTyping(r.Context(), s.Mode, r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// typingEvent is the `typing` event of a live stream: the other side is
// typing in the conversation, for the next Seconds.
type typingEvent struct {
	ConversationID string `json:"conversation_id"`
	Seconds        int    `json:"seconds"`
}

// typingNews writes a `typing` event when side typed in conv since *last,
// the last mark the stream told about, and moves *last.
func (h *handlers) typingNews(w http.ResponseWriter, conv, side string, last *time.Time) {
	if conv == "" {
		return
	}
	if at := h.svc.TypingAt(conv, side); at.After(*last) {
		writeEvent(w, "", "typing", typingEvent{ConversationID: conv, Seconds: int(app.TypingFor / time.Second)})
		*last = at
	}
}
