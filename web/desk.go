package web

import (
	"net/http"

	"chatsvc/app"
)

// deskRoutes registers the agent's desk: canned replies and search.
func (h *handlers) deskRoutes(mux router) {
	mux.Handle("POST /v1/canned-replies", noQuery(h.createCannedReply))
	mux.HandleFunc("GET /v1/canned-replies", h.listCannedReplies)
	mux.Handle("GET /v1/canned-replies/{id}", noQuery(h.getCannedReply))
	mux.Handle("PATCH /v1/canned-replies/{id}", noQuery(h.updateCannedReply))
	mux.Handle("DELETE /v1/canned-replies/{id}", noInput(h.deleteCannedReply))
	mux.HandleFunc("GET /v1/search", h.search)
}

// cannedReplyInput decodes the body of a canned reply's create or update.
func cannedReplyInput(w http.ResponseWriter, r *http.Request) (app.CannedReplyInput, error) {
	b, err := decodeBody(w, r, "shortcut", "title", "body")
	if err != nil {
		return app.CannedReplyInput{}, err
	}
	in := app.CannedReplyInput{Shortcut: b.strOrNull("shortcut"), Title: b.strOrNull("title"), Body: b.strOrNull("body")}
	return in, b.Err()
}

func (h *handlers) createCannedReply(w http.ResponseWriter, r *http.Request) {
	in, err := cannedReplyInput(w, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := h.svc.CreateCannedReply(r.Context(), mode(r), in)
	reply(w, r, http.StatusCreated, c, err)
}

func (h *handlers) updateCannedReply(w http.ResponseWriter, r *http.Request) {
	in, err := cannedReplyInput(w, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := h.svc.UpdateCannedReply(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, c, err)
}

func (h *handlers) listCannedReplies(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.CannedReplies(r.Context(), mode(r), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getCannedReply(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.CannedReply(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, c, err)
}

func (h *handlers) deleteCannedReply(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteCannedReply(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, d, err)
}

func (h *handlers) search(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "q", "type", "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Search(r.Context(), mode(r), app.SearchQuery{Q: q.Get("q"), Type: q.Get("type"), ListParams: listParams(q)})
	reply(w, r, http.StatusOK, list, err)
}
