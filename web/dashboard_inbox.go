package web

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// inboxView is the desk's conversation list: one view (all, mine,
// unassigned or waiting) by status, the views' counts, the members to
// assign to, and the conversation open beside it ("" for none).
type inboxView struct {
	View    string
	Counts  app.InboxCounts
	Waiting int // conversations waiting for a person (a page's worth at most)
	Groups  []app.InboxGroup
	Members []*chat.Member
	Now     chat.Timestamp
	Open    string
}

// inboxViews are the desk's views; "all" is the default.
var inboxViews = []string{"mine", "unassigned", "all", "waiting"}

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

// inbox shows the desk with no conversation open: on a desktop, the list
// beside an empty pane; on a phone, the list alone.
func (d *dashboard) inbox(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	v, err := d.loadInbox(r, s)
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "inbox", view{Title: "Inbox", Nav: "inbox", Session: s, Data: v, Wide: true})
	return nil
}

// loadInbox reads the list of the request's view (?view=, and ?status=
// with ?cursor= for one status page by page).
func (d *dashboard) loadInbox(r *http.Request, s *app.DashboardSession) (*inboxView, error) {
	ctx, q := r.Context(), r.URL.Query()
	v := &inboxView{View: q.Get("view"), Now: chat.At(d.h.svc.Now())}
	if !slices.Contains(inboxViews, v.View) {
		v.View = "all"
	}
	assignee := inboxAssignee(v.View, s)
	var err error
	switch st := q.Get("status"); {
	case v.View == "waiting":
		st = string(chat.StatusWaiting)
		fallthrough
	case st != "" || q.Has("cursor"):
		// One status, page by page: the full inbox shows the newest of each.
		g, err := d.h.svc.InboxPage(ctx, s.Mode, s.Member.ID, assignee, st, q.Get("cursor"))
		if err != nil {
			return nil, err
		}
		v.Groups = []app.InboxGroup{*g}
	default:
		if v.Groups, err = d.h.svc.Inbox(ctx, s.Mode, s.Member.ID, assignee); err != nil {
			return nil, err
		}
	}
	if v.Counts, err = d.h.svc.InboxViewCounts(ctx, s.Mode, s.Member.ID); err != nil {
		return nil, err
	}
	if v.Waiting, err = d.waitingCount(r, s, v); err != nil {
		return nil, err
	}
	if v.Members, err = d.h.svc.Members(ctx); err != nil {
		return nil, err
	}
	return v, nil
}

// waitingCount is how many conversations wait for a person, up to a page's worth.
func (d *dashboard) waitingCount(r *http.Request, s *app.DashboardSession, v *inboxView) (int, error) {
	if v.View == "all" || v.View == "waiting" {
		for _, g := range v.Groups {
			if g.Status == chat.StatusWaiting {
				return len(g.Rows), nil
			}
		}
	}
	g, err := d.h.svc.InboxPage(r.Context(), s.Mode, s.Member.ID, "", string(chat.StatusWaiting), "")
	if err != nil {
		return 0, err
	}
	return len(g.Rows), nil
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

// deskList is what the desk's list template needs: the list and the
// session's CSRF token for its one-click assign forms.
type deskList struct {
	*inboxView
	CSRF string
}

// ago says how long before now t was, as the page first shows it; the
// page's script keeps it true as time passes.
func ago(now time.Time, t chat.Timestamp) string {
	d := now.Sub(t.Time())
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d d ago", int(d.Hours()/24))
}
