package web

import (
	_ "embed"
	"html/template"
	"net/http"

	"chatsvc/app"
)

// The widget is one hand-written script and the demo one page, embedded in
// the binary: no build step, nothing fetched from elsewhere.
var (
	//go:embed assets/widget.js
	widgetJS []byte
	//go:embed assets/demo.html
	demoHTML string
	demoPage = template.Must(template.New("demo").Parse(demoHTML))
)

func serveWidgetJS(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Access-Control-Allow-Origin", "*")
	w.Write(widgetJS)
}

// serveDemo shows the widget of ?site= on a sample page, in test mode
// unless ?live=1, so the test-mode key printed at first start sees the
// conversations it makes.
func serveDemo(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "site", "live")
	if err != nil {
		writeError(w, r, err)
		return
	}
	site := q.Get("site")
	if site == "" {
		writeError(w, r, &app.Error{Kind: app.Invalid, Code: app.CodeParameterMissing, Param: "site",
			Message: "Missing required parameter: site (open /demo?site=site_…)."})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	demoPage.Execute(w, map[string]any{"Site": site, "Test": q.Get("live") != "1", "Base": scheme + "://" + r.Host})
}
