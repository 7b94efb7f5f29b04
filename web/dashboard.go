package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// The dashboard is server-rendered HTML with one small ES module for live
// updates, all embedded: no build step, nothing fetched from elsewhere.
//
//go:embed dashboard_assets
var dashboardFS embed.FS

// sessionCookie holds the dashboard session token; the server keeps only its hash.
const sessionCookie = "chatsvc_session"

// dashboard serves the team's web interface under /app/.
type dashboard struct {
	h      *handlers
	secure bool   // cookies only over HTTPS (public_url is https)
	origin string // public_url's scheme and host, an origin forms may come from
	pages  map[string]*template.Template
	// mailOff: no e-mail can be sent (smtp.host is empty), which an
	// invitation must say.
	mailOff bool
	// signInLimit bounds sign-in attempts per client address.
	signInLimit *app.Limiter
	// ready and replica are what /readyz reports, for the Operations page;
	// either may be nil (no extra check, no replica configured).
	ready   func(context.Context) error
	replica func() ReplicaStatus
}

// dashHandler is a dashboard page or action of a signed-in member.
type dashHandler func(w http.ResponseWriter, r *http.Request, d *app.DashboardSession) error

func (h *handlers) dashboardRoutes(mux *http.ServeMux, o Options) {
	publicURL := o.PublicURL
	d := &dashboard{h: h, secure: strings.HasPrefix(publicURL, "https://"), pages: dashboardPages(), mailOff: o.MailOff,
		signInLimit: app.NewRateLimiter(signInPerMinute/60.0, signInBurst), ready: o.Ready, replica: o.Replica}
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" {
		d.origin = u.Scheme + "://" + u.Host
	}
	assets, _ := fs.Sub(dashboardFS, "dashboard_assets/static")
	mux.Handle("GET /app/static/", withSecureHeaders(dashboardCSP, http.StripPrefix("/app/static/", http.FileServerFS(assets))))
	mux.Handle("GET /app/sw.js", withSecureHeaders(dashboardCSP, http.HandlerFunc(serviceWorker)))
	mux.Handle("GET /app/sign-in", withSecureHeaders(dashboardCSP, http.HandlerFunc(d.signInPage)))
	mux.Handle("POST /app/sign-in", withSecureHeaders(dashboardCSP, http.HandlerFunc(d.signIn)))
	mux.Handle("GET /app/forgot-password", withSecureHeaders(dashboardCSP, http.HandlerFunc(d.forgotPasswordPage)))
	mux.Handle("POST /app/forgot-password", withSecureHeaders(dashboardCSP, http.HandlerFunc(d.forgotPassword)))
	mux.Handle("GET /app/password", withSecureHeaders(dashboardCSP, http.HandlerFunc(d.passwordPage)))
	mux.Handle("POST /app/password", withSecureHeaders(dashboardCSP, http.HandlerFunc(d.setPassword)))
	for _, rt := range d.allRoutes() {
		var hd http.Handler
		if strings.HasPrefix(rt.pattern, "GET ") {
			hd = d.page(rt.fn)
		} else {
			hd = d.action(rt.fn)
		}
		mux.Handle(rt.pattern, withSecureHeaders(dashboardCSP, hd))
	}
	mux.Handle("/app/", withSecureHeaders(dashboardCSP, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.fail(w, r, nil, &app.Error{Kind: app.NotFound, Code: app.CodeResourceMissing, Message: "There is no such page."})
	})))
}

type dashRoute struct {
	pattern string
	fn      dashHandler
}

