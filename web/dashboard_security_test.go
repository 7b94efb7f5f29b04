package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// dashObjects are test-mode objects of every kind the dashboard addresses.
type dashObjects struct{ conv, tkt, ctc, src, whe, evt, site, cnr, mem, syn string }

func makeDashObjects(t *testing.T, e *webenv.Env) dashObjects {
	t.Helper()
	var o dashObjects
	o.site, o.mem = e.Site, e.Member2
	o.conv = e.Conversation(chat.Test, "Where is my order?")
	o.ctc = e.Contact("ana@example.com")
	o.tkt = e.Test("POST", "/v1/tickets", map[string]any{"subject": "Broken zipper", "contact_id": o.ctc,
		"notify_contact": false}).OK(t, 201)["id"].(string)
	o.src = e.Test("POST", "/v1/knowledge-sources", map[string]any{"type": "text", "name": "FAQ",
		"content": "We ship worldwide."}).OK(t, 201)["id"].(string)
	o.whe = e.Test("POST", "/v1/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/in",
		"events": []string{"*"}}).OK(t, 201)["id"].(string)
	o.cnr = e.Test("POST", "/v1/canned-replies", map[string]any{"shortcut": "hi", "title": "Hi",
		"body": "Hello"}).OK(t, 201)["id"].(string)
	o.syn = e.Test("POST", "/v1/assistant/synonyms", map[string]any{"words": []string{"stash", "put aside"}}).OK(t, 201)["id"].(string)
	return o
}

// dashRoutes are every route of the dashboard that needs a signed-in
// member, with the form a legitimate request would send.
func dashRoutes(o dashObjects) []struct {
	method, path string
	form         url.Values
} {
	return []struct {
		method, path string
		form         url.Values
	}{
		{"GET", "/app/", nil},
		{"GET", "/app/events", nil},
		{"POST", "/app/sign-out", url.Values{}},
		{"POST", "/app/mode", url.Values{"mode": {"live"}}},
		{"GET", "/app/conversations/" + o.conv, nil},
		{"POST", "/app/conversations/" + o.conv + "/reply", url.Values{"body": {"Hello"}}},
		{"POST", "/app/conversations/" + o.conv + "/assign", url.Values{"assignee_id": {"me"}}},
		{"POST", "/app/conversations/" + o.conv + "/handoff", url.Values{"note": {"VIP"}}},
		{"POST", "/app/conversations/" + o.conv + "/close", url.Values{}},
		{"POST", "/app/conversations/" + o.conv + "/typing", url.Values{}},
		{"POST", "/app/conversations/" + o.conv + "/ticket", url.Values{"subject": {"Follow up"}}},
		{"GET", "/app/tickets", nil},
		{"GET", "/app/tickets/" + o.tkt, nil},
		{"POST", "/app/tickets/" + o.tkt, url.Values{"status": {"solved"}, "priority": {"high"}}},
		{"POST", "/app/tickets/" + o.tkt + "/comments", url.Values{"body": {"Checked the logs."}, "internal": {"true"}}},
		{"GET", "/app/contacts", nil},
		{"GET", "/app/contacts/" + o.ctc, nil},
		{"GET", "/app/contacts/" + o.ctc + "/export", nil},
		{"POST", "/app/contacts/" + o.ctc + "/erase", url.Values{"confirm": {"erase"}}},
		{"GET", "/app/knowledge", nil},
		{"POST", "/app/knowledge", url.Values{"type": {"text"}, "name": {"More"}, "content": {"Text"}}},
		{"POST", "/app/knowledge/test", url.Values{"question": {"Do you ship?"}}},
		{"POST", "/app/knowledge/" + o.src + "/sync", url.Values{}},
		{"POST", "/app/knowledge/" + o.src + "/delete", url.Values{}},
		{"POST", "/app/knowledge/synonyms", url.Values{"words": {"park, shelve"}}},
		{"POST", "/app/knowledge/synonyms/" + o.syn + "/delete", url.Values{}},
		{"GET", "/app/reports", nil},
		{"GET", "/app/webhooks", nil},
		{"POST", "/app/webhooks", url.Values{"url": {"https://hooks.example.com/other"}}},
		{"GET", "/app/webhooks/" + o.whe, nil},
		{"POST", "/app/webhooks/" + o.whe + "/enabled", url.Values{"enabled": {"false"}}},
		{"POST", "/app/webhooks/" + o.whe + "/test", url.Values{}},
		{"POST", "/app/webhooks/" + o.whe + "/resend", url.Values{"event_id": {"evt_x"}}},
		{"GET", "/app/settings", nil},
		{"POST", "/app/settings/copy-to-live", url.Values{}},
		{"POST", "/app/settings/" + o.site, url.Values{"name": {"Renamed"}, "always_open": {"on"}, "color": {"#000000"},
			"position": {"right"}, "locale": {"en"}}},
		{"POST", "/app/conversations/" + o.conv + "/notes", url.Values{"body": {"Call back"}}},
		{"POST", "/app/conversations/" + o.conv + "/tags", url.Values{"tags": {"vip, billing"}}},
		{"GET", "/app/canned-replies", nil},
		{"POST", "/app/canned-replies", url.Values{"shortcut": {"bye"}, "title": {"Bye"}, "body": {"Goodbye"}}},
		{"POST", "/app/canned-replies/" + o.cnr + "/delete", url.Values{}},
		{"GET", "/app/search?q=order", nil},
		{"GET", "/app/push/key", nil},
		{"POST", "/app/push/subscriptions", pushForm("https://push.example/send/1")},
		{"POST", "/app/push/unsubscribe", url.Values{"endpoint": {"https://push.example/send/1"}}},
		{"GET", "/app/members", nil},
		{"GET", "/app/operations", nil},
		{"POST", "/app/members", url.Values{"email": {"new@example.com"}, "name": {"New"}, "role": {"agent"}}},
		{"POST", "/app/members/" + o.mem + "/role", url.Values{"role": {"owner"}}},
		{"GET", "/app/two-factor", nil},
		{"POST", "/app/two-factor", url.Values{"code": {"123456"}}},
		{"POST", "/app/two-factor/required", url.Values{"required": {"true"}}},
		{"POST", "/app/members/" + o.mem + "/two-factor/reset", url.Values{}},
	}
}

