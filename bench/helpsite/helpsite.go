// Package helpsite serves a local help site for the crawl benchmarks: a
// home page linking to its sections, each section linking to its pages,
// and a robots.txt that keeps one folder out.
package helpsite

import (
	"fmt"
	"net/http"
	"strings"
)

// Handler serves a site of 1 + sections + pages pages; page p is linked
// from section p % sections.
func Handler(sections, pages int) http.Handler {
	para := strings.Repeat("Orders placed before noon ship the same day from our warehouse. ", 6)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var links strings.Builder
		var s, p int
		switch {
		case r.URL.Path == "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /admin\n"))
			return
		case r.URL.Path == "/":
			for i := 0; i < sections; i++ {
				fmt.Fprintf(&links, `<li><a href="/s%d">Section %d</a></li>`, i, i)
			}
		case scan(r.URL.Path, "/s%d/p%d", &s, &p) && s < sections && p < pages && p%sections == s:
		case scan(r.URL.Path, "/s%d", &s) && s < sections:
			for p := s; p < pages; p += sections {
				fmt.Fprintf(&links, `<li><a href="/s%d/p%d">Page %d</a></li>`, s, p, p)
			}
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Help %s</title></head><body><nav><a href="/">Home</a> <a href="/admin">Admin</a></nav>
<main><h1>Help %s</h1><h2>Delivery</h2><p>%s %s</p><p>%s</p><h2>Returns</h2><p>%s</p><ul>%s</ul></main>
<footer>Footer</footer></body></html>`, r.URL.Path, r.URL.Path, r.URL.Path, para, para, para, links.String())
	})
}

// scan reports whether path is exactly format with its numbers filled in.
func scan(path, format string, n ...*int) bool {
	args := make([]any, len(n))
	for i := range n {
		args[i] = n[i]
	}
	if got, err := fmt.Sscanf(path, format, args...); err != nil || got != len(n) {
		return false
	}
	for i := range n {
		args[i] = *n[i]
	}
	return fmt.Sprintf(format, args...) == path
}
