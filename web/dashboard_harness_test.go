package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// dash is a browser-like client of the dashboard: it keeps the session
// cookie itself (the cookie is Secure, the test server plain HTTP) and
// never follows redirects, so tests see each answer.
type dash struct {
	t      *testing.T
	base   string
	client *http.Client
	cookie string // session token, "" when signed out
	csrf   string
	from   string // the page a request says it comes from (Referer), "" for none
}

// dashServer serves e's service with the dashboard's public URL on https.
func dashServer(t *testing.T, e *webenv.Env) string {
	t.Helper()
	return dashServerWith(t, e, web.Options{PublicURL: webenv.PublicURL})
}

// dashServerWith is dashServer with the server's options.
func dashServerWith(t *testing.T, e *webenv.Env, o web.Options) string {
	t.Helper()
	srv := httptest.NewServer(web.HandlerWith(e.Svc, o))
	t.Cleanup(srv.Close)
	if _, err := e.Svc.SetMemberPassword(context.Background(), "agent@example.com", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	return srv.URL
}

func newDash(t *testing.T, base string) *dash {
	return &dash{t: t, base: base, client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// dashResp is an answer of the dashboard.
type dashResp struct {
	status int
	header http.Header
	body   string
}

func (d *dash) do(method, path string, form url.Values) dashResp {
	d.t.Helper()
	var rd io.Reader
	if form != nil {
		rd = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, d.base+path, rd)
	if err != nil {
		d.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return d.send(req)
}

// send sends a prepared request with the session's cookie.
func (d *dash) send(req *http.Request) dashResp {
	d.t.Helper()
	if d.cookie != "" {
		req.AddCookie(&http.Cookie{Name: "chatsvc_session", Value: d.cookie})
	}
	if d.from != "" {
		req.Header.Set("Referer", d.base+d.from)
	}
	res, err := d.client.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return dashResp{status: res.StatusCode, header: res.Header, body: string(b)}
}

func (d *dash) get(path string) dashResp { d.t.Helper(); return d.do("GET", path, nil) }

// post sends a copy of form with the session's CSRF token added.
func (d *dash) post(path string, form url.Values) dashResp {
	d.t.Helper()
	sent := url.Values{"csrf": {d.csrf}}
	for k, v := range form {
		sent[k] = v
	}
	return d.do("POST", path, sent)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// signIn signs in and keeps the cookie and the CSRF token of the inbox page.
func (d *dash) signIn(email, password string) dashResp {
	d.t.Helper()
	return d.signInWith(url.Values{"email": {email}, "password": {password}})
}

// signInWith is signIn with the sign-in form's fields (a two-factor code);
// a member sent to set up two-factor sign-in takes the token of that page.
func (d *dash) signInWith(form url.Values) dashResp {
	d.t.Helper()
	r := d.do("POST", "/app/sign-in", form)
	if r.status != http.StatusSeeOther {
		return r
	}
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == "chatsvc_session" {
			d.cookie = c.Value
		}
	}
	inbox := d.get("/app/")
	if inbox.status == http.StatusSeeOther {
		inbox = d.get(inbox.header.Get("Location"))
	}
	m := csrfField.FindStringSubmatch(inbox.body)
	if m == nil {
		d.t.Fatalf("no CSRF token on the inbox page (status %d)", inbox.status)
	}
	d.csrf = m[1]
	return r
}

// must asserts the status of an answer and returns its body.
func (r dashResp) must(t *testing.T, status int) string {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body:\n%.2000s", r.status, status, r.body)
	}
	return r.body
}

// setMode switches the dashboard's data mode.
func (d *dash) setMode(mode string) {
	d.t.Helper()
	d.post("/app/mode", url.Values{"mode": {mode}}).must(d.t, http.StatusSeeOther)
}
