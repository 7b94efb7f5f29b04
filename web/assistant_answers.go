package web

import (
	"net/http"

	"chatsvc/app"
)

func (h *handlers) answerQuestion(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "question", "site_id")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.AssistantQuestion{Question: b.str("question"), SiteID: b.strOrNull("site_id")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	a, err := h.svc.AskAssistant(r.Context(), mode(r), in)
	reply(w, r, http.StatusOK, a, err)
}
