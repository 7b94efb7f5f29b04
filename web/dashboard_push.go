package web

import (
	"net/http"

	"chatsvc/app"
)

// pushKey gives the page the server's VAPID public key to subscribe with.
func (d *dashboard) pushKey(w http.ResponseWriter, r *http.Request, _ *app.DashboardSession) error {
	keys, err := d.h.svc.EnsureVAPIDKeys(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"public_key": keys.Public})
	return nil
}

// subscribePush stores the signed-in member's browser subscription, sent
// as the form fields endpoint, p256dh and auth.
func (d *dashboard) subscribePush(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	var in app.PushSubscriptionInput
	in.Endpoint, in.Keys.P256DH, in.Keys.Auth = r.PostFormValue("endpoint"), r.PostFormValue("p256dh"), r.PostFormValue("auth")
	if err := d.h.svc.SubscribePush(r.Context(), s.Member.ID, in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// unsubscribePush forgets the member's subscription at endpoint.
func (d *dashboard) unsubscribePush(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if err := d.h.svc.UnsubscribePush(r.Context(), s.Member.ID, r.PostFormValue("endpoint")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// serviceWorker serves the dashboard's service worker from /app/ so that
// its scope is the whole dashboard; it holds no data and needs no session.
func serviceWorker(w http.ResponseWriter, _ *http.Request) {
	b, err := dashboardFS.ReadFile("dashboard_assets/static/sw.js")
	if err != nil {
		http.Error(w, "missing", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache") // a new release takes over at the next visit
	_, _ = w.Write(b)
}
