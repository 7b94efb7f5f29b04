package web

import (
	"net/http"

	"chatsvc/app"
)

func (h *handlers) listEvents(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "type", "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Events(r.Context(), mode(r), app.EventQuery{Type: q.Get("type"), ListParams: listParams(q)})
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getEvent(w http.ResponseWriter, r *http.Request) {
	e, err := h.svc.Event(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, e, err)
}

func (h *handlers) resendEvent(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "webhook_endpoint_id")
	if err != nil {
		writeError(w, r, err)
		return
	}
	endpoint := b.str("webhook_endpoint_id")
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	res, err := h.svc.ResendEvent(r.Context(), mode(r), r.PathValue("id"), endpoint)
	reply(w, r, http.StatusAccepted, res, err)
}
