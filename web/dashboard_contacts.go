package web

import (
	"net/http"
	"strings"

	"chatsvc/app"
	"chatsvc/chat"
)

// contacts lists contacts, or finds them by exact e-mail or external id.
func (d *dashboard) contacts(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	q := r.URL.Query()
	in := app.ContactQuery{ListParams: app.ListParams{Limit: "50", Cursor: q.Get("cursor")}}
	find := q.Get("q")
	if find != "" {
		if strings.Contains(find, "@") {
			in.Email = find
		} else {
			in.ExternalID = find
		}
	}
	l, err := d.h.svc.Contacts(r.Context(), s.Mode, in)
	if err != nil {
		return err
	}
	if find != "" && len(l.Data) == 0 && q.Get("cursor") == "" {
		if l.Data, err = d.contactsByWords(r, s, find); err != nil {
			return err
		}
	}
	next := nextPage("/app/contacts", q, l.NextCursor)
	d.render(w, r, http.StatusOK, "contacts", view{Title: "Contacts", Nav: "contacts", Session: s,
		Data: map[string]any{"List": l, "Q": find, "Next": next}})
	return nil
}

// contactsByWords finds contacts whose name, e-mail, phone or external id
// holds every word of find (the desk's search), when no address or id
// matches it exactly: "ada" finds Ada Lovelace and ada@example.com.
func (d *dashboard) contactsByWords(r *http.Request, s *app.DashboardSession, find string) ([]*chat.Contact, error) {
	hits, err := d.h.svc.Search(r.Context(), s.Mode, app.SearchQuery{Q: find, Type: "contact", ListParams: app.ListParams{Limit: "50"}})
	if err != nil {
		return nil, err
	}
	var out []*chat.Contact
	for _, h := range hits.Data {
		c, err := d.h.svc.Contact(r.Context(), s.Mode, h.ID)
		if isKind(err, app.NotFound) {
			continue // erased since it was indexed
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// contact shows a contact with their conversations and tickets.
func (d *dashboard) contact(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	ctx, id := r.Context(), r.PathValue("id")
	c, err := d.h.svc.Contact(ctx, s.Mode, id)
	if err != nil {
		return err
	}
	convs, err := d.h.svc.Conversations(ctx, s.Mode, app.ConversationQuery{ContactID: id, ListParams: app.ListParams{Limit: "50"}})
	if err != nil {
		return err
	}
	tickets, err := d.h.svc.Tickets(ctx, s.Mode, app.TicketQuery{ContactID: id, ListParams: app.ListParams{Limit: "50"}})
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "contact", view{Title: "Contact", Nav: "contacts", Session: s,
		Data: map[string]any{"C": c, "Conversations": convs.Data, "Tickets": tickets.Data}})
	return nil
}

// exportContact downloads everything held about a contact, as the REST
// API's export gives it, for the team to answer an access request.
func (d *dashboard) exportContact(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	x, err := d.h.svc.ExportContact(r.Context(), s.Mode, r.PathValue("id"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+x.Contact.ID+`.json"`)
	writeJSON(w, http.StatusOK, x)
	return nil
}

// eraseContact erases a contact once the form's confirmation box is ticked.
func (d *dashboard) eraseContact(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if r.PostFormValue("confirm") != "erase" {
		return app.Invalidf("confirm", "Tick the box to confirm the erasure; it cannot be undone.")
	}
	if _, err := d.h.svc.DeleteContact(r.Context(), s.Mode, r.PathValue("id")); err != nil {
		return err
	}
	return back(w, r, "/app/contacts", "The contact has been erased.")
}
