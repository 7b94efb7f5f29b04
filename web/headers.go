package web

import (
	"net/http"
	"strings"
)

// dashboardCSP allows nothing but the dashboard's own files: no inline
// script or style, no framing, forms posting only back to the dashboard.
const dashboardCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; media-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// demoCSP is the demo page's: the widget script from this server, and the
// page's own inline styles.
const demoCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// withSecureHeaders sets the headers every HTML page of this server carries:
// the given content policy, no framing, no sniffing, no caching of pages,
// and no path leaked in the Referer.
func withSecureHeaders(csp string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if !strings.HasPrefix(r.URL.Path, "/app/static/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}
