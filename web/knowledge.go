package web

import (
	"net/http"

	"chatsvc/app"
)

func (h *handlers) createKnowledgeSource(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "type", "name", "url", "content", "site_id", "language", "politeness")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.SourceCreate{
		Type:       b.str("type"),
		Name:       b.str("name"),
		URL:        b.strOrNull("url"),
		Content:    b.str("content"),
		SiteID:     b.strOrNull("site_id"),
		Lang:       b.strOrNull("language"),
		Politeness: b.str("politeness"),
	}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	k, err := h.svc.CreateKnowledgeSource(r.Context(), mode(r), in)
	reply(w, r, http.StatusCreated, k, err)
}

func (h *handlers) listKnowledgeSources(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.KnowledgeSources(r.Context(), mode(r), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getKnowledgeSource(w http.ResponseWriter, r *http.Request) {
	k, err := h.svc.KnowledgeSource(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, k, err)
}

func (h *handlers) deleteKnowledgeSource(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteKnowledgeSource(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, d, err)
}

func (h *handlers) syncKnowledgeSource(w http.ResponseWriter, r *http.Request) {
	if _, err := decodeBody(w, r); err != nil { // no body, or an empty object
		writeError(w, r, err)
		return
	}
	k, err := h.svc.SyncKnowledgeSource(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusAccepted, k, err)
}
