// Package web serves chatsvc over HTTP: the REST API of SPEC.md under /v1
// and the health check. Handlers decode, call package app, and encode.
package web

import (
	"net/http"
	"strings"
	"time"

	"chatsvc/app"
)

// handlers holds what the HTTP handlers need.
type handlers struct {
	svc *app.Service
}

// Handler returns the HTTP handler of the whole service.
func Handler(svc *app.Service) http.Handler {
	h := &handlers{svc: svc}
	api := http.NewServeMux()
	h.routes(api)
	api.HandleFunc("/v1/", unknownRoute(api))

	mux := http.NewServeMux()
	mux.Handle("/v1/", withAPIKey(svc, api))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("chatsvc is running. The REST API is under /v1.\n"))
	})
	return withRequest(mux)
}

// routes registers the REST API of SPEC.md.
func (h *handlers) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /v1/conversations", h.listConversations)
	mux.HandleFunc("GET /v1/conversations/{id}", h.getConversation)
	mux.HandleFunc("PATCH /v1/conversations/{id}", h.updateConversation)
	mux.HandleFunc("POST /v1/conversations/{id}/handoff", h.handOff)
	mux.HandleFunc("POST /v1/conversations/{id}/close", h.closeConversation)
	mux.HandleFunc("GET /v1/conversations/{id}/messages", h.listMessages)
	mux.HandleFunc("POST /v1/conversations/{id}/messages", h.postMessage)
	mux.HandleFunc("GET /v1/messages/{id}", h.getMessage)

	mux.HandleFunc("POST /v1/tickets", h.createTicket)
	mux.HandleFunc("GET /v1/tickets", h.listTickets)
	mux.HandleFunc("GET /v1/tickets/{id}", h.getTicket)
	mux.HandleFunc("PATCH /v1/tickets/{id}", h.updateTicket)
	mux.HandleFunc("DELETE /v1/tickets/{id}", h.deleteTicket)

	mux.HandleFunc("POST /v1/contacts", h.upsertContact)
	mux.HandleFunc("GET /v1/contacts", h.listContacts)
	mux.HandleFunc("GET /v1/contacts/{id}", h.getContact)
	mux.HandleFunc("PATCH /v1/contacts/{id}", h.updateContact)
	mux.HandleFunc("DELETE /v1/contacts/{id}", h.deleteContact)
}

// unknownRoute answers paths no route serves: 405 when another method
// would be served, else 404.
func unknownRoute(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allowed []string
		for _, m := range []string{"GET", "POST", "PATCH", "DELETE"} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "/v1/" && pattern != "" {
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
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}
