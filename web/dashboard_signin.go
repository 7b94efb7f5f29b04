package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"chatsvc/app"
)

func (d *dashboard) signInPage(w http.ResponseWriter, r *http.Request) {
	d.render(w, r, http.StatusOK, "sign-in", view{Title: "Sign in", Data: map[string]string{"Next": safeNext(r.URL.Query().Get("next"))}})
}

// Sign-in attempts allowed per client address (clientIP): a burst of
// signInBurst, then signInPerMinute. They bound the bcrypt work and the
// lock-outs one address can cause; a team behind one office address still
// signs in freely.
const (
	signInBurst     = 10
	signInPerMinute = 10
)

// signIn checks the e-mail and password and sets the session cookie. The
// cookie is HttpOnly (scripts cannot read it) and SameSite=Lax (other sites
// cannot post with it); Secure when the service is served over HTTPS.
func (d *dashboard) signIn(w http.ResponseWriter, r *http.Request) {
	if !d.openForm(w, r) {
		return
	}
	email := r.PostFormValue("email")
	next := safeNext(r.PostFormValue("next"))
	var in *app.SignedIn
	err := d.limitSignIn(r)
	if err == nil {
		in, err = d.h.svc.SignInWithCode(r.Context(), email, r.PostFormValue("password"), r.PostFormValue("code"))
	}
	if ae, ok := publicError(err); ok {
		d.signInRefused(w, r, next, email, ae)
		return
	} else if err != nil {
		d.fail(w, r, nil, err)
		return
	}
	d.setSessionCookie(w, in.Token)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// limitSignIn takes a token of the client address's sign-in allowance.
func (d *dashboard) limitSignIn(r *http.Request) error {
	if wait, ok := d.signInLimit.Allow(clientIP(r), d.h.svc.Now()); !ok {
		return &app.Error{Kind: app.RateLimited, Code: app.CodeRateLimited, RetryAfter: wait,
			Message: "Too many sign-in attempts from your network. Try again in a minute."}
	}
	return nil
}

// publicError returns err as an *app.Error, which may be shown in a form.
func publicError(err error) (*app.Error, bool) {
	var ae *app.Error
	return ae, errors.As(err, &ae)
}

// setSessionCookie hands the browser a new session's token.
func (d *dashboard) setSessionCookie(w http.ResponseWriter, token string) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/app/", HttpOnly: true,
		Secure: d.secure, SameSite: http.SameSiteLaxMode, MaxAge: int(app.DashboardSessionTTL.Seconds())})
}

// signInRefused shows the form again with the reason: the same for an
// unknown address and a wrong password.
func (d *dashboard) signInRefused(w http.ResponseWriter, r *http.Request, next, email string, ae *app.Error) {
	if ae.RetryAfter > 0 {
		secs := int64((ae.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	}
	needCode := ""
	if ae.Code == app.CodeTwoFactorRequired {
		needCode = "yes"
	}
	d.render(w, r, kinds[ae.Kind].status, "sign-in", view{Title: "Sign in",
		Data: map[string]string{"Next": next, "Email": email, "Error": ae.Message, "NeedCode": needCode}})
}

// safeNext keeps the redirect after sign-in inside the dashboard.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/app/") || strings.HasPrefix(next, "//") || strings.Contains(next, `\`) {
		return "/app/"
	}
	return next
}

// signOut ends the session on the server and clears the cookie.
func (d *dashboard) signOut(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if err := d.h.svc.SignOut(r.Context(), s); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/app/", HttpOnly: true,
		Secure: d.secure, SameSite: http.SameSiteLaxMode, MaxAge: -1})
	return back(w, r, "/app/sign-in", "You have signed out.")
}

// switchMode shows the other mode's data, then the dashboard page named
// by the form's "to", or the inbox.
func (d *dashboard) switchMode(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if err := d.h.svc.SetDashboardMode(r.Context(), s, r.PostFormValue("mode")); err != nil {
		return err
	}
	to := "/app/"
	if p := r.PostFormValue("to"); strings.HasPrefix(p, "/app/") && !strings.ContainsAny(p, "?#\\") && !strings.HasPrefix(p, "/app//") {
		to = p
	}
	return back(w, r, to, "Now showing "+string(s.Mode)+" data.")
}
