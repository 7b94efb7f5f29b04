package web

import (
	"net/http"

	"chatsvc/app"
)

func (h *handlers) upsertContact(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "email", "external_id", "name", "phone", "attributes")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := contactInput(b)
	in.ExternalID = b.strOrNull("external_id")
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	c, created, err := h.svc.UpsertContact(r.Context(), mode(r), in)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	reply(w, r, status, c, err)
}

func contactInput(b *body) app.ContactInput {
	return app.ContactInput{Email: b.strOrNull("email"), Name: b.strOrNull("name"), Phone: b.strOrNull("phone"),
		Attributes: b.object("attributes")}
}

func (h *handlers) listContacts(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "email", "external_id", "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Contacts(r.Context(), mode(r), app.ContactQuery{Email: q.Get("email"),
		ExternalID: q.Get("external_id"), ListParams: listParams(q)})
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getContact(w http.ResponseWriter, r *http.Request) {
	body, err := h.svc.ContactRendered(r.Context(), mode(r), r.PathValue("id"), renderJSON)
	replyRendered(w, r, body, err)
}

func (h *handlers) updateContact(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "email", "name", "phone", "attributes")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := contactInput(b)
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	c, err := h.svc.UpdateContact(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, c, err)
}

func (h *handlers) deleteContact(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteContact(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, d, err)
}

func (h *handlers) exportContact(w http.ResponseWriter, r *http.Request) {
	x, err := h.svc.ExportContact(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, x, err)
}
