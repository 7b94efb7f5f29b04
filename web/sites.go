package web

import (
	"net/http"

	"chatsvc/app"
)

func (h *handlers) listSites(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.SiteList(r.Context(), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}

func (h *handlers) getSite(w http.ResponseWriter, r *http.Request) {
	s, err := h.svc.Site(r.Context(), r.PathValue("id"))
	reply(w, r, http.StatusOK, s, err)
}

func (h *handlers) updateSite(w http.ResponseWriter, r *http.Request) {
	b, err := decodeBody(w, r, "name", "domains", "business_hours", "widget")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.SiteUpdate{Name: b.str("name"), Domains: b.strings("domains")}
	if raw, ok := b.raw["business_hours"]; ok && string(raw) == "null" {
		in.BusinessHours = app.Field[app.HoursInput]{Set: true, Null: true} // always open
	} else if ok {
		in.BusinessHours = app.Field[app.HoursInput]{Set: true}
		if hb, ok := b.nested("business_hours", "timezone", "weekly", "holidays"); ok {
			in.BusinessHours.V = app.HoursInput{Timezone: hb.str("timezone"), Weekly: hb.object("weekly"),
				Holidays: hb.strings("holidays")}
		}
	}
	if _, ok := b.raw["widget"]; ok {
		in.Widget = app.Field[app.WidgetInput]{Set: true}
		if wb, ok := b.nested("widget", "color", "greeting", "position", "locale", "require_email", "offline_message"); ok {
			in.Widget.V = app.WidgetInput{Color: wb.str("color"), Greeting: wb.str("greeting"),
				Position: wb.str("position"), Locale: wb.str("locale"), RequireEmail: wb.boolean("require_email"),
				OfflineMessage: wb.str("offline_message")}
		}
	}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	s, err := h.svc.UpdateSite(r.Context(), r.PathValue("id"), in)
	reply(w, r, http.StatusOK, s, err)
}
