package web

import (
	"net/http"

	"chatsvc/app"
)

// webhooksOnly refuses a webhook route on a plan without webhooks, before
// the request is read, so the answer does not depend on the body.
func (h *handlers) webhooksOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.svc.WebhookFeature(); err != nil {
			writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func endpointInput(b *body) app.WebhookEndpointInput {
	return app.WebhookEndpointInput{
		URL:         b.str("url"),
		Events:      b.strings("events"),
		Enabled:     b.boolean("enabled"),
		Description: b.strOrNull("description"),
	}
}

func (h *handlers) createWebhookEndpoint(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "url", "events", "description")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := endpointInput(b)
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	e, err := h.svc.CreateWebhookEndpoint(r.Context(), mode(r), in)
	reply(w, r, http.StatusCreated, e, err)
}

func (h *handlers) listWebhookEndpoints(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.WebhookEndpoints(r.Context(), mode(r), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getWebhookEndpoint(w http.ResponseWriter, r *http.Request) {
	e, err := h.svc.WebhookEndpoint(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, e, err)
}

func (h *handlers) updateWebhookEndpoint(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "url", "events", "enabled", "description")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := endpointInput(b)
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	e, err := h.svc.UpdateWebhookEndpoint(r.Context(), mode(r), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, e, err)
}

func (h *handlers) deleteWebhookEndpoint(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteWebhookEndpoint(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, d, err)
}

func (h *handlers) testWebhookEndpoint(w http.ResponseWriter, r *http.Request) {
	if _, err := decodeBody(w, r); err != nil {
		writeError(w, r, err)
		return
	}
	res, err := h.svc.TestWebhookEndpoint(r.Context(), mode(r), r.PathValue("id"))
	reply(w, r, http.StatusOK, res, err)
}

func (h *handlers) listWebhookDeliveries(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "event_id", "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.WebhookAttempts(r.Context(), mode(r), r.PathValue("id"),
		app.WebhookAttemptQuery{EventID: q.Get("event_id"), ListParams: listParams(q)})
	reply(w, r, http.StatusOK, list, err)
}

// webhookRoutes registers the webhook endpoints (docs/webhooks.md), their delivery
// log, and the event log with resend.
func (h *handlers) webhookRoutes(mux router) {
	only := h.webhooksOnly
	mux.Handle("POST /v1/webhook-endpoints", only(noQuery(h.createWebhookEndpoint)))
	mux.Handle("GET /v1/webhook-endpoints", only(http.HandlerFunc(h.listWebhookEndpoints)))
	mux.Handle("GET /v1/webhook-endpoints/{id}", only(noQuery(h.getWebhookEndpoint)))
	mux.Handle("PATCH /v1/webhook-endpoints/{id}", only(noQuery(h.updateWebhookEndpoint)))
	mux.Handle("DELETE /v1/webhook-endpoints/{id}", only(noInput(h.deleteWebhookEndpoint)))
	mux.Handle("POST /v1/webhook-endpoints/{id}/test", only(noQuery(h.testWebhookEndpoint)))
	mux.Handle("GET /v1/webhook-endpoints/{id}/deliveries", only(http.HandlerFunc(h.listWebhookDeliveries)))

	mux.HandleFunc("GET /v1/events", h.listEvents)
	mux.Handle("GET /v1/events/{id}", noQuery(h.getEvent))
	mux.Handle("POST /v1/events/{id}/resend", only(noQuery(h.resendEvent)))
}
