package web

import (
	"net/http"

	"chatsvc/app"
	"chatsvc/chat"
)

func (h *handlers) createTicket(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "subject", "description", "contact_id", "contact", "priority", "conversation_id",
		"assignee_id", "tags", "notify_contact", "metadata")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.TicketCreate{
		Subject:        b.str("subject"),
		Description:    b.strOrNull("description"),
		ContactID:      b.str("contact_id"),
		Priority:       b.str("priority"),
		ConversationID: b.str("conversation_id"),
		AssigneeID:     b.str("assignee_id"),
		Tags:           b.strings("tags"),
		NotifyContact:  b.boolean("notify_contact"),
		Metadata:       b.metadata("metadata"),
	}
	if c, ok := b.nested("contact", "email", "name"); ok {
		in.Contact = app.Value(app.ContactRef{Email: c.str("email"), Name: c.strOrNull("name")})
	}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	t, err := h.svc.CreateTicket(r.Context(), mode(r), in)
	reply(w, r, http.StatusCreated, t, err)
}

func (h *handlers) listTickets(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "status", "priority", "contact_id", "tag", "created_after", "created_before", "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Tickets(r.Context(), mode(r), app.TicketQuery{Status: q.Get("status"), Priority: q.Get("priority"),
		ContactID: q.Get("contact_id"), Tag: q.Get("tag"), CreatedAfter: q.Get("created_after"),
		CreatedBefore: q.Get("created_before"), ListParams: listParams(q)})
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getTicket(w http.ResponseWriter, r *http.Request) {
	body, err := h.svc.TicketRendered(r.Context(), mode(r), r.PathValue("id"), renderJSON)
	replyRendered(w, r, body, err)
}

func (h *handlers) updateTicket(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "subject", "status", "priority", "assignee_id", "tags", "notify_contact", "metadata")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.TicketUpdate{
		Subject:       b.str("subject"),
		Status:        b.str("status"),
		Priority:      b.str("priority"),
		AssigneeID:    b.strOrNull("assignee_id"),
		Tags:          b.strings("tags"),
		NotifyContact: b.boolean("notify_contact"),
		Metadata:      b.metadata("metadata"),
	}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	t, err := h.svc.UpdateTicket(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, t, err)
}

func (h *handlers) deleteTicket(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteTicket(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, d, err)
}

func (h *handlers) addTicketComment(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "body", "author_id", "public", "notify_contact")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.TicketCommentCreate{Body: b.str("body"), AuthorID: b.str("author_id"), Public: b.boolean("public"),
		NotifyContact: b.boolean("notify_contact")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	c, err := h.svc.AddTicketComment(r.Context(), mode(r), r.PathValue("id"), chat.ViaAPI, in)
	reply(w, r, http.StatusCreated, c, err)
}

func (h *handlers) listTicketComments(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.TicketComments(r.Context(), mode(r), r.PathValue("id"), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}
