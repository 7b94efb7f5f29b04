// Package web serves chatsvc over HTTP: the REST API under /v1 (docs/api.md),
// the widget's API, the team's dashboard under /app/ and the health check.
// Handlers decode, call package app, and encode.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"chatsvc/app"
)

// handlers holds what the HTTP handlers need.
type handlers struct {
	svc     *app.Service
	closing chan struct{} // closed when the server shuts down: ends event streams
	once    sync.Once
}

// Options tune the HTTP layer; zero values take defaults (no limits, no
// metrics token, readiness = the database takes writes).
type Options struct {
	APIPerSecond float64 // requests per second per API key
	APIBurst     int
	// Requests per second per visitor IP address on the widget API.
	WidgetPerSecond float64
	WidgetBurst     int
	MetricsToken    string                      // bearer token guarding /metrics
	Ready           func(context.Context) error // extra readiness check (workers)
	PublicURL       string                      // public_url: dashboard cookies are Secure when it is https
	MailOff         bool                        // smtp.host is empty: e-mails wait in the outbox
	// Replica reports the replication's state for /readyz and /metrics;
	// nil when no replica is configured.
	Replica func() ReplicaStatus
}

// Handler returns the HTTP handler of the whole service, without rate limits.
func Handler(svc *app.Service) http.Handler { return HandlerWith(svc, Options{}) }

// HandlerWith returns the HTTP handler of the whole service.
func HandlerWith(svc *app.Service, o Options) http.Handler {
	h := &handlers{svc: svc, closing: make(chan struct{})}
	m := newMetrics(svc, o.Replica)

	// One mux serves everything; each REST route is wrapped in the API's
	// middleware (a mux of its own for /v1/ cost a second route lookup).
	mux := http.NewServeMux()
	apiLimit := app.NewRateLimiter(o.APIPerSecond, o.APIBurst)
	api := apiRoutes{mux: mux, wrap: func(next http.Handler) http.Handler {
		return withAPIKey(svc, withRateLimit(svc.Now, apiLimit, keyBucket, withIdempotency(svc, next)))
	}}
	h.routes(api)
	api.Handle("/v1/", unknownRoute(mux, "/v1/"))
	mux.HandleFunc("GET /v1/openapi.json", openAPIDocument(svc.PublicURL())) // public, see openapi.go
	mux.Handle("GET /metrics", m.handler(o.MetricsToken))
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		reason := ""
		if err := svc.Ping(r.Context()); errors.Is(err, app.ErrDiskFull) {
			slog.WarnContext(r.Context(), "not ready: disk", "err", err)
			reason = err.Error()
		} else if err != nil {
			slog.WarnContext(r.Context(), "not ready: database", "err", err)
			reason = "the database does not accept writes"
		} else if o.Ready != nil {
			if err := o.Ready(r.Context()); err != nil {
				reason = err.Error()
			}
		}
		body := map[string]any{"status": "ok"}
		if o.Replica != nil { // a replica behind is reported, not a reason to take the server out
			body["replica"] = o.Replica().details()
		}
		if reason != "" {
			body["status"], body["reason"] = "unavailable", reason
			writeJSON(w, http.StatusServiceUnavailable, body)
			return
		}
		writeJSON(w, http.StatusOK, body)
	})
	mux.HandleFunc("GET /files/{id}/{name}", h.downloadFile) // signed URLs: no API key
	h.widgetRoutes(mux, app.NewRateLimiter(o.WidgetPerSecond, o.WidgetBurst))
	h.dashboardRoutes(mux, o)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("chatsvc is running. The REST API is under /v1.\n"))
	})
	mux.HandleFunc("/", unknownRoute(mux, "/"))
	return root{withRequest(m, withPattern(mux)), h}
}

// root is the service's handler; NewServer ends its long-lived streams
// on shutdown, which http.Server.Shutdown does not do by itself.
type root struct {
	http.Handler
	h *handlers
}

// CloseStreams ends every open event stream.
func (r root) CloseStreams() { r.h.once.Do(func() { close(r.h.closing) }) }

// router is where routes are registered.
type router interface {
	Handle(pattern string, h http.Handler)
	HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request))
}

// apiRoutes registers REST routes on mux, each wrapped in wrap.
type apiRoutes struct {
	mux  *http.ServeMux
	wrap func(http.Handler) http.Handler
}

func (a apiRoutes) Handle(pattern string, h http.Handler) { a.mux.Handle(pattern, a.wrap(h)) }
func (a apiRoutes) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	a.Handle(pattern, http.HandlerFunc(h))
}

