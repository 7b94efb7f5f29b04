package web

import (
	"net/http"
	"net/url"

	"chatsvc/app"
	"chatsvc/chat"
)

// members shows the team with each member's role, and the invitation form.
// Only owners manage the team.
func (d *dashboard) members(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if s.Member.Role != chat.RoleOwner {
		return &app.Error{Kind: app.Forbidden, Code: app.CodeOwnerRequired, Message: "Only an owner can manage the team."}
	}
	all, err := d.h.svc.Members(r.Context())
	if err != nil {
		return err
	}
	required, err := d.h.svc.TwoFactorRequired(r.Context())
	if err != nil {
		return err
	}
	d.render(w, r, http.StatusOK, "members", view{Title: "Team", Nav: "members", Session: s,
		Data: map[string]any{"Members": all, "Roles": []string{chat.RoleAgent, chat.RoleOwner}, "Required": required}})
	return nil
}

// inviteMember adds a member and e-mails them their one-time link.
func (d *dashboard) inviteMember(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	f := r.PostFormValue
	m, err := d.h.svc.InviteMember(r.Context(), s.Member, f("role"), f("email"), f("name"))
	if err != nil {
		return err
	}
	if d.mailOff {
		return back(w, r, "/app/members", "Invitation saved for "+m.Email+", but e-mail is not set up (smtp.host): "+
			"it waits in the outbox until it is. Meanwhile, give a password with: chatsvc members set-password.")
	}
	return back(w, r, "/app/members", "Invitation sent to "+m.Email+".")
}

// setMemberRole makes a member an owner or an agent.
func (d *dashboard) setMemberRole(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	m, err := d.h.svc.SetMemberRole(r.Context(), s.Member, r.PathValue("id"), r.PostFormValue("role"))
	if err != nil {
		return err
	}
	return back(w, r, "/app/members", m.Name+" is now "+m.Role+".")
}

// forgotPasswordPage asks for the address to send a reset link to.
func (d *dashboard) forgotPasswordPage(w http.ResponseWriter, r *http.Request) {
	d.render(w, r, http.StatusOK, "forgot-password", view{Title: "Reset your password", Data: map[string]string{}})
}

// forgotPassword queues a reset e-mail and answers the same whether or not
// the address belongs to a member. It shares the sign-in limit per client
// address, so it cannot be used to flood a mailbox.
func (d *dashboard) forgotPassword(w http.ResponseWriter, r *http.Request) {
	if !d.openForm(w, r) {
		return
	}
	email := r.PostFormValue("email")
	err := d.limitSignIn(r)
	if err == nil {
		err = d.h.svc.RequestPasswordReset(r.Context(), email)
	}
	if ae, ok := publicError(err); ok {
		d.render(w, r, kinds[ae.Kind].status, "forgot-password", view{Title: "Reset your password",
			Data: map[string]string{"Email": email, "Error": ae.Message}})
		return
	} else if err != nil {
		d.fail(w, r, nil, err)
		return
	}
	d.render(w, r, http.StatusOK, "forgot-password", view{Title: "Reset your password",
		Data: map[string]string{"Sent": email}})
}

// passwordPage is where a one-time link lands: the form for a new password.
func (d *dashboard) passwordPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	l, err := d.h.svc.MemberLinkOf(r.Context(), token)
	if err != nil {
		d.fail(w, r, nil, err)
		return
	}
	d.render(w, r, http.StatusOK, "password", view{Title: "Choose your password", Data: map[string]any{"Token": token, "Link": l}})
}

// setPassword uses the link: the password is set, the link and any other of
// the member's links stop working, and the member is signed in.
func (d *dashboard) setPassword(w http.ResponseWriter, r *http.Request) {
	if !d.openForm(w, r) {
		return
	}
	token := r.PostFormValue("token")
	var in *app.SignedIn
	err := d.limitSignIn(r) // a password check's worth of work, bounded like one
	if err == nil {
		in, err = d.h.svc.UseMemberLink(r.Context(), token, r.PostFormValue("password"))
	}
	if ae, ok := publicError(err); ok && ae.Param == "password" {
		l, lerr := d.h.svc.MemberLinkOf(r.Context(), token)
		if lerr == nil {
			d.render(w, r, http.StatusBadRequest, "password", view{Title: "Choose your password",
				Data: map[string]any{"Token": token, "Link": l, "Error": ae.Message}})
			return
		}
		err = lerr
	}
	if err != nil {
		d.fail(w, r, nil, err)
		return
	}
	if in == nil { // two-factor sign-in: the code is still needed
		http.Redirect(w, r, "/app/sign-in?flash="+url.QueryEscape("Your password is set. Sign in with it and your two-factor code."),
			http.StatusSeeOther)
		return
	}
	d.setSessionCookie(w, in.Token)
	http.Redirect(w, r, "/app/?flash=Your+password+is+set.", http.StatusSeeOther)
}

// openForm bounds the body of a form posted without a session and refuses
// one a browser says comes from another site; false: it has answered.
func (d *dashboard) openForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := d.sameOrigin(r); err != nil {
		d.fail(w, r, nil, err)
		return false
	}
	return true
}
