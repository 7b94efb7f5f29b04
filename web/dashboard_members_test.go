package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/storage"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// mailsTo returns the links of the queued e-mails of a template to an
// address, oldest first.
func mailsTo(t *testing.T, e *webenv.Env, template, to string) []string {
	t.Helper()
	due, err := e.Svc.DueMails(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, m := range due {
		if m.Template == template && m.ToEmail == to {
			var data struct{ Link string }
			if err := json.Unmarshal(m.Data, &data); err != nil {
				t.Fatal(err)
			}
			links = append(links, data.Link)
		}
	}
	return links
}

// linkPath is the dashboard path of an e-mailed link.
func linkPath(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Path != "/app/password" || u.Query().Get("token") == "" {
		t.Fatalf("link %q", link)
	}
	return u.RequestURI()
}

// TestDashboardTeam checks the Team page: only owners see and use it, an
// invitation e-mails a one-time link that sets the password and signs in,
// and the team always keeps an owner.
func TestDashboardTeam(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	base := dashServer(t, e)
	owner := newDash(t, base)
	owner.signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	if b := owner.get("/app/").must(t, http.StatusOK); !strings.Contains(b, `href="/app/members"`) {
		t.Error("an owner's navigation lacks the Team page")
	}
	if b := owner.get("/app/members").must(t, http.StatusOK); !strings.Contains(b, "other@example.com") {
		t.Errorf("the Team page lacks a member:\n%s", b)
	}

	// An agent neither sees nor uses the Team page.
	if _, err := e.Svc.SetMemberPassword(t.Context(), "other@example.com", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	agent := newDash(t, base)
	agent.signIn("other@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	if b := agent.get("/app/").must(t, http.StatusOK); strings.Contains(b, `href="/app/members"`) {
		t.Error("an agent's navigation offers the Team page")
	}
	agent.get("/app/members").must(t, http.StatusForbidden)
	agent.post("/app/members", url.Values{"email": {"x@example.com"}, "name": {"X"}, "role": {"owner"}}).must(t, http.StatusForbidden)
	agent.post("/app/members/"+e.Member2+"/role", url.Values{"role": {"owner"}}).must(t, http.StatusForbidden)
	if got := mailsTo(t, e, app.MailMemberInvitation, "x@example.com"); len(got) != 0 {
		t.Errorf("an agent's invitation was queued: %v", got)
	}

	// Invitations: fields checked, an address taken refused.
	for _, c := range []struct {
		form   url.Values
		status int
		want   string
	}{
		{url.Values{"email": {"new@example.com"}, "name": {"New"}, "role": {"admin"}}, 400, "role must be one of owner, agent"},
		{url.Values{"email": {"not an address"}, "name": {"New"}, "role": {"agent"}}, 400, "valid e-mail address"},
		{url.Values{"email": {"new@example.com"}, "name": {" "}, "role": {"agent"}}, 400, "name must not be empty"},
		{url.Values{"email": {"new@example.com"}, "name": {strings.Repeat("n", 201)}, "role": {"agent"}}, 400, "at most 200"},
		{url.Values{"email": {"OTHER@example.com"}, "name": {"Again"}, "role": {"agent"}}, 409, "exists already"},
	} {
		if b := owner.post("/app/members", c.form).must(t, c.status); !strings.Contains(b, c.want) {
			t.Errorf("invite %v: want %q in\n%s", c.form, c.want, b)
		}
	}
	owner.post("/app/members", url.Values{"email": {"new@example.com"}, "name": {"Nina New"}, "role": {"agent"}}).
		must(t, http.StatusSeeOther)
	links := mailsTo(t, e, app.MailMemberInvitation, "new@example.com")
	if len(links) != 1 {
		t.Fatalf("invitation e-mails %v", links)
	}
	path := linkPath(t, links[0])
	token := strings.TrimPrefix(path, "/app/password?token=")
	if _, err := e.DB.Read().MemberLink(t.Context(), token); err != storage.ErrNotFound {
		t.Errorf("the link's token is stored in clear (%v)", err)
	}
	newbie := newDash(t, base)
	newbie.signIn("new@example.com", "anything at all").must(t, http.StatusUnauthorized)
	if b := newbie.get(path).must(t, http.StatusOK); !strings.Contains(b, "Welcome, Nina New") {
		t.Errorf("invitation page:\n%s", b)
	}
	if b := newbie.do("POST", "/app/password", url.Values{"token": {token}, "password": {"short"}}).
		must(t, http.StatusBadRequest); !strings.Contains(b, "at least 8") {
		t.Errorf("a short password:\n%s", b)
	}
	set := newbie.do("POST", "/app/password", url.Values{"token": {token}, "password": {"nina's own password"}})
	set.must(t, http.StatusSeeOther)
	if !strings.HasPrefix(set.header.Get("Location"), "/app/") || !strings.Contains(set.header.Get("Set-Cookie"), "chatsvc_session=") {
		t.Errorf("setting the password does not sign in: %v", set.header)
	}
	// Used once: the link is refused from then on, and the password works.
	for _, r := range []dashResp{newbie.get(path),
		newbie.do("POST", "/app/password", url.Values{"token": {token}, "password": {"another password"}})} {
		if b := r.must(t, http.StatusBadRequest); !strings.Contains(b, "expired or was used already") {
			t.Errorf("a used link:\n%s", b)
		}
	}
	newDash(t, base).signIn("new@example.com", "nina's own password").must(t, http.StatusSeeOther)
	if b := owner.get("/app/members").must(t, http.StatusOK); !strings.Contains(b, "Nina New") {
		t.Error("the Team page lacks the new member")
	}

	// The team keeps an owner: the only one cannot step down until another is made one.
	if b := owner.post("/app/members/"+e.Member+"/role", url.Values{"role": {"agent"}}).
		must(t, http.StatusConflict); !strings.Contains(b, "only owner") {
		t.Errorf("the last owner stepped down:\n%s", b)
	}
	owner.post("/app/members/"+e.Member2+"/role", url.Values{"role": {"chief"}}).must(t, http.StatusBadRequest)
	owner.post("/app/members/mem_nobody/role", url.Values{"role": {"owner"}}).must(t, http.StatusNotFound)
	owner.post("/app/members/"+e.Member2+"/role", url.Values{"role": {"owner"}}).must(t, http.StatusSeeOther)
	owner.post("/app/members/"+e.Member+"/role", url.Values{"role": {"agent"}}).must(t, http.StatusSeeOther)
	owner.get("/app/members").must(t, http.StatusForbidden)
	agent.get("/app/members").must(t, http.StatusOK)
}

// TestDashboardPasswordReset checks the reset form: the same answer for
// any address, a mail only to a member, a link that works once within
// the hour and ends the member's other sessions.
func TestDashboardPasswordReset(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	base := dashServer(t, e)
	anon := newDash(t, base)
	anon.get("/app/sign-in").must(t, http.StatusOK)
	anon.get("/app/forgot-password").must(t, http.StatusOK)
	if b := anon.do("POST", "/app/forgot-password", url.Values{"email": {"bad address"}}).
		must(t, http.StatusBadRequest); !strings.Contains(b, "valid e-mail address") {
		t.Errorf("a malformed address:\n%s", b)
	}
	answers := map[string]string{}
	for _, addr := range []string{"nobody@example.com", "Agent@Example.com"} {
		b := anon.do("POST", "/app/forgot-password", url.Values{"email": {addr}}).must(t, http.StatusOK)
		answers[addr] = strings.ReplaceAll(b, addr, "ADDRESS")
	}
	if answers["nobody@example.com"] != answers["Agent@Example.com"] {
		t.Error("the reset form answers a member's address differently from a stranger's")
	}
	if got := mailsTo(t, e, app.MailPasswordReset, "nobody@example.com"); len(got) != 0 {
		t.Errorf("a reset e-mail to a stranger: %v", got)
	}
	links := mailsTo(t, e, app.MailPasswordReset, "agent@example.com")
	if len(links) != 1 {
		t.Fatalf("reset e-mails %v", links)
	}

	// A session open before the reset ends with it.
	before := newDash(t, base)
	before.signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	path := linkPath(t, links[0])
	if b := anon.get(path).must(t, http.StatusOK); !strings.Contains(b, "Choose a new password") {
		t.Errorf("reset page:\n%s", b)
	}
	token := strings.TrimPrefix(path, "/app/password?token=")
	anon.do("POST", "/app/password", url.Values{"token": {token}, "password": {"a brand new secret"}}).must(t, http.StatusSeeOther)
	before.get("/app/").must(t, http.StatusSeeOther)
	newDash(t, base).signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusUnauthorized)
	newDash(t, base).signIn("agent@example.com", "a brand new secret").must(t, http.StatusSeeOther)

	// A second link expires after an hour.
	anon.do("POST", "/app/forgot-password", url.Values{"email": {"agent@example.com"}}).must(t, http.StatusOK)
	links = mailsTo(t, e, app.MailPasswordReset, "agent@example.com")
	late := linkPath(t, links[len(links)-1])
	anon.get(late).must(t, http.StatusOK)
	e.Clock.Advance(app.PasswordResetTTL + time.Second)
	anon.get(late).must(t, http.StatusBadRequest)
	anon.get("/app/password?token=made-up").must(t, http.StatusBadRequest)
	// Both forms refuse a post a browser says comes from another site.
	for _, form := range []string{"/app/forgot-password", "/app/password"} {
		res := postFromElsewhere(t, base+form, url.Values{"email": {"agent@example.com"}, "token": {token},
			"password": {"from another site"}})
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site POST %s: status %d, want 403", form, res.StatusCode)
		}
	}
	if n, err := e.Svc.PruneMemberLinks(t.Context()); err != nil || n != 2 {
		t.Errorf("pruned %d used or expired links (%v), want 2", n, err)
	}
}

// postFromElsewhere posts a form without a session, as a page of another
// site would; the answer's body is closed.
func postFromElsewhere(t *testing.T, to string, form url.Values) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", to, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// Without e-mail set up, an invitation says it waits in the outbox, and
// how to let the member in meanwhile.
func TestDashboardInviteWithoutMail(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	owner := newDash(t, dashServerWith(t, e, web.Options{PublicURL: webenv.PublicURL, MailOff: true}))
	owner.signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	r := owner.post("/app/members", url.Values{"email": {"new@example.com"}, "name": {"New"}, "role": {"agent"}})
	r.must(t, http.StatusSeeOther)
	flash, _ := url.QueryUnescape(r.header.Get("Location"))
	if !strings.Contains(flash, "e-mail is not set up") || !strings.Contains(flash, "members set-password") {
		t.Errorf("flash after an invitation without e-mail: %q", flash)
	}
}