// routes lists every page (GET) and action (POST) that needs a signed-in member.
func (d *dashboard) routes() []dashRoute {
	return []dashRoute{
		{"GET /app/{$}", d.inbox},
		{"GET /app/events", d.events},
		{"POST /app/sign-out", d.signOut},
		{"POST /app/mode", d.switchMode},
		{"GET /app/conversations/{id}", d.conversation},
		{"POST /app/conversations/{id}/reply", d.reply},
		{"POST /app/conversations/{id}/assign", d.assign},
		{"POST /app/conversations/{id}/handoff", d.handOff},
		{"POST /app/conversations/{id}/close", d.closeConversation},
		{"POST /app/conversations/{id}/typing", d.agentTyping},
		{"POST /app/conversations/{id}/ticket", d.ticketFromConversation},
		{"GET /app/tickets", d.tickets},
		{"GET /app/tickets/{id}", d.ticket},
		{"POST /app/tickets/{id}", d.updateTicket},
		{"POST /app/tickets/{id}/comments", d.commentTicket},
		{"GET /app/contacts", d.contacts},
		{"GET /app/contacts/{id}", d.contact},
		{"GET /app/contacts/{id}/export", d.exportContact},
		{"POST /app/contacts/{id}/erase", d.eraseContact},
		{"GET /app/knowledge", d.knowledge},
		{"POST /app/knowledge", d.addSource},
		{"POST /app/knowledge/test", d.testAssistant},
		{"POST /app/knowledge/{id}/sync", d.syncSource},
		{"POST /app/knowledge/{id}/delete", d.deleteSource},
		{"POST /app/knowledge/synonyms", d.addSynonyms},
		{"POST /app/knowledge/synonyms/{id}/delete", d.deleteSynonyms},
		{"GET /app/reports", d.reports},
		{"GET /app/webhooks", d.webhooks},
		{"POST /app/webhooks", d.createWebhook},
		{"GET /app/webhooks/{id}", d.webhook},
		{"POST /app/webhooks/{id}/enabled", d.setWebhookEnabled},
		{"POST /app/webhooks/{id}/test", d.testWebhook},
		{"POST /app/webhooks/{id}/resend", d.resendEvent},
		{"GET /app/settings", d.settings},
		{"POST /app/settings/copy-to-live", d.copyToLive},
		{"POST /app/settings/{id}", d.updateSettings},
		{"GET /app/push/key", d.pushKey},
		{"POST /app/push/subscriptions", d.subscribePush},
		{"POST /app/push/unsubscribe", d.unsubscribePush},
		{"GET /app/members", d.members},
		{"POST /app/members", d.inviteMember},
		{"POST /app/members/{id}/role", d.setMemberRole},
		{"GET /app/operations", d.operations},
	}
}

// allRoutes lists every route of a signed-in member: the core ones and the desk's.
func (d *dashboard) allRoutes() []dashRoute {
	return append(append(d.routes(), d.deskRoutes()...), d.twoFactorRoutes()...)
}

// session returns the signed-in member of the request's cookie.
func (d *dashboard) session(r *http.Request) (*app.DashboardSession, error) {
	return d.h.svc.DashboardSessionOf(r.Context(), sessionToken(r))
}

// page serves a GET page to a signed-in member; others are sent to sign in.
func (d *dashboard) page(fn dashHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := d.session(r)
		if err != nil {
			if isKind(err, app.Unauthorized) && r.URL.Path != "/app/events" {
				http.Redirect(w, r, "/app/sign-in?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			d.fail(w, r, nil, err)
			return
		}
		if enrolFirst(r, s) {
			http.Redirect(w, r, "/app/two-factor", http.StatusSeeOther)
			return
		}
		if err := fn(w, r, s); err != nil {
			d.fail(w, r, s, err)
		}
	})
}

// action serves a state-changing POST: it needs a session and the
// session's CSRF token in the form (or the X-CSRF-Token header).
func (d *dashboard) action(fn dashHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := dashBodyLimit(r, d.h.svc.AttachmentMaxBytes())
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		s, err := d.session(r)
		if err == nil && r.ContentLength > limit {
			err = errTooLarge // told as such, not as a form without its token
		}
		if err != nil {
			d.fail(w, r, nil, err)
			return
		}
		if err := d.sameOrigin(r); err != nil {
			d.fail(w, r, s, err)
			return
		}
		token := r.Header.Get("X-CSRF-Token")
		if token == "" {
			token = r.PostFormValue("csrf")
		}
		if err := s.CheckCSRF(token); err != nil {
			d.fail(w, r, s, err)
			return
		}
		if enrolFirst(r, s) {
			d.fail(w, r, s, errEnrolFirst)
			return
		}
		if err := fn(w, r, s); err != nil {
			d.fail(w, r, s, err)
		}
	})
}

