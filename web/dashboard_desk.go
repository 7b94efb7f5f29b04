package web

import (
	"net/http"
	"strings"

	"chatsvc/app"
	"chatsvc/chat"
)

// The agent's desk in the dashboard: notes and tags on a conversation,
// canned replies, and search.

// deskRoutes lists the desk's pages and actions.
func (d *dashboard) deskRoutes() []dashRoute {
	return []dashRoute{
		{"POST /app/conversations/{id}/notes", d.addNote},
		{"POST /app/conversations/{id}/tags", d.setTags},
		{"GET /app/canned-replies", d.cannedReplies},
		{"POST /app/canned-replies", d.createCannedReply},
		{"POST /app/canned-replies/{id}/delete", d.deleteCannedReply},
		{"GET /app/search", d.search},
	}
}

func (d *dashboard) addNote(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	in := app.NoteCreate{Body: app.Value(r.PostFormValue("body")), AuthorID: app.Value(s.Member.ID)}
	if _, err := d.h.svc.AddNote(r.Context(), s.Mode, id, in); err != nil {
		return err
	}
	return back(w, r, convPage(r, id), "Note added.")
}

// setTags replaces the conversation's tags with the form's comma-separated list.
func (d *dashboard) setTags(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	tags := []string{}
	for _, t := range strings.Split(r.PostFormValue("tags"), ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	if _, err := d.h.svc.UpdateConversation(r.Context(), s.Mode, id, app.ConversationUpdate{Tags: app.Value(tags)}); err != nil {
		return err
	}
	return back(w, r, convPage(r, id), "Tags saved.")
}

// allCannedReplies returns the mode's canned replies (the reply box offers them all).
func (d *dashboard) allCannedReplies(r *http.Request, mode chat.Mode) ([]*chat.CannedReply, error) {
	return app.Collect(1000, func(lp app.ListParams) (app.List[*chat.CannedReply], error) {
		return d.h.svc.CannedReplies(r.Context(), mode, lp)
	})
}

func (d *dashboard) cannedReplies(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	all, err := d.allCannedReplies(r, s.Mode)
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "canned-replies", view{Title: "Canned replies", Nav: "canned", Session: s, Data: all})
	return nil
}

func (d *dashboard) createCannedReply(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	in := app.CannedReplyInput{Shortcut: app.Value(r.PostFormValue("shortcut")), Title: app.Value(r.PostFormValue("title")),
		Body: app.Value(r.PostFormValue("body"))}
	if _, err := d.h.svc.CreateCannedReply(r.Context(), s.Mode, in); err != nil {
		return err
	}
	return back(w, r, "/app/canned-replies", "Canned reply saved.")
}

func (d *dashboard) deleteCannedReply(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if _, err := d.h.svc.DeleteCannedReply(r.Context(), s.Mode, r.PathValue("id")); err != nil {
		return err
	}
	return back(w, r, "/app/canned-replies", "Canned reply deleted.")
}

// searchView is the search page's data: the query and, when there is one, its results.
type searchView struct {
	Q       string
	Results []*chat.SearchResult
}

func (d *dashboard) search(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	v := searchView{Q: r.URL.Query().Get("q")}
	if strings.TrimSpace(v.Q) != "" {
		l, err := d.h.svc.Search(r.Context(), s.Mode, app.SearchQuery{Q: v.Q, ListParams: app.ListParams{Limit: "50"}})
		if err != nil {
			return err
		}
		v.Results = l.Data
	}
	d.render(w, r, http.StatusOK, "search", view{Title: "Search", Nav: "search", Session: s, Data: v})
	return nil
}
