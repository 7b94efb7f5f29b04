package web

import (
	"net/http"
	"strings"

	"chatsvc/app"
	"chatsvc/chat"
)

func (d *dashboard) knowledge(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	return d.knowledgePage(w, r, s, nil, "")
}

// knowledgePage lists the sources, with the answer of the assistant test box when there is one.
func (d *dashboard) knowledgePage(w http.ResponseWriter, r *http.Request, s *app.DashboardSession, a *app.AssistantAnswer, question string) error {
	sources, err := app.Collect(1000, func(lp app.ListParams) (app.List[*chat.KnowledgeSource], error) {
		return d.h.svc.KnowledgeSources(r.Context(), s.Mode, lp)
	})
	if err != nil {
		return err
	}
	sites, err := d.h.svc.Sites(r.Context())
	if err != nil {
		return err
	}
	synonyms, err := app.Collect(app.MaxSynonymGroups, func(lp app.ListParams) (app.List[*chat.Synonym], error) {
		return d.h.svc.Synonyms(r.Context(), s.Mode, lp)
	})
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "knowledge", view{Title: "Knowledge", Nav: "knowledge", Session: s,
		Data: map[string]any{"Sources": sources, "Sites": sites, "Answer": a, "Question": question,
			"SyncEvery": d.h.svc.SyncInterval(), "Synonyms": synonyms}})
	return nil
}

// addSource adds a url, sitemap or text source from the form.
func (d *dashboard) addSource(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	in := app.SourceCreate{Type: app.Value(r.PostFormValue("type")), Name: app.Value(r.PostFormValue("name"))}
	if v := r.PostFormValue("url"); v != "" {
		in.URL = app.Value(v)
	}
	if v := r.PostFormValue("content"); v != "" {
		in.Content = app.Value(v)
	}
	if v := r.PostFormValue("site_id"); v != "" {
		in.SiteID = app.Value(v)
	}
	if v := r.PostFormValue("language"); v != "" {
		in.Lang = app.Value(v)
	}
	if _, err := d.h.svc.CreateKnowledgeSource(r.Context(), s.Mode, in); err != nil {
		return err
	}
	return back(w, r, "/app/knowledge", "Source added; indexing starts shortly.")
}

// syncSource asks for a sync now; within the sync interval the error page
// says how long to wait.
func (d *dashboard) syncSource(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if _, err := d.h.svc.SyncKnowledgeSource(r.Context(), s.Mode, r.PathValue("id")); err != nil {
		return err
	}
	return back(w, r, "/app/knowledge", "Sync started.")
}

func (d *dashboard) deleteSource(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if _, err := d.h.svc.DeleteKnowledgeSource(r.Context(), s.Mode, r.PathValue("id")); err != nil {
		return err
	}
	return back(w, r, "/app/knowledge", "Source deleted.")
}

// testAssistant shows what the assistant would answer a visitor, with the
// pages it cited and how well each matched: the REST endpoint's answer.
func (d *dashboard) testAssistant(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	question := r.PostFormValue("question")
	in := app.AssistantQuestion{Question: app.Value(question)}
	if v := r.PostFormValue("site_id"); v != "" {
		in.SiteID = app.Value(v)
	}
	a, err := d.h.svc.AskAssistant(r.Context(), s.Mode, in)
	if err != nil {
		return err
	}
	return d.knowledgePage(w, r, s, a, question)
}

// addSynonyms adds a group of synonyms typed as a list separated by commas.
func (d *dashboard) addSynonyms(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	var words []string // the entries typed, without the empty ones a stray comma makes
	for _, w := range strings.Split(r.PostFormValue("words"), ",") {
		if strings.TrimSpace(w) != "" {
			words = append(words, w)
		}
	}
	if _, err := d.h.svc.CreateSynonym(r.Context(), s.Mode, app.SynonymInput{Words: app.Value(words)}); err != nil {
		return err
	}
	return back(w, r, "/app/knowledge", "Synonyms added: the assistant uses them from the next question.")
}

func (d *dashboard) deleteSynonyms(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if _, err := d.h.svc.DeleteSynonym(r.Context(), s.Mode, r.PathValue("id")); err != nil {
		return err
	}
	return back(w, r, "/app/knowledge", "Synonyms deleted.")
}
