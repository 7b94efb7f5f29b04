package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"regexp"
	"strings"
	"testing"
)

// TestWidgetJSCompressedAndCached: a client that accepts gzip gets the
// script compressed; the versioned URL the demo page names is cached a
// year, while the plain URL of pasted embeds, and a version an upgrade
// replaced, get the same script cached a few minutes.
func TestWidgetJSCompressedAndCached(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{noWorker: true})
	plain := e.wdo("GET", "/widget.js", "", nil, "Accept-Encoding", "identity")
	if plain.status != 200 || plain.header.Get("Content-Encoding") != "" || !strings.Contains(string(plain.raw), "/widget/v1") {
		t.Fatalf("plain widget.js: %d %v", plain.status, plain.header)
	}
	gz := e.wdo("GET", "/widget.js", "", nil, "Accept-Encoding", "gzip, deflate, br")
	if gz.status != 200 || gz.header.Get("Content-Encoding") != "gzip" || !strings.Contains(gz.header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("gzip widget.js: %d %v", gz.status, gz.header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz.raw))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, plain.raw) {
		t.Fatalf("the gzip body is not the script (%v)", err)
	}
	// The budget: what a visitor's browser downloads before the launcher
	// shows. 12.5 KB holds the chat, files, emoji and the rating step.
	if len(gz.raw) > 12_800 || len(gz.raw)*2 > len(plain.raw) {
		t.Errorf("compressed %d bytes of %d", len(gz.raw), len(plain.raw))
	}
	// What curl -I shows: the headers of the compressed answer, no body.
	if head := e.wdo("HEAD", "/widget.js", "", nil, "Accept-Encoding", "gzip"); head.status != 200 ||
		head.header.Get("Content-Encoding") != "gzip" || head.header.Get("Content-Length") != itoa(len(gz.raw)) || len(head.raw) != 0 {
		t.Errorf("HEAD: %d %v, %d bytes", head.status, head.header, len(head.raw))
	}
	if q := e.wdo("GET", "/widget.js", "", nil, "Accept-Encoding", "gzip;q=0, identity"); q.header.Get("Content-Encoding") != "" {
		t.Errorf("gzip sent to a client that refused it with q=0")
	}

	// The demo page loads the versioned URL.
	demo := e.wdo("GET", "/demo?site="+e.site, "", nil)
	m := regexp.MustCompile(`src="(/widget\.js\?v=[0-9a-f]{12})"`).FindStringSubmatch(string(demo.raw))
	if m == nil {
		t.Fatalf("no versioned script on the demo page: %s", demo.raw)
	}
	for _, c := range []struct{ path, cache string }{
		{m[1], "public, max-age=31536000, immutable"},
		{"/widget.js", "public, max-age=300"},
		{"/widget.js?v=000000000000", "public, max-age=300"},
	} {
		r := e.wdo("GET", c.path, "", nil, "Accept-Encoding", "gzip")
		if r.status != 200 || r.header.Get("Cache-Control") != c.cache || r.header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: %d, Cache-Control %q, Content-Encoding %q", c.path, r.status, r.header.Get("Cache-Control"), r.header.Get("Content-Encoding"))
		}
	}
	// A page reload asks again with the ETag and gets 304 without a body.
	again := e.wdo("GET", "/widget.js", "", nil, "Accept-Encoding", "gzip", "If-None-Match", gz.header.Get("ETag"))
	if again.status != 304 || len(again.raw) != 0 {
		t.Errorf("revalidation: %d, %d bytes", again.status, len(again.raw))
	}
}

// TestWidgetSiteLook: the look the launcher is painted with needs no
// visitor token, follows the site's settings and its
// domains, and may be cached a minute.
func TestWidgetSiteLook(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{noWorker: true})
	e.test("PATCH", "/v1/sites/"+e.site, map[string]any{"domains": []string{"example.com"},
		"widget": map[string]any{"color": "#FFD600", "position": "left", "locale": "de"}}).ok(t, 200)
	r := e.wdo("GET", "/widget/v1/sites/"+e.site, "", nil, "Origin", "https://shop.example.com")
	look := r.ok(t, 200)
	if look["color"] != "#FFD600" || look["position"] != "left" || look["locale"] != "de" || look["availability"] != "online" {
		t.Fatalf("look %v", look)
	}
	if c := r.header.Get("Cache-Control"); c != "public, max-age=60" {
		t.Errorf("Cache-Control %q", c)
	}
	e.wdo("GET", "/widget/v1/sites/"+e.site, "", nil, "Origin", "https://evil.test").fails(t, 403, "origin_not_allowed", "")
	e.wdo("GET", "/widget/v1/sites/site_nope", "", nil).fails(t, 404, "resource_missing", "id")
}
