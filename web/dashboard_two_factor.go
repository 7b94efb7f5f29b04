package web

import (
	"encoding/base64"
	"html/template"
	"net/http"

	"github.com/skip2/go-qrcode"

	"chatsvc/app"
)

// twoFactorRoutes are the pages that set up two-factor sign-in, and the
// owner's controls of it.
func (d *dashboard) twoFactorRoutes() []dashRoute {
	return []dashRoute{
		{"GET /app/two-factor", d.twoFactor},
		{"POST /app/two-factor", d.confirmTwoFactor},
		{"POST /app/two-factor/required", d.requireTwoFactor},
		{"POST /app/members/{id}/two-factor/reset", d.resetTwoFactor},
	}
}

// enrolmentPaths are what a member who must set up two-factor sign-in may
// open meanwhile.
var enrolmentPaths = map[string]bool{"/app/two-factor": true, "/app/sign-out": true}

// twoFactor shows the member's two-factor state, or the set-up: a QR code
// of the secret (and the secret to type in) and a field for the first code.
func (d *dashboard) twoFactor(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	data := map[string]any{"On": s.Member.TwoFactor()}
	if s.Member.TwoFactor() {
		left, err := d.h.svc.RecoveryCodesLeft(r.Context(), s.Member.ID)
		if err != nil {
			return err
		}
		data["Left"] = left
	} else {
		en, err := d.h.svc.BeginTwoFactor(r.Context(), s.Member.ID)
		if err != nil {
			return err
		}
		png, err := qrcode.Encode(en.URI, qrcode.Medium, 240)
		if err != nil {
			return err
		}
		data["Secret"] = en.Secret
		data["QR"] = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
	}
	d.render(w, r, http.StatusOK, "two-factor", view{Title: "Two-factor sign-in", Nav: "two-factor", Session: s, Data: data})
	return nil
}

// confirmTwoFactor turns two-factor sign-in on and shows the recovery
// codes, this once.
func (d *dashboard) confirmTwoFactor(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	codes, err := d.h.svc.ConfirmTwoFactor(r.Context(), s.Member.ID, r.PostFormValue("code"))
	if err != nil {
		return err
	}
	s.MustEnrol = false
	d.render(w, r, http.StatusOK, "two-factor", view{Title: "Two-factor sign-in", Nav: "two-factor", Session: s,
		Data: map[string]any{"On": true, "Codes": codes, "Left": len(codes)}})
	return nil
}

// requireTwoFactor makes the team set up two-factor sign-in (an owner's).
func (d *dashboard) requireTwoFactor(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	on := r.PostFormValue("required") == "true"
	if err := d.h.svc.RequireTwoFactor(r.Context(), s.Member, on); err != nil {
		return err
	}
	msg := "Two-factor sign-in is no longer required."
	if on {
		msg = "Two-factor sign-in is now required: members without it set it up at their next page."
	}
	return back(w, r, "/app/members", msg)
}

// resetTwoFactor turns a member's two-factor sign-in off (an owner's).
func (d *dashboard) resetTwoFactor(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if err := d.h.svc.ResetTwoFactor(r.Context(), s.Member, r.PathValue("id")); err != nil {
		return err
	}
	return back(w, r, "/app/members", "Two-factor sign-in was reset; the member signs in with the password and sets it up again.")
}

// enrolFirst refuses what a member who has to set up two-factor sign-in
// asks for before they do, but the set-up itself.
func enrolFirst(r *http.Request, s *app.DashboardSession) bool {
	return s.MustEnrol && !enrolmentPaths[r.URL.Path]
}

var errEnrolFirst = &app.Error{Kind: app.Forbidden, Code: app.CodeTwoFactorRequired,
	Message: "Your team requires two-factor sign-in: set it up first, at /app/two-factor."}
