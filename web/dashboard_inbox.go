package web

import (
	"fmt"
	"net/http"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// inboxView is the inbox page's data: one view (all, mine or unassigned)
// by status, the views' counts, and the members to assign to.
type inboxView struct {
	View    string
	Counts  app.InboxCounts
	Groups  []app.InboxGroup
	Members []*chat.Member
	Now     chat.Timestamp
}

// inboxAssignee is the assignee filter of an inbox view.
func inboxAssignee(view string, s *app.DashboardSession) string {
	switch view {
	case "mine":
		return s.Member.ID
	case "unassigned":
		return "none"
	}
	return ""
}

// inbox shows conversations by status, those waiting for a person first.
func (d *dashboard) inbox(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	ctx, q := r.Context(), r.URL.Query()
	v := inboxView{View: q.Get("view"), Now: chat.At(d.h.svc.Now())}
	if v.View != "mine" && v.View != "unassigned" {
		v.View = "all"
	}
	assignee := inboxAssignee(v.View, s)
	var err error
	if st := q.Get("status"); st != "" || q.Has("cursor") {
		// One status, page by page: the full inbox shows the newest of each.
		g, err := d.h.svc.InboxPage(ctx, s.Mode, s.Member.ID, assignee, st, q.Get("cursor"))
		if err != nil {
			return err
		}
		v.Groups = []app.InboxGroup{*g}
	} else if v.Groups, err = d.h.svc.Inbox(ctx, s.Mode, s.Member.ID, assignee); err != nil {
		return err
	}
	if v.Counts, err = d.h.svc.InboxViewCounts(ctx, s.Mode, s.Member.ID); err != nil {
		return err
	}
	if v.Members, err = d.h.svc.Members(ctx); err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "inbox", view{Title: "Inbox", Nav: "inbox", Session: s, Data: v})
	return nil
}

// waited says how long ago t was, in the largest whole unit.
func waited(now, t chat.Timestamp) string {
	d := now.Time().Sub(t.Time())
	switch {
	case d < time.Minute:
		return "less than a minute"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}
