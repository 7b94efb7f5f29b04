package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"chatsvc/app"
)

// settingsDay is one weekday's hours as the Settings form shows them.
type settingsDay struct {
	Key, Name, Hours string // Hours: "09:00-12:00, 13:00-17:30"
}

// settingsSite is a site with its schedule written for the form.
type settingsSite struct {
	*app.Site
	Days     []settingsDay
	Holidays string
}

var dayNames = map[string]string{"mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday",
	"fri": "Friday", "sat": "Saturday", "sun": "Sunday"}

// settings shows every site with its domains, business hours and widget.
func (d *dashboard) settings(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	sites, err := app.Collect(1000, func(lp app.ListParams) (app.List[*app.Site], error) {
		return d.h.svc.SiteList(r.Context(), lp)
	})
	if err != nil {
		return err
	}
	out := make([]settingsSite, len(sites))
	for i, site := range sites {
		out[i] = settingsSite{Site: site}
		bh := site.BusinessHours
		for _, day := range app.Weekdays {
			sd := settingsDay{Key: day, Name: dayNames[day]}
			if bh != nil {
				var spans []string
				for _, sp := range bh.Weekly[day] {
					spans = append(spans, sp[0]+"-"+sp[1])
				}
				sd.Hours = strings.Join(spans, ", ")
			}
			out[i].Days = append(out[i].Days, sd)
		}
		if bh != nil {
			out[i].Holidays = strings.Join(bh.Holidays, ", ")
		}
	}
	d.render(w, r, http.StatusOK, "settings", view{Title: "Settings", Nav: "settings", Session: s,
		Data: map[string]any{"Sites": out, "Locales": app.Locales, "Base": d.publicBase(r)}})
	return nil
}

// publicBase is the root the widget's snippet loads from: public_url, or
// the address this page was asked at when none is configured.
func (d *dashboard) publicBase(r *http.Request) string {
	if u := strings.TrimSuffix(d.h.svc.PublicURL(), "/"); u != "" {
		return u
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// copyToLive copies the team's test set-up (knowledge sources, synonyms,
// canned replies) to live data, keeping what live data already has.
func (d *dashboard) copyToLive(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	rep, err := d.h.svc.CopyTestToLive(r.Context())
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("Copied to live data: %d knowledge %s, %d synonym %s, %d canned %s.",
		rep.Sources, plural(rep.Sources, "source", "sources"), rep.Synonyms, plural(rep.Synonyms, "group", "groups"),
		rep.Canned, plural(rep.Canned, "reply", "replies"))
	if kept := rep.SourcesKept + rep.SynonymsKept + rep.CannedKept; kept > 0 {
		msg += fmt.Sprintf(" %d already in live data %s kept as %s.", kept, plural(kept, "was", "were"), plural(kept, "it was", "they were"))
	}
	return back(w, r, "/app/settings", msg)
}

// plural picks the singular or plural word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// updateSettings saves one site's form.
func (d *dashboard) updateSettings(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	f := r.PostFormValue
	in := app.SiteUpdate{Name: app.Value(f("name")), Domains: app.Value(splitList(f("domains"))),
		Widget: app.Value(app.WidgetInput{Color: app.Value(f("color")), Greeting: app.Value(f("greeting")),
			Position: app.Value(f("position")), Locale: app.Value(f("locale")),
			RequireEmail: app.Value(f("require_email") == "on"), OfflineMessage: app.Value(f("offline_message"))})}
	if f("always_open") == "on" {
		in.BusinessHours = app.Field[app.HoursInput]{Set: true, Null: true}
	} else {
		weekly := map[string]json.RawMessage{}
		for _, day := range app.Weekdays {
			weekly[day] = daySpans(f("hours_" + day))
		}
		in.BusinessHours = app.Value(app.HoursInput{Timezone: app.Value(f("timezone")), Weekly: app.Value(weekly),
			Holidays: app.Value(splitList(f("holidays")))})
	}
	if _, err := d.h.svc.UpdateSite(r.Context(), r.PathValue("id"), in); err != nil {
		return err
	}
	return back(w, r, "/app/settings", "Settings saved.")
}

// daySpans turns "09:00-12:00, 13:00-17:30" into the API's pairs; what is
// not a pair is passed on whole for the service to refuse by name.
func daySpans(v string) json.RawMessage {
	spans := [][]string{}
	for _, item := range splitList(v) {
		from, to, _ := strings.Cut(item, "-")
		spans = append(spans, []string{strings.TrimSpace(from), strings.TrimSpace(to)})
	}
	b, _ := json.Marshal(spans)
	return b
}

// splitList splits a comma-separated field, dropping blanks.
func splitList(v string) []string {
	out := []string{}
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
