package web_test

import (
	"bytes"
	"chatsvc/testenv/webenv"
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
	e := webenv.NewWidget(t, webenv.WidgetOptions{NoWorker: true})
	plain := e.WidgetDo("GET", "/widget.js", "", nil, "Accept-Encoding", "identity")
	if plain.Status != 200 || plain.Header.Get("Content-Encoding") != "" || !strings.Contains(string(plain.Raw), "/widget/v1") {
		t.Fatalf("plain widget.js: %d %v", plain.Status, plain.Header)
	}
	gz := e.WidgetDo("GET", "/widget.js", "", nil, "Accept-Encoding", "gzip, deflate, br")
	if gz.Status != 200 || gz.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(gz.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("gzip widget.js: %d %v", gz.Status, gz.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz.Raw))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, plain.Raw) {
		t.Fatalf("the gzip body is not the script (%v)", err)
	}
	// The budget: what a visitor's browser downloads before the launcher
	// shows. 12.5 KB holds the chat, files, emoji and the rating step.
	if len(gz.Raw) > 12_800 || len(gz.Raw)*2 > len(plain.Raw) {
		t.Errorf("compressed %d bytes of %d", len(gz.Raw), len(plain.Raw))
	}
	// What curl -I shows: the headers of the compressed answer, no body.
	if head := e.WidgetDo("HEAD", "/widget.js", "", nil, "Accept-Encoding", "gzip"); head.Status != 200 ||
		head.Header.Get("Content-Encoding") != "gzip" || head.Header.Get("Content-Length") != itoa(len(gz.Raw)) || len(head.Raw) != 0 {
		t.Errorf("HEAD: %d %v, %d bytes", head.Status, head.Header, len(head.Raw))
	}
	if q := e.WidgetDo("GET", "/widget.js", "", nil, "Accept-Encoding", "gzip;q=0, identity"); q.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip sent to a client that refused it with q=0")
	}

	// The demo page loads the versioned URL.
	demo := e.WidgetDo("GET", "/demo?site="+e.Site, "", nil)
	m := regexp.MustCompile(`src="(/widget\.js\?v=[0-9a-f]{12})"`).FindStringSubmatch(string(demo.Raw))
	if m == nil {
		t.Fatalf("no versioned script on the demo page: %s", demo.Raw)
	}
	for _, c := range []struct{ path, cache string }{
		{m[1], "public, max-age=31536000, immutable"},
		{"/widget.js", "public, max-age=300"},
		{"/widget.js?v=000000000000", "public, max-age=300"},
	} {
		r := e.WidgetDo("GET", c.path, "", nil, "Accept-Encoding", "gzip")
		if r.Status != 200 || r.Header.Get("Cache-Control") != c.cache || r.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: %d, Cache-Control %q, Content-Encoding %q", c.path, r.Status, r.Header.Get("Cache-Control"), r.Header.Get("Content-Encoding"))
		}
	}
	// A page reload asks again with the ETag and gets 304 without a body.
	again := e.WidgetDo("GET", "/widget.js", "", nil, "Accept-Encoding", "gzip", "If-None-Match", gz.Header.Get("ETag"))
	if again.Status != 304 || len(again.Raw) != 0 {
		t.Errorf("revalidation: %d, %d bytes", again.Status, len(again.Raw))
	}
}

// TestWidgetSiteLook: the look the launcher is painted with needs no
// visitor token, follows the site's settings and its
// domains, and may be cached a minute.
func TestWidgetSiteLook(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{NoWorker: true})
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"domains": []string{"example.com"},
		"widget": map[string]any{"color": "#FFD600", "position": "left", "locale": "de"}}).OK(t, 200)
	r := e.WidgetDo("GET", "/widget/v1/sites/"+e.Site, "", nil, "Origin", "https://shop.example.com")
	look := r.OK(t, 200)
	if look["color"] != "#FFD600" || look["position"] != "left" || look["locale"] != "de" || look["availability"] != "online" {
		t.Fatalf("look %v", look)
	}
	if c := r.Header.Get("Cache-Control"); c != "public, max-age=60" {
		t.Errorf("Cache-Control %q", c)
	}
	e.WidgetDo("GET", "/widget/v1/sites/"+e.Site, "", nil, "Origin", "https://evil.test").Fails(t, 403, "origin_not_allowed", "")
	e.WidgetDo("GET", "/widget/v1/sites/site_nope", "", nil).Fails(t, 404, "resource_missing", "id")
}
