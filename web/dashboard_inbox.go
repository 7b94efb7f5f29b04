package web

import (
	"net/http"

	"chatsvc/app"
)

// inbox shows conversations by status, those waiting for a person first.
func (d *dashboard) inbox(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	groups, err := d.h.svc.Inbox(r.Context(), s.Mode, s.Member.ID)
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "inbox", view{Title: "Inbox", Nav: "inbox", Session: s, Data: groups})
	return nil
}