// sameOrigin refuses a POST that a browser says comes from another site.
// Browsers send Origin with every POST; the CSRF token is the main guard,
// this one also covers the sign-in form, which has no session to tie a token to.
func (d *dashboard) sameOrigin(r *http.Request) error {
	o := r.Header.Get("Origin")
	if o == "" {
		return nil // not a browser, or an old one: the token decides
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if o == scheme+"://"+r.Host || (d.origin != "" && o == d.origin) {
		return nil
	}
	return &app.Error{Kind: app.Forbidden, Code: app.CodeCSRFInvalid,
		Message: "This form was sent from another site. Open the dashboard and try again."}
}

func isKind(err error, k app.Kind) bool {
	var ae *app.Error
	return errors.As(err, &ae) && ae.Kind == k
}

// view is what every page template gets.
type view struct {
	Title   string
	Nav     string
	Session *app.DashboardSession
	Live    bool
	Flash   string
	Data    any
	Wide    bool // the page uses the window's whole width (the desk's panes)
	Now     time.Time
}

// render writes a page with status 200.
func (d *dashboard) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	t := d.pages[name]
	v.Live = v.Session != nil && v.Session.Mode == chat.Live
	v.Now = d.h.svc.Now()
	if v.Flash == "" {
		v.Flash = r.URL.Query().Get("flash")
	}
	var buf strings.Builder
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		slog.ErrorContext(r.Context(), "dashboard page failed", "page", name, "request_id", requestID(r), "err", err)
		http.Error(w, "The page could not be shown.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write([]byte(buf.String()))
}

// fail shows an error page with the status the REST API would answer;
// errors that are not *app.Error are logged and never shown.
func (d *dashboard) fail(w http.ResponseWriter, r *http.Request, s *app.DashboardSession, err error) {
	var ae *app.Error
	if !errors.As(err, &ae) {
		slog.ErrorContext(r.Context(), "dashboard request failed", "request_id", requestID(r), "method", r.Method,
			"path", r.URL.Path, "err", err)
		ae = &app.Error{Message: "Something went wrong on our side; the request id identifies it in our logs."}
		d.render(w, r, http.StatusInternalServerError, "error", view{Title: "Error", Session: s, Data: errorView{ae, backTo(r)}})
		return
	}
	status := http.StatusBadRequest
	if k, ok := kinds[ae.Kind]; ok {
		status = k.status
	}
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((ae.RetryAfter+time.Second-1)/time.Second), 10))
	}
	d.render(w, r, status, "error", view{Title: "Error", Session: s, Data: errorView{ae, backTo(r)}})
}

// errorView is an error page: the error, and the page to go back to.
type errorView struct {
	*app.Error
	Back string
}

// backTo is the dashboard page a failed form was sent from (the browser
// names it: Referrer-Policy same-origin), or the inbox.
func backTo(r *http.Request) string {
	if u, err := url.Parse(r.Referer()); err == nil && u.Host == r.Host && strings.HasPrefix(u.Path, "/app/") &&
		!strings.HasPrefix(u.Path, "/app/sign-in") {
		return u.RequestURI()
	}
	return "/app/"
}

// back redirects after an action (post/redirect/get), to the page the
// action belongs to, with a short message to show there.
func back(w http.ResponseWriter, r *http.Request, to, flash string) error {
	if flash != "" {
		sep := "?"
		if strings.Contains(to, "?") {
			sep = "&"
		}
		to += sep + "flash=" + url.QueryEscape(flash)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// dashboardPages are the parsed pages, parsed once a process: a page is
// only executed after parsing, which templates allow side by side, so every
// handler of the process (one in a server, one a test in the tests) shares
// them.
var dashboardPages = sync.OnceValue(parsePages)

// parsePages builds each page from the shared layout and its own file.
func parsePages() map[string]*template.Template {
	layout := template.Must(template.New("layout").Funcs(dashFuncs).ParseFS(dashboardFS, "dashboard_assets/layout.html",
		"dashboard_assets/partials/*.html"))
	files, _ := fs.Glob(dashboardFS, "dashboard_assets/pages/*.html")
	pages := make(map[string]*template.Template, len(files))
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		pages[name] = template.Must(template.Must(layout.Clone()).ParseFS(dashboardFS, f))
	}
	return pages
}

var dashFuncs = template.FuncMap{
	"ts": func(t any) string {
		switch v := t.(type) {
		case chat.Timestamp:
			return v.Time().Format("2006-01-02 15:04")
		case *chat.Timestamp:
			if v != nil {
				return v.Time().Format("2006-01-02 15:04")
			}
		}
		return "—"
	},
	"deref": func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	},
	"label":    func(s any) string { return strings.ReplaceAll(fmt.Sprint(s), "_", " ") }, // a status or a type
	"join":     strings.Join,
	"waited":   waited,
	"list":     func(v ...string) []string { return v },
	"has":      func(list []string, v string) bool { return slices.Contains(list, v) },
	"preview":  app.Preview,
	"initials": initials,
	"iso":      func(t chat.Timestamp) string { return t.Time().UTC().Format(time.RFC3339) },
	"ago":      ago,
	"deskList": func(v *inboxView, csrf string) deskList { return deskList{v, csrf} },
	// messageFiles and bytes: see dashboard_files.go.
	"messageFiles": messageFiles,
	"bytes":        humanBytes,
	"stars": func(n int) string {
		n = min(max(n, 0), 5)
		return strings.Repeat("★", n) + strings.Repeat("☆", 5-n)
	},
	"authorLabel": func(typ string) string { return authorLabels[typ] },
}

// nextPage is the link to a list page's next page: path with the page's
// query and the cursor, or "" on the last page.
func nextPage(path string, q url.Values, cursor *string) string {
	if cursor == nil {
		return ""
	}
	q.Set("cursor", *cursor)
	return path + "?" + q.Encode()
}
