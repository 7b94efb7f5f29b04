package web

import (
	"net/http"

	"chatsvc/app"
)

func (h *handlers) listConversations(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "status", "site_id", "contact_id", "rated", "tag", "assignee_id", "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Conversations(r.Context(), mode(r), app.ConversationQuery{Status: q.Get("status"),
		SiteID: q.Get("site_id"), ContactID: q.Get("contact_id"), Rated: q.Get("rated"), Tag: q.Get("tag"),
		AssigneeID: q.Get("assignee_id"), ListParams: listParams(q)})
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getConversation(w http.ResponseWriter, r *http.Request) {
	body, err := h.svc.ConversationRendered(r.Context(), mode(r), r.PathValue("id"), renderJSON)
	replyRendered(w, r, body, err)
}

func (h *handlers) updateConversation(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "assignee_id", "metadata", "tags")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.ConversationUpdate{AssigneeID: b.strOrNull("assignee_id"), Metadata: b.metadata("metadata"),
		Tags: b.strings("tags")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	c, err := h.svc.UpdateConversation(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, c, err)
}

func (h *handlers) handOff(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "assignee_id", "note")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.Handoff{AssigneeID: b.str("assignee_id"), Note: b.str("note")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	c, err := h.svc.HandOff(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, c, err)
}

func (h *handlers) closeConversation(w http.ResponseWriter, r *http.Request) {
	if _, err := decodeBody(w, r); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := h.svc.Close(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, c, err)
}

func (h *handlers) listMessages(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Messages(r.Context(), mode(r), r.PathValue("id"), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) postMessage(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "body", "author_id", "attachments")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.AgentMessage{Body: b.str("body"), AuthorID: b.str("author_id")}
	if atts := b.objects("attachments", "url", "name"); atts.Set {
		in.Attachments.Set = true
		for _, a := range atts.V {
			in.Attachments.V = append(in.Attachments.V, app.AttachmentInput{URL: a.str("url"), Name: a.str("name")})
		}
	}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	m, err := h.svc.PostAgentMessage(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusCreated, m, err)
}

func (h *handlers) getMessage(w http.ResponseWriter, r *http.Request) {
	m, err := h.svc.Message(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, m, err)
}

func (h *handlers) addNote(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "body", "author_id")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.NoteCreate{Body: b.str("body"), AuthorID: b.str("author_id")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	n, err := h.svc.AddNote(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusCreated, n, err)
}

func (h *handlers) listNotes(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.NoteList(r.Context(), mode(r), r.PathValue("id"), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}