// TestDashboardRefusesStrangers checks every dashboard route against an
// anonymous user, a forged or missing CSRF token, a cookie after sign-out
// and a session in the other mode; none of them may change anything.
func TestDashboardRefusesStrangers(t *testing.T) {
	t.Parallel()
	e := webenv.New(t, func(o *app.Options) { o.Webhooks = app.WebhookOptions{AllowHTTP: true, AllowPrivate: true} })
	base := dashServer(t, e)
	o := makeDashObjects(t, e)
	routes := dashRoutes(o)

	// The list below covers every route the dashboard serves to members.
	mux := http.NewServeMux()
	for _, p := range web.DashboardRoutePatterns() {
		mux.HandleFunc(p, func(http.ResponseWriter, *http.Request) {})
	}
	covered := map[string]bool{}
	for _, rt := range routes {
		_, p := mux.Handler(httptest.NewRequest(rt.method, rt.path, nil))
		covered[p] = true
	}
	for _, p := range web.DashboardRoutePatterns() {
		if !covered[p] {
			t.Errorf("route %s is not in the security test's list", p)
		}
	}

	t.Run("anonymous", func(t *testing.T) {
		anon := newDash(t, base)
		for _, rt := range routes {
			var r dashResp
			if rt.method == "GET" {
				r = anon.get(rt.path)
			} else {
				form := url.Values{"csrf": {"anything"}}
				for k, v := range rt.form {
					form[k] = v
				}
				r = anon.do("POST", rt.path, form)
			}
			switch {
			case rt.method == "GET" && rt.path != "/app/events":
				if r.status != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), "/app/sign-in?next=") {
					t.Errorf("%s %s: status %d, location %q; want a redirect to sign in", rt.method, rt.path, r.status, r.header.Get("Location"))
				}
			default:
				if r.status != http.StatusUnauthorized {
					t.Errorf("%s %s: status %d, want 401", rt.method, rt.path, r.status)
				}
			}
			if strings.Contains(r.body, "Where is my order") || strings.Contains(r.body, "ana@example.com") {
				t.Errorf("%s %s shows data to an anonymous user", rt.method, rt.path)
			}
		}
	})

	t.Run("forged CSRF", func(t *testing.T) {
		d := newDash(t, base)
		d.signIn("agent@example.com", webenv.DashPassword)
		for _, rt := range routes {
			if rt.method != "POST" {
				continue
			}
			for _, token := range []string{"forged-" + d.csrf[:8], ""} {
				form := url.Values{}
				for k, v := range rt.form {
					form[k] = v
				}
				form.Set("csrf", token)
				if token == "" {
					form.Del("csrf")
				}
				r := d.do("POST", rt.path, form)
				if r.status != http.StatusForbidden {
					t.Errorf("%s %s with token %q: status %d, want 403", rt.method, rt.path, token, r.status)
				}
			}
			// The right token from another site's page is refused too.
			req, _ := http.NewRequest("POST", base+rt.path, strings.NewReader(url.Values{"csrf": {d.csrf}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", "https://evil.example")
			req.AddCookie(&http.Cookie{Name: "chatsvc_session", Value: d.cookie})
			res, err := d.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusForbidden {
				t.Errorf("%s %s from another origin: status %d, want 403", rt.method, rt.path, res.StatusCode)
			}
		}
		// Nothing changed: the session still works and every object is as it was.
		d.get("/app/").must(t, http.StatusOK)
		c := e.Test("GET", "/v1/conversations/"+o.conv, nil).OK(t, 200)
		if c["status"] != "open" || c["assignee_id"] != nil || c["message_count"].(float64) != 1 {
			t.Errorf("conversation changed by forged requests: %v", c)
		}
		if tk := e.Test("GET", "/v1/tickets/"+o.tkt, nil).OK(t, 200); tk["status"] != "open" {
			t.Errorf("ticket changed by a forged request: %v", tk["status"])
		}
		e.Test("GET", "/v1/contacts/"+o.ctc, nil).OK(t, 200)
		e.Test("GET", "/v1/knowledge-sources/"+o.src, nil).OK(t, 200)
		e.Test("GET", "/v1/assistant/synonyms/"+o.syn, nil).OK(t, 200)
		if w := e.Test("GET", "/v1/webhook-endpoints/"+o.whe, nil).OK(t, 200); w["enabled"] != true {
			t.Errorf("endpoint changed by a forged request: %v", w)
		}
	})

	t.Run("after sign-out", func(t *testing.T) {
		d := newDash(t, base)
		d.signIn("agent@example.com", webenv.DashPassword)
		d.get("/app/").must(t, http.StatusOK)
		out := d.post("/app/sign-out", nil)
		out.must(t, http.StatusSeeOther)
		if !strings.Contains(out.header.Get("Set-Cookie"), "Max-Age=0") {
			t.Errorf("sign-out does not clear the cookie: %q", out.header.Get("Set-Cookie"))
		}
		// The old cookie, replayed, is refused everywhere.
		for _, rt := range routes {
			var r dashResp
			if rt.method == "GET" {
				r = d.get(rt.path)
			} else {
				r = d.post(rt.path, rt.form)
			}
			if rt.method == "GET" && rt.path != "/app/events" {
				if r.status != http.StatusSeeOther {
					t.Errorf("%s %s after sign-out: status %d, want a redirect to sign in", rt.method, rt.path, r.status)
				}
			} else if r.status != http.StatusUnauthorized {
				t.Errorf("%s %s after sign-out: status %d, want 401", rt.method, rt.path, r.status)
			}
		}
	})

	t.Run("other mode", func(t *testing.T) {
		d := newDash(t, base)
		d.signIn("agent@example.com", webenv.DashPassword)
		d.setMode("live")
		for _, rt := range routes {
			if !strings.Contains(rt.path, "_") || strings.HasSuffix(rt.path, "/resend") || strings.HasPrefix(rt.path, "/app/settings/") ||
				strings.HasPrefix(rt.path, "/app/members/") {
				continue // lists and forms without an object id; sites and members belong to both modes
			}
			var r dashResp
			if rt.method == "GET" {
				r = d.get(rt.path)
			} else {
				r = d.post(rt.path, rt.form)
			}
			if r.status != http.StatusNotFound {
				t.Errorf("live session, %s %s of a test object: status %d, want 404", rt.method, rt.path, r.status)
			}
		}
		// Test-mode data stays out of the live inbox and lists.
		for _, p := range []string{"/app/", "/app/tickets", "/app/contacts", "/app/knowledge", "/app/webhooks", "/app/reports"} {
			body := d.get(p).must(t, http.StatusOK)
			for _, id := range []string{o.conv, o.tkt, o.ctc, o.src, o.whe, o.syn} {
				if strings.Contains(body, id) {
					t.Errorf("live %s lists test object %s", p, id)
				}
			}
		}
		c := e.Test("GET", "/v1/conversations/"+o.conv, nil).OK(t, 200)
		if c["status"] != "open" || c["message_count"].(float64) != 1 {
			t.Errorf("a live session changed a test conversation: %v", c)
		}
	})
}

// TestDashboardSignIn checks the cookie's flags, the secure headers, the
// lock-out after repeated failures and its end.
func TestDashboardSignIn(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	base := dashServer(t, e)
	d := newDash(t, base)

	page := d.get("/app/sign-in")
	page.must(t, http.StatusOK)
	for h, want := range map[string]string{
		"Content-Security-Policy": "frame-ancestors 'none'",
		"X-Frame-Options":         "DENY",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "same-origin",
	} {
		if !strings.Contains(page.header.Get(h), want) {
			t.Errorf("%s = %q, want it to contain %q", h, page.header.Get(h), want)
		}
	}
	if csp := page.header.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP allows inline code: %s", csp)
	}

	r := d.signIn("AGENT@example.com", webenv.DashPassword)
	r.must(t, http.StatusSeeOther)
	cookie := r.header.Get("Set-Cookie")
	for _, flag := range []string{"HttpOnly", "Secure", "SameSite=Lax", "Path=/app/"} {
		if !strings.Contains(cookie, flag) {
			t.Errorf("session cookie %q lacks %s", cookie, flag)
		}
	}
	if strings.Contains(cookie, d.csrf) {
		t.Error("the CSRF token is in the cookie")
	}
	// The database keeps only a hash of the token.
	if _, err := e.DB.Read().DashboardSession(t.Context(), d.cookie); err == nil {
		t.Error("the session token is stored in clear")
	}

	// Wrong passwords: the same answer as for an unknown address, then a lock-out.
	other := newDash(t, base)
	unknown := other.signIn("nobody@example.com", "whatever1")
	unknown.must(t, http.StatusUnauthorized)
	for i := 1; i <= app.MaxSignInFailures; i++ { // each fails as such; the last one also locks
		r := other.signIn("agent@example.com", "wrong password")
		r.must(t, http.StatusUnauthorized)
		if !strings.Contains(r.body, "e-mail address or the password is not right") ||
			strings.Contains(r.body, "locked") != (i == app.MaxSignInFailures) {
			t.Fatalf("failure %d: %s", i, r.body)
		}
	}
	other.signIn("agent@example.com", "wrong password").must(t, http.StatusTooManyRequests)
	locked := other.signIn("agent@example.com", webenv.DashPassword)
	locked.must(t, http.StatusTooManyRequests)
	if locked.header.Get("Retry-After") == "" {
		t.Error("lock-out without Retry-After")
	}
	if other.cookie != "" {
		t.Fatal("a locked-out address got a session")
	}
	e.Clock.Advance(app.SignInLockout + time.Second)
	other.signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	other.get("/app/").must(t, http.StatusOK)

	// The first session was not disturbed by the other's failures.
	d.get("/app/").must(t, http.StatusOK)

	// Sessions expire.
	e.Clock.Advance(app.DashboardSessionTTL)
	d.get("/app/").must(t, http.StatusSeeOther)

	// A sign-in form posted from another site is refused before the password is checked.
	res := postFromElsewhere(t, base+"/app/sign-in", url.Values{"email": {"agent@example.com"}, "password": {webenv.DashPassword}})
	if res.StatusCode != http.StatusForbidden || len(res.Cookies()) > 0 {
		t.Errorf("cross-site sign-in: status %d, cookies %v", res.StatusCode, res.Cookies())
	}

	// A redirect after sign-in never leaves the dashboard.
	r = newDash(t, base).do("POST", "/app/sign-in", url.Values{"email": {"agent@example.com"},
		"password": {webenv.DashPassword}, "next": {"//evil.example/app/"}})
	if loc := r.header.Get("Location"); loc != "/app/" {
		t.Errorf("next=//evil.example: redirected to %q", loc)
	}
}

// TestDashboardSetPasswordEndsSessions checks that a new password ends the member's sessions.
func TestDashboardSetPasswordEndsSessions(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	base := dashServer(t, e)
	d := newDash(t, base)
	d.signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	if _, err := e.Svc.SetMemberPassword(t.Context(), "agent@example.com", "another password"); err != nil {
		t.Fatal(err)
	}
	d.get("/app/").must(t, http.StatusSeeOther)
	newDash(t, base).signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusUnauthorized)
	newDash(t, base).signIn("agent@example.com", "another password").must(t, http.StatusSeeOther)
	if _, err := e.Svc.SetMemberPassword(t.Context(), "agent@example.com", "short"); err == nil {
		t.Error("a 5-character password was accepted")
	}
}

// TestDashboardSessionsPruned checks that ended and expired sessions are deleted.
func TestDashboardSessionsPruned(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	base := dashServer(t, e)
	ended, kept := newDash(t, base), newDash(t, base)
	ended.signIn("agent@example.com", webenv.DashPassword)
	kept.signIn("agent@example.com", webenv.DashPassword)
	ended.post("/app/sign-out", nil).must(t, http.StatusSeeOther)
	e.Clock.Advance(time.Second)
	if n, err := e.Svc.PruneDashboardSessions(t.Context()); err != nil || n != 1 {
		t.Fatalf("pruned %d (%v), want the ended session", n, err)
	}
	kept.get("/app/").must(t, http.StatusOK)
	e.Clock.Advance(app.DashboardSessionTTL)
	if n, err := e.Svc.PruneDashboardSessions(t.Context()); err != nil || n != 1 {
		t.Fatalf("pruned %d (%v), want the expired session", n, err)
	}
}
