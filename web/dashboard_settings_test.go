package web_test

import (
	"chatsvc/testenv/webenv"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The Settings page edits a site's widget and business hours; its
// mistakes are named as the API names them.
func TestDashboardSettings(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword).must(t, http.StatusSeeOther)
	page := d.get("/app/settings").must(t, http.StatusOK)
	if !strings.Contains(page, `action="/app/settings/`+e.Site+`"`) || !strings.Contains(page, `name="always_open" checked`) {
		t.Fatalf("settings page:\n%.3000s", page)
	}
	form := url.Values{"name": {"Shop"}, "domains": {"shop.example.com, example.org"}, "color": {"#117733"},
		"position": {"left"}, "locale": {"nl"}, "greeting": {"Hallo!"}, "offline_message": {"We zijn er niet."},
		"require_email": {"on"}, "timezone": {"Europe/Amsterdam"}, "hours_mon": {"09:00-12:00, 13:00-17:30"},
		"hours_sat": {""}, "holidays": {"2026-12-25"}}
	d.post("/app/settings/"+e.Site, form).must(t, http.StatusSeeOther)
	s := e.Test("GET", "/v1/sites/"+e.Site, nil).OK(t, 200)
	w, bh := s["widget"].(map[string]any), s["business_hours"].(map[string]any)
	if s["name"] != "Shop" || len(s["domains"].([]any)) != 2 || w["color"] != "#117733" || w["locale"] != "nl" ||
		w["require_email"] != true || bh["timezone"] != "Europe/Amsterdam" ||
		len(bh["weekly"].(map[string]any)["mon"].([]any)) != 2 || bh["holidays"].([]any)[0] != "2026-12-25" {
		t.Fatalf("site after the form: %v", s)
	}
	if page := d.get("/app/settings").must(t, http.StatusOK); !strings.Contains(page, `value="09:00-12:00, 13:00-17:30"`) {
		t.Fatal("the saved hours are not shown back")
	}
	form.Set("hours_tue", "9am-5pm")
	if r := d.post("/app/settings/"+e.Site, form); r.status != http.StatusBadRequest || !strings.Contains(r.body, "business_hours.weekly.tue.0") {
		t.Fatalf("bad hours: status %d, body %.500s", r.status, r.body)
	}
	form.Del("hours_tue")
	form.Set("always_open", "on")
	d.post("/app/settings/"+e.Site, form).must(t, http.StatusSeeOther)
	if s := e.Test("GET", "/v1/sites/"+e.Site, nil).OK(t, 200); s["business_hours"] != nil {
		t.Fatalf("always open: %v", s["business_hours"])
	}
	// A language the widget has no texts in, set through the API, stays chosen.
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"locale": "it"}}).OK(t, 200)
	if page := d.get("/app/settings").must(t, http.StatusOK); !strings.Contains(page, `<option value="it" selected>`) {
		t.Fatal("the site's language is not the one selected")
	}
}
