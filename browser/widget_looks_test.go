package browser_test

import (
	"chatsvc/testenv/webenv"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// launcherWatch runs in every page before its own scripts: on each frame
// it notes the launcher's background colour while the launcher is shown,
// so a test sees every colour a visitor could have seen.
const launcherWatch = `window.__launcherColours = [];
(function watch() {
  var b = document.querySelector(".csw-launch");
  if (b && getComputedStyle(b).display !== "none") {
    var c = getComputedStyle(b).backgroundColor;
    if (__launcherColours[__launcherColours.length - 1] !== c) __launcherColours.push(c);
  }
  requestAnimationFrame(watch);
})();`

// watchLauncher installs launcherWatch in the tab's next pages.
func watchLauncher(ctx context.Context) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: launcherWatch})
		return err
	}))
}

// TestBrowserWidgetLauncherInSiteColour: the launcher is never shown in any
// colour but the site's, before any click: on a visitor's first page, from
// the server, and on the next, from the look the browser kept.
func TestBrowserWidgetLauncherInSiteColour(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{NoWorker: true})
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"color": "#0F766E"}}).OK(t, 200)
	ctx := browserTab(t, 30*time.Second)
	if err := watchLauncher(ctx); err != nil {
		t.Fatal(err)
	}
	for _, visit := range []string{"first page", "next page"} {
		err := chromedp.Do(ctx,
			chromedp.Navigate(e.Server.URL+"/demo?site="+e.Site),
			chromedp.WaitVisible(chromedp.CSS(".csw-launch")),
			chromedp.Sleep(200*time.Millisecond), // a few more frames
		)
		if err != nil {
			t.Fatalf("%s: %v", visit, err)
		}
		colours, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__launcherColours`))
		if err != nil {
			t.Fatal(err)
		}
		if len(colours) != 1 || colours[0] != "rgb(15, 118, 110)" {
			t.Fatalf("%s: the launcher was shown in %v, want only the site's rgb(15, 118, 110)", visit, colours)
		}
		if visit == "first page" {
			screenshot(t, ctx, "widget-launcher.png")
		}
	}
	if n := len(e.All(e.TestKey, "/v1/conversations", 10)); n != 0 {
		t.Errorf("painting the launcher opened %d conversations", n)
	}
}

// contrastJS measures, from the page's computed styles, the contrast ratio
// of each selector's text with the first opaque background behind it, the
// text's own alpha and its ancestors' opacity blended in. A missing
// element measures 0.
const contrastJS = `((selectors) => {
  const parse = s => { const p = s.match(/rgba?\(([^)]+)\)/)[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = c => { const v = c.slice(0, 3).map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const behind = n => { for (; n; n = n.parentElement) { const c = parse(getComputedStyle(n).backgroundColor); if (c[3] > 0) return c; } return [255, 255, 255, 1]; };
  const out = {};
  for (const sel of selectors) {
    const n = document.querySelector(sel);
    if (!n) { out[sel] = 0; continue; }
    const bg = behind(n);
    let fg = parse(getComputedStyle(n).color), a = fg[3];
    for (let p = n; p; p = p.parentElement) a *= +getComputedStyle(p).opacity;
    fg = fg.map((x, i) => x * a + bg[i] * (1 - a));
    out[sel] = Math.round(ratio(fg, bg) * 100) / 100;
  }
  return out;
})`

// TestBrowserWidgetYellowSiteReadable: with a yellow site colour, every
// text on it, the "Talk to a person" link and the timestamps reach 4.5:1,
// measured from the page's computed styles in light and dark mode.
func TestBrowserWidgetYellowSiteReadable(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"color": "#FFD600"}}).OK(t, 200)
	ctx := browserTab(t, 60*time.Second)
	err := chromedp.Do(ctx, append(askInDemo(e, "How long does a refund take?"),
		chromedp.WaitVisible(chromedp.CSS(".csw-bot .csw-time")),
		chromedp.WaitVisible(chromedp.CSS(".csw-contact .csw-time")))...)
	if err != nil {
		t.Fatalf("asking a question: %v", err)
	}
	selectors := []string{".csw-launch", ".csw-head h2", ".csw-x", ".csw-contact .csw-body", ".csw-contact .csw-time",
		".csw-form button[type=submit]", ".csw-human", ".csw-bot .csw-who", ".csw-bot .csw-body", ".csw-bot .csw-time"}
	for _, scheme := range []string{"light", "dark"} {
		if err := chromedp.Do(ctx, colorScheme(scheme)); err != nil {
			t.Fatal(err)
		}
		ratios, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](contrastJS+`(`+jsList(selectors)+`)`))
		if err != nil {
			t.Fatal(err)
		}
		for _, sel := range selectors {
			if ratios[sel] < 4.5 {
				t.Errorf("%s mode: %s reads at %.2f:1, want at least 4.5:1", scheme, sel, ratios[sel])
			}
		}
		screenshot(t, ctx, "widget-yellow-"+scheme+".png")
	}
}

// jsList writes strings as a JavaScript array literal.
func jsList(list []string) string {
	b, _ := json.Marshal(list)
	return string(b)
}

// refusingServer serves e's service, except that while refuse is set it
// answers a visitor's message with 503, as a server in maintenance would,
// holding such requests until release is called.
func refusingServer(t *testing.T, e *webenv.Env, refuse *atomic.Bool) (srv *httptest.Server, release func()) {
	t.Helper()
	next, hold, once := e.Server.Config.Handler, make(chan struct{}), sync.Once{}
	release = func() { once.Do(func() { close(hold) }) }
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refuse.Load() && r.Method == "POST" && r.URL.Path == "/widget/v1/messages" {
			<-hold
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error": {"type": "api_error", "message": "The service is down for maintenance."}}`))
			return
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { release(); srv.CloseClientConnections(); srv.Close() })
	return srv, release
}