// routes registers the REST API. Endpoints without query
// parameters are wrapped in noQuery, so a stray parameter is refused rather
// than silently ignored.
func (h *handlers) routes(mux router) {
	mux.HandleFunc("GET /v1/conversations", h.listConversations)
	mux.Handle("GET /v1/conversations/{id}", noQuery(h.getConversation))
	mux.Handle("PATCH /v1/conversations/{id}", noQuery(h.updateConversation))
	mux.Handle("POST /v1/conversations/{id}/handoff", noQuery(h.handOff))
	mux.Handle("POST /v1/conversations/{id}/close", noQuery(h.closeConversation))
	mux.Handle("POST /v1/conversations/{id}/notes", noQuery(h.addNote))
	mux.HandleFunc("GET /v1/conversations/{id}/notes", h.listNotes)
	mux.HandleFunc("GET /v1/conversations/{id}/messages", h.listMessages)
	mux.Handle("POST /v1/conversations/{id}/messages", noQuery(h.postMessage))
	mux.Handle("GET /v1/messages/{id}", noQuery(h.getMessage))

	mux.Handle("POST /v1/tickets", noQuery(h.createTicket))
	mux.HandleFunc("GET /v1/tickets", h.listTickets)
	mux.Handle("GET /v1/tickets/{id}", noQuery(h.getTicket))
	mux.Handle("PATCH /v1/tickets/{id}", noQuery(h.updateTicket))
	mux.Handle("DELETE /v1/tickets/{id}", noInput(h.deleteTicket))
	mux.Handle("POST /v1/tickets/{id}/comments", noQuery(h.addTicketComment))
	mux.HandleFunc("GET /v1/tickets/{id}/comments", h.listTicketComments)

	mux.HandleFunc("GET /v1/sites", h.listSites)
	mux.Handle("GET /v1/sites/{id}", noQuery(h.getSite))
	mux.Handle("PATCH /v1/sites/{id}", noQuery(h.updateSite))
	mux.Handle("POST /v1/contacts", noQuery(h.upsertContact))
	mux.HandleFunc("GET /v1/contacts", h.listContacts)
	mux.Handle("GET /v1/contacts/{id}", noQuery(h.getContact))
	mux.Handle("PATCH /v1/contacts/{id}", noQuery(h.updateContact))
	mux.Handle("DELETE /v1/contacts/{id}", noInput(h.deleteContact))
	mux.Handle("GET /v1/contacts/{id}/export", noQuery(h.exportContact))

	mux.Handle("POST /v1/knowledge-sources", noQuery(h.createKnowledgeSource))
	mux.HandleFunc("GET /v1/knowledge-sources", h.listKnowledgeSources)
	mux.Handle("GET /v1/knowledge-sources/{id}", noQuery(h.getKnowledgeSource))
	mux.Handle("DELETE /v1/knowledge-sources/{id}", noInput(h.deleteKnowledgeSource))
	mux.Handle("POST /v1/knowledge-sources/{id}/sync", noQuery(h.syncKnowledgeSource))
	mux.Handle("POST /v1/assistant/answers", noQuery(h.answerQuestion))
	mux.HandleFunc("GET /v1/reports/summary", h.reportSummary)
	mux.HandleFunc("GET /v1/reports/summary.csv", h.reportSummaryCSV)
	mux.HandleFunc("GET /v1/reports/unanswered", h.listUnanswered)

	h.webhookRoutes(mux)
	h.deskRoutes(mux)
	h.synonymRoutes(mux)
}

// noQuery refuses any query parameter before calling next.
func noQuery(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := query(r); err != nil {
			writeError(w, r, err)
			return
		}
		next(w, r)
	})
}

// noInput refuses query parameters and any body but an empty object: a
// deletion takes nothing but its path.
func noInput(next http.HandlerFunc) http.Handler {
	return noQuery(func(w http.ResponseWriter, r *http.Request) {
		if _, err := decodeBody(w, r); err != nil {
			writeError(w, r, err)
			return
		}
		next(w, r)
	})
}

// unknownRoute answers, as mux's catch-all pattern, paths no route serves:
// 405 when another method would be served, else 404.
func unknownRoute(mux *http.ServeMux, catchAll string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allowed []string
		for _, m := range []string{"GET", "POST", "PATCH", "DELETE"} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != catchAll && pattern != "" {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) > 0 {
			w.Header().Set("Allow", joinComma(allowed))
			writeError(w, r, &app.Error{Kind: kindMethodNotAllowed, Code: "method_not_allowed",
				Message: r.Method + " is not allowed on " + r.URL.Path + "; use " + joinComma(allowed) + "."})
			return
		}
		writeError(w, r, &app.Error{Kind: app.NotFound, Code: app.CodeResourceMissing,
			Message: "Unrecognized request URL (" + r.Method + " " + r.URL.Path + ")."})
	}
}

func joinComma(s []string) string { return strings.Join(s, ", ") }

// NewServer returns an http.Server with timeouts that keep slow or idle
// clients from holding connections.
func NewServer(addr string, h http.Handler) *http.Server {
	srv := &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	if s, ok := h.(interface{ CloseStreams() }); ok {
		srv.RegisterOnShutdown(s.CloseStreams)
	}
	return srv
}
