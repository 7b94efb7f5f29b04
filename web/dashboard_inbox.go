package web

import (
	"net/http"

	"chatsvc/app"
)

// inbox shows conversations by status, those waiting for a person first.
func (d *dashboard) inbox(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	q := r.URL.Query()
	var groups []app.InboxGroup
	if st := q.Get("status"); st != "" || q.Has("cursor") {
		// One status, page by page: the full inbox shows the newest of each.
		g, err := d.h.svc.InboxPage(r.Context(), s.Mode, s.Member.ID, st, q.Get("cursor"))
		if err != nil {
			return err
		}
		groups = []app.InboxGroup{*g}
	} else {
		var err error
		if groups, err = d.h.svc.Inbox(r.Context(), s.Mode, s.Member.ID); err != nil {
			return err
		}
	}
	d.render(w, r, http.StatusOK, "inbox", view{Title: "Inbox", Nav: "inbox", Session: s, Data: groups})
	return nil
}
