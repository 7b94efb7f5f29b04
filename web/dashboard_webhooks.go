package web

import (
	"net/http"
	"net/url"
	"strings"

	"chatsvc/app"
)

func webhookPath(id string) string { return "/app/webhooks/" + url.PathEscape(id) }

func (d *dashboard) webhooks(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	return d.webhooksPage(w, r, s, nil)
}

// webhooksPage lists the endpoints; created is the endpoint just made,
// whose secret is shown this once.
func (d *dashboard) webhooksPage(w http.ResponseWriter, r *http.Request, s *app.DashboardSession, created *app.CreatedWebhookEndpoint) error {
	if err := d.h.svc.WebhookFeature(); err != nil {
		return err
	}
	l, err := d.h.svc.WebhookEndpoints(r.Context(), s.Mode, app.ListParams{Limit: "100"})
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "webhooks", view{Title: "Webhooks", Nav: "webhooks", Session: s,
		Data: map[string]any{"Endpoints": l.Data, "Created": created}})
	return nil
}

// createWebhook makes an endpoint and shows its secret on the answer page
// itself, never in a URL or a later page.
func (d *dashboard) createWebhook(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	in := app.WebhookEndpointInput{URL: app.Value(r.PostFormValue("url"))}
	var events []string
	for _, e := range strings.FieldsFunc(r.PostFormValue("events"), func(c rune) bool { return c == ',' || c == ' ' || c == '\n' }) {
		events = append(events, strings.TrimSpace(e))
	}
	in.Events = app.Value(events)
	if v := r.PostFormValue("description"); v != "" {
		in.Description = app.Value(v)
	}
	created, err := d.h.svc.CreateWebhookEndpoint(r.Context(), s.Mode, in)
	if err != nil {
		return err
	}
	return d.webhooksPage(w, r, s, created)
}

// webhook shows an endpoint with its delivery attempts, newest first.
func (d *dashboard) webhook(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	return d.webhookPage(w, r, s, nil)
}

func (d *dashboard) webhookPage(w http.ResponseWriter, r *http.Request, s *app.DashboardSession, test *app.WebhookTest) error {
	id := r.PathValue("id")
	e, err := d.h.svc.WebhookEndpoint(r.Context(), s.Mode, id)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	attempts, err := d.h.svc.WebhookAttempts(r.Context(), s.Mode, id,
		app.WebhookAttemptQuery{ListParams: app.ListParams{Limit: "50", Cursor: q.Get("cursor")}})
	if err != nil {
		return err
	}
	next := nextPage(webhookPath(id), q, attempts.NextCursor)
	d.render(w, r, http.StatusOK, "webhook", view{Title: "Webhook endpoint", Nav: "webhooks", Session: s,
		Data: map[string]any{"E": e, "Attempts": attempts.Data, "Next": next, "Test": test}})
	return nil
}

func (d *dashboard) setWebhookEnabled(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	on := r.PostFormValue("enabled") == "true"
	if _, err := d.h.svc.UpdateWebhookEndpoint(r.Context(), s.Mode, id, app.WebhookEndpointInput{Enabled: app.Value(on)}); err != nil {
		return err
	}
	msg := "Endpoint disabled."
	if on {
		msg = "Endpoint enabled."
	}
	return back(w, r, webhookPath(id), msg)
}

// testWebhook sends a test event now and shows the result.
func (d *dashboard) testWebhook(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	res, err := d.h.svc.TestWebhookEndpoint(r.Context(), s.Mode, r.PathValue("id"))
	if err != nil {
		return err
	}
	return d.webhookPage(w, r, s, res)
}

// resendEvent queues an event again for this endpoint.
func (d *dashboard) resendEvent(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	if _, err := d.h.svc.ResendEvent(r.Context(), s.Mode, r.PostFormValue("event_id"), app.Value(id)); err != nil {
		return err
	}
	return back(w, r, webhookPath(id), "Event queued for delivery again.")
}
