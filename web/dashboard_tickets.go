package web

import (
	"net/http"
	"net/url"
	"strings"

	"chatsvc/app"
	"chatsvc/chat"
)

func ticketPath(id string) string { return "/app/tickets/" + url.PathEscape(id) }

// ticketFilters are the API's ticket list filters, as the list page's form sends them.
var ticketFilters = []string{"status", "priority", "contact_id", "tag", "created_after", "created_before", "cursor"}

func (d *dashboard) tickets(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	q := r.URL.Query()
	in := app.TicketQuery{Status: q.Get("status"), Priority: q.Get("priority"), ContactID: q.Get("contact_id"),
		Tag: q.Get("tag"), CreatedAfter: q.Get("created_after"), CreatedBefore: q.Get("created_before"),
		ListParams: app.ListParams{Limit: "50", Cursor: q.Get("cursor")}}
	l, err := d.h.svc.Tickets(r.Context(), s.Mode, in)
	if err != nil {
		return err
	}
	filters := map[string]string{}
	for _, f := range ticketFilters {
		filters[f] = q.Get(f)
	}
	next := nextPage("/app/tickets", q, l.NextCursor)
	d.render(w, r, http.StatusOK, "tickets", view{Title: "Tickets", Nav: "tickets", Session: s,
		Data: map[string]any{"List": l, "Filter": filters, "Next": next}})
	return nil
}

func (d *dashboard) ticket(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	t, err := d.h.svc.Ticket(r.Context(), s.Mode, r.PathValue("id"))
	if err != nil {
		return err
	}
	members, err := d.h.svc.Members(r.Context())
	if err != nil {
		return err
	}
	var contact *chat.Contact
	if contact, err = d.h.svc.Contact(r.Context(), s.Mode, t.ContactID); err != nil && !isKind(err, app.NotFound) {
		return err
	}
	comments, err := app.Collect(1000, func(lp app.ListParams) (app.List[*chat.TicketComment], error) {
		return d.h.svc.TicketComments(r.Context(), s.Mode, t.ID, lp)
	})
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "ticket", view{Title: t.Subject, Nav: "tickets", Session: s,
		Data: map[string]any{"T": t, "Members": members, "Contact": contact, "Comments": comments,
			"Statuses":   app.TicketStatuses,
			"Priorities": app.Priorities}})
	return nil
}

// updateTicket applies the detail page's form: status, priority, assignee
// and tags (comma-separated) at once; unchanged values change nothing.
func (d *dashboard) updateTicket(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	in := app.TicketUpdate{Status: app.Value(r.PostFormValue("status")), Priority: app.Value(r.PostFormValue("priority")),
		AssigneeID: app.Field[string]{Set: true, Null: true}, Tags: app.Value([]string{})}
	if a := r.PostFormValue("assignee_id"); a != "" {
		in.AssigneeID = app.Value(a)
	}
	for _, tag := range strings.Split(r.PostFormValue("tags"), ",") {
		if tag = strings.TrimSpace(tag); tag != "" {
			in.Tags.V = append(in.Tags.V, tag)
		}
	}
	if r.PostFormValue("notify_contact") == "" {
		in.NotifyContact = app.Value(false)
	}
	t, err := d.h.svc.UpdateTicket(r.Context(), s.Mode, id, in)
	if err != nil {
		return err
	}
	return back(w, r, ticketPath(t.ID), "Ticket saved.")
}

// commentTicket adds the signed-in member's comment: a reply e-mailed to
// the contact, or an internal comment when "internal" is ticked.
func (d *dashboard) commentTicket(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	internal := r.PostFormValue("internal") != ""
	in := app.TicketCommentCreate{Body: app.Value(r.PostFormValue("body")), AuthorID: app.Value(s.Member.ID),
		Public: app.Value(!internal)}
	if _, err := d.h.svc.AddTicketComment(r.Context(), s.Mode, id, chat.ViaDashboard, in); err != nil {
		return err
	}
	if internal {
		return back(w, r, ticketPath(id), "Internal comment added.")
	}
	return back(w, r, ticketPath(id), "Reply sent.")
}