// TestBrowserWidgetPendingAndRetry: the visitor's message shows at once,
// as sending; when the server refuses it, it stays, marked as not sent,
// with a button that sends it again once the server is back.
func TestBrowserWidgetPendingAndRetry(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	var refuse atomic.Bool
	refuse.Store(true)
	srv, release := refusingServer(t, e, &refuse)
	ctx := browserTab(t, 60*time.Second)
	const question = "Has my parcel left the warehouse?"

	err := chromedp.Do(ctx, append(askInDemo(&webenv.Env{Server: srv, Site: e.Site}, question),
		chromedp.WaitVisible(chromedp.CSS(".csw-contact.csw-pending")))...)
	if err != nil {
		t.Fatalf("the message did not show as sending: %v", err)
	}
	text := func(sel string) string { t.Helper(); return textOf(t, ctx, sel) }
	if s := text(".csw-pending"); !strings.Contains(s, question) || !strings.Contains(s, "Sending…") {
		t.Fatalf("pending bubble %q", s)
	}
	screenshot(t, ctx, "widget-pending.png")

	release() // the server now answers: 503
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(".csw-contact.csw-failed .csw-retry"))); err != nil {
		t.Fatalf("the refused message is not marked: %v", err)
	}
	if s := text(".csw-failed"); !strings.Contains(s, question) || !strings.Contains(s, "Not sent") {
		t.Fatalf("failed bubble %q", s)
	}
	screenshot(t, ctx, "widget-not-sent.png")

	// The server is back: Retry sends the same text, and the bubble becomes
	// the stored message, once.
	refuse.Store(false)
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(".csw-retry")),
		chromedp.WaitVisible(chromedp.CSS(".csw-contact[data-id]")),
		chromedp.WaitVisible(chromedp.CSS(".csw-bot")),
	)
	if err != nil {
		t.Fatalf("retrying: %v", err)
	}
	left, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".csw-contact").length + document.querySelectorAll(".csw-pending, .csw-failed").length`))
	if err != nil || left != 1 {
		t.Fatalf("after the retry: %d visitor bubbles and waiting marks, want the one message (%v)", left, err)
	}
	convs := e.All(e.TestKey, "/v1/conversations", 10)
	if len(convs) != 1 {
		t.Fatalf("conversations %v", convs)
	}
	msgs := e.Test("GET", "/v1/conversations/"+convs[0]+"/messages", nil).OK(t, 200)["data"].([]any)
	if first := msgs[0].(map[string]any); first["body"] != question {
		t.Fatalf("stored messages %v", msgs)
	}
}

// TestBrowserWidgetPhoneFullScreen: on a phone the open panel fills the
// screen and the launcher is out of the way; closing brings it back.
func TestBrowserWidgetPhoneFullScreen(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	ctx := browserTab(t, 60*time.Second)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, append(askInDemo(e, "How long does a refund take?"),
		chromedp.WaitVisible(chromedp.CSS(".csw-bot .csw-body")))...); err != nil {
		t.Fatalf("asking on a phone: %v", err)
	}
	const layout = `(() => {
	  const r = sel => { const n = document.querySelector(sel); if (!n || getComputedStyle(n).display === "none") return null;
	    const b = n.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
	  return {viewport: [0, 0, innerWidth, innerHeight], panel: r(".csw"), log: r(".csw-log"), launcher: r(".csw-launch")};
	})()`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]float64](layout))
	if err != nil {
		t.Fatal(err)
	}
	if p, v := got["panel"], got["viewport"]; len(p) != 4 || p[0] != 0 || p[1] != 0 || p[2] != v[2] || p[3] != v[3] {
		t.Errorf("the open panel covers %v of the %v screen, want all of it", p, v)
	}
	if l, log := got["launcher"], got["log"]; l != nil && l[0] < log[2] && log[0] < l[2] && l[1] < log[3] && log[1] < l[3] {
		t.Errorf("the launcher %v overlaps the transcript %v", l, log)
	}
	screenshot(t, ctx, "widget-phone-open.png")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".csw-x")), chromedp.WaitVisible(chromedp.CSS(".csw-launch"))); err != nil {
		t.Fatalf("closing brings the launcher back: %v", err)
	}
}

// TestBrowserWidgetUnreadBadge: the team's replies that arrive while the
// panel is closed, live or while the visitor was on another page, are
// counted on the launcher until the visitor opens it.
func TestBrowserWidgetUnreadBadge(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	ctx := browserTab(t, 60*time.Second)
	if err := chromedp.Do(ctx, append(askInDemo(e, "How long does a refund take?"),
		chromedp.WaitVisible(chromedp.CSS(".csw-bot .csw-body")),
		chromedp.Click(chromedp.CSS(".csw-x")))...); err != nil {
		t.Fatalf("asking, then closing the panel: %v", err)
	}
	conv := e.All(e.TestKey, "/v1/conversations", 1)[0]
	reply := func(text string) {
		t.Helper()
		e.Test("POST", "/v1/conversations/"+conv+"/messages", map[string]any{"body": text, "author_id": e.Member}).OK(t, 201)
	}
	badge := func(step, want string) {
		t.Helper()
		shown := `(() => { const b = document.querySelector(".csw-badge"); return b && !b.hidden ? b.textContent : ""; })()`
		err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](shown+` === "`+want+`"`, chromedp.WithPollingTimeout(5*time.Second)))
		if err != nil {
			got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](shown))
			t.Fatalf("%s: badge %q, want %q", step, got, want)
		}
	}
	badge("the assistant's answer was read", "")

	reply("Hello, Agent Smith here.")
	reply("Your refund left today.")
	badge("two live replies with the panel closed", "2")
	if label, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".csw-launch").getAttribute("aria-label")`)); err != nil ||
		!strings.Contains(label, "New messages: 2") {
		t.Errorf("launcher label %q (%v)", label, err)
	}
	screenshot(t, ctx, "widget-unread.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".csw-launch")), chromedp.WaitVisible(chromedp.CSS(".csw-agent"))); err != nil {
		t.Fatal(err)
	}
	badge("opened", "")

	// A reply while the visitor is on a page without the widget waits on
	// the launcher of the next page with it; what was read stays read.
	if err := chromedp.Do(ctx, chromedp.Navigate(e.Server.URL+"/healthz")); err != nil {
		t.Fatal(err)
	}
	reply("Anything else I can help with?")
	if err := chromedp.Do(ctx, chromedp.Navigate(e.Server.URL+"/demo?site="+e.Site), chromedp.WaitVisible(chromedp.CSS(".csw-launch"))); err != nil {
		t.Fatal(err)
	}
	badge("the next page", "1")
}
