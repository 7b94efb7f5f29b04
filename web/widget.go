package web

import (
	"net/http"

	"chatsvc/app"
)

// widgetRoutes registers the widget API under /widget/v1 (docs/api.md,
// Widget API) and the widget's assets. The API needs no key: a visitor
// token, made by POST /widget/v1/sessions, authenticates every other call.
func (h *handlers) widgetRoutes(mux *http.ServeMux, limit *app.Limiter) {
	api := http.NewServeMux()
	api.Handle("POST /widget/v1/rating", noQuery(h.rateConversation))
	api.Handle("POST /widget/v1/messages/{id}/feedback", noQuery(h.replyFeedback))
	api.Handle("GET /widget/v1/sites/{id}", noQuery(h.siteLook))
	api.Handle("POST /widget/v1/sessions", noQuery(h.startSession))
	api.Handle("POST /widget/v1/messages", noQuery(h.postVisitorMessage))
	api.Handle("POST /widget/v1/attachments", noQuery(h.uploadVisitorFile))
	api.HandleFunc("GET /widget/v1/messages", h.listVisitorMessages)
	api.HandleFunc("GET /widget/v1/events", h.visitorEvents)
	api.Handle("POST /widget/v1/handoff", noQuery(h.visitorHandOff))
	api.Handle("POST /widget/v1/typing", noQuery(h.visitorTyping))
	api.Handle("POST /widget/v1/identify", noQuery(h.identifyVisitor))
	api.Handle("POST /widget/v1/tickets", noQuery(h.createVisitorTicket))
	api.HandleFunc("OPTIONS /widget/v1/", preflight)
	api.HandleFunc("/widget/v1/", unknownRoute(api, "/widget/v1/"))
	mux.Handle("/widget/v1/", withCORS(withRateLimit(h.svc.Now, limit, clientIP, api)))
	script := newWidgetScript(widgetJS)
	mux.Handle("GET /widget.js", script)
	mux.Handle("GET /demo", withSecureHeaders(demoCSP, serveDemo(script)))
}

// withCORS lets pages of other origins read widget API responses. Which
// origins may act is decided per site by package app (403
// origin_not_allowed); responses carry nothing another origin could abuse,
// as there are no cookies and the visitor token travels in a header.
func withCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Add("Vary", "Origin")
		if o := r.Header.Get("Origin"); o != "" {
			h.Set("Access-Control-Allow-Origin", o)
		} else {
			h.Set("Access-Control-Allow-Origin", "*")
		}
		h.Set("Access-Control-Expose-Headers", "Request-Id")
		next.ServeHTTP(w, r)
	})
}

// preflight answers the browser's CORS preflight of any widget API call.
func preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, X-Visitor-Token, Last-Event-ID")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

func origin(r *http.Request) app.Origin {
	return app.Origin{Origin: r.Header.Get("Origin"), Host: r.Host}
}

// visit authenticates the visitor token of the X-Visitor-Token header (or,
// when given, of fallback) and writes the error when it fails.
func (h *handlers) visit(w http.ResponseWriter, r *http.Request, fallback string) (*app.Visit, bool) {
	tok := r.Header.Get("X-Visitor-Token")
	if tok == "" {
		tok = fallback
	}
	v, err := h.svc.Visit(r.Context(), tok, origin(r))
	if err != nil {
		writeError(w, r, err)
		return nil, false
	}
	return v, true
}

func (h *handlers) startSession(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "site_id", "page_url", "visitor_token", "test")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.SessionStart{SiteID: b.str("site_id"), PageURL: b.str("page_url"),
		VisitorToken: b.str("visitor_token"), Test: b.boolean("test"), From: origin(r)}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	s, err := h.svc.StartSession(r.Context(), in)
	reply(w, r, http.StatusOK, s, err)
}

// siteLook answers without a visitor token, and may be cached a minute:
// the launcher's colour before any session, not the visitor's state.
func (h *handlers) siteLook(w http.ResponseWriter, r *http.Request) {
	look, err := h.svc.SiteLook(r.Context(), r.PathValue("id"), origin(r))
	if err == nil {
		w.Header().Set("Cache-Control", "public, max-age=60")
	}
	reply(w, r, http.StatusOK, look, err)
}

func (h *handlers) postVisitorMessage(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visit(w, r, "")
	if !ok {
		return
	}
	b, err := decodeBody(w, r, "body", "page_url", "attachments")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.VisitorMessage{Body: b.str("body"), PageURL: b.str("page_url"), Attachments: b.strings("attachments")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	ex, err := h.svc.PostVisitorMessage(r.Context(), v, in)
	reply(w, r, http.StatusCreated, ex, err)
}

func (h *handlers) listVisitorMessages(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "after")
	if err != nil {
		writeError(w, r, err)
		return
	}
	v, ok := h.visit(w, r, "")
	if !ok {
		return
	}
	list, err := h.svc.VisitorMessages(r.Context(), v, q.Get("after"))
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) visitorHandOff(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visitNoBody(w, r)
	if !ok {
		return
	}
	c, err := h.svc.VisitorHandOff(r.Context(), v)
	reply(w, r, http.StatusOK, c, err)
}

// visitNoBody is visit for a call whose body holds no fields: an empty
// object or nothing; it has answered the request when ok is false.
func (h *handlers) visitNoBody(w http.ResponseWriter, r *http.Request) (*app.Visit, bool) {
	v, ok := h.visit(w, r, "")
	if !ok {
		return nil, false
	}
	if _, err := decodeBody(w, r); err != nil {
		writeError(w, r, err)
		return nil, false
	}
	return v, true
}

func (h *handlers) identifyVisitor(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visit(w, r, "")
	if !ok {
		return
	}
	b, err := decodeBody(w, r, "email", "external_id", "name", "phone", "attributes", "user_hash")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.Identify{Email: b.str("email"), ExternalID: b.str("external_id"), Name: b.str("name"),
		Phone: b.str("phone"), Attributes: b.object("attributes"), UserHash: b.str("user_hash")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	c, err := h.svc.IdentifyVisitor(r.Context(), v, in)
	reply(w, r, http.StatusOK, c, err)
}

func (h *handlers) createVisitorTicket(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visit(w, r, "")
	if !ok {
		return
	}
	b, err := decodeBody(w, r, "subject", "description", "email", "name")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.VisitorTicket{Subject: b.str("subject"), Description: b.str("description"),
		Email: b.str("email"), Name: b.str("name")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	t, err := h.svc.CreateVisitorTicket(r.Context(), v, in)
	reply(w, r, http.StatusCreated, t, err)
}

func (h *handlers) rateConversation(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visit(w, r, "")
	if !ok {
		return
	}
	b, err := decodeBody(w, r, "score", "comment")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.VisitorRating{Score: b.integer("score"), Comment: b.str("comment")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	c, err := h.svc.RateConversation(r.Context(), v, in)
	reply(w, r, http.StatusOK, c, err)
}
