package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"html/template"
	"net/http"
	"strconv"
	"strings"

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

// Cache lifetimes of the widget script. The plain /widget.js of pasted
// embeds is checked again after a few minutes, so an upgrade reaches every
// page soon; /widget.js?v=<version> never changes and is kept a year.
const (
	widgetShortCache = "public, max-age=300"
	widgetLongCache  = "public, max-age=31536000, immutable"
)

// widgetScript is the widget script as it is served: its bytes plain and
// gzip-compressed, both made once at start, and the version that names
// them in a long-cached URL.
type widgetScript struct {
	plain, gzipped []byte
	version        string // the first 12 hex digits of the script's SHA-256
}

func newWidgetScript(js []byte) *widgetScript {
	js = withoutLineComments(js)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	zw.Write(js)
	zw.Close()
	sum := sha256.Sum256(js)
	return &widgetScript{plain: js, gzipped: buf.Bytes(), version: hex.EncodeToString(sum[:])[:12]}
}

// withoutLineComments is the script as browsers get it: its line comments
// and indentation, written for the people who read the source (a sixth of
// its bytes), are left out; the opening block comment, which says how to
// embed it, stays. A trailing comment goes only when the code before it
// holds no open string, so "https://…" in a string is never cut.
func withoutLineComments(js []byte) []byte {
	lines := strings.Split(string(js), "\n")
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "//") {
			continue
		}
		for from := 0; ; {
			i := strings.Index(line[from:], " // ")
			if i < 0 {
				break
			}
			code := line[:from+i]
			if strings.Count(code, `"`)%2 == 0 && strings.Count(code, "'")%2 == 0 {
				line = strings.TrimSpace(code)
				break
			}
			from += i + 1
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n"))
}

// path is the script's versioned URL path, for pages this server writes.
func (s *widgetScript) path() string { return "/widget.js?v=" + s.version }

// ServeHTTP serves the script, compressed when the client accepts gzip.
// Only a request naming the current version is cached long; the plain URL
// and a version an upgrade has replaced get the current script with the
// short lifetime, so an old embed keeps working.
func (s *widgetScript) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	if r.URL.Query().Get("v") == s.version {
		h.Set("Cache-Control", widgetLongCache)
	} else {
		h.Set("Cache-Control", widgetShortCache)
	}
	body, etag := s.plain, `"`+s.version+`"`
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body, etag = s.gzipped, `"`+s.version+`-gz"`
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	if matchesETag(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip: it
// names gzip (or *) without q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		v, ok := strings.CutPrefix(strings.ReplaceAll(strings.ToLower(params), " ", ""), "q=")
		if !ok {
			return true
		}
		q, err := strconv.ParseFloat(v, 64)
		return err == nil && q > 0
	}
	return false
}

// matchesETag reports whether an If-None-Match header names etag (weakly).
func matchesETag(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// serveDemo shows the widget of ?site= on a sample page, in test mode
// unless ?live=1, so the test-mode key printed at first start sees the
// conversations it makes. The page loads the script's versioned URL.
func serveDemo(script *widgetScript) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
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
		demoPage.Execute(w, map[string]any{"Site": site, "Test": q.Get("live") != "1", "Base": scheme + "://" + r.Host,
			"Script": script.path()})
	}
}
