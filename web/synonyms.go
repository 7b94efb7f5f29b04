package web

import (
	"net/http"

	"chatsvc/app"
)

// synonymRoutes registers the team's synonyms for the assistant.
func (h *handlers) synonymRoutes(mux router) {
	mux.Handle("POST /v1/assistant/synonyms", noQuery(h.createSynonym))
	mux.HandleFunc("GET /v1/assistant/synonyms", h.listSynonyms)
	mux.Handle("GET /v1/assistant/synonyms/{id}", noQuery(h.getSynonym))
	mux.Handle("PATCH /v1/assistant/synonyms/{id}", noQuery(h.updateSynonym))
	mux.Handle("DELETE /v1/assistant/synonyms/{id}", noInput(h.deleteSynonym))
}

// synonymInput decodes the body of a group's create or update.
func synonymInput(w http.ResponseWriter, r *http.Request) (app.SynonymInput, error) {
	b, err := decodeBody(w, r, "words")
	if err != nil {
		return app.SynonymInput{}, err
	}
	in := app.SynonymInput{Words: b.strings("words")}
	return in, b.Err()
}

func (h *handlers) createSynonym(w http.ResponseWriter, r *http.Request) {
	in, err := synonymInput(w, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	g, err := h.svc.CreateSynonym(r.Context(), mode(r), in)
	reply(w, r, http.StatusCreated, g, err)
}

func (h *handlers) updateSynonym(w http.ResponseWriter, r *http.Request) {
	in, err := synonymInput(w, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	g, err := h.svc.UpdateSynonym(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, g, err)
}

func (h *handlers) listSynonyms(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Synonyms(r.Context(), mode(r), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getSynonym(w http.ResponseWriter, r *http.Request) {
	g, err := h.svc.Synonym(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, g, err)
}

func (h *handlers) deleteSynonym(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteSynonym(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, d, err)
}
