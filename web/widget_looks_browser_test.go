package web_test

import (
	"context"
	"encoding/json"
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
	e := newWidgetEnv(t, widgetOpts{noWorker: true})
	e.test("PATCH", "/v1/sites/"+e.site, map[string]any{"widget": map[string]any{"color": "#0F766E"}}).ok(t, 200)
	ctx := browserTab(t, 30*time.Second)
	if err := watchLauncher(ctx); err != nil {
		t.Fatal(err)
	}
	for _, visit := range []string{"first page", "next page"} {
		err := chromedp.Do(ctx,
			chromedp.Navigate(e.srv.URL+"/demo?site="+e.site),
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
	if n := len(e.all(e.testKey, "/v1/conversations", 10)); n != 0 {
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
	e := newWidgetEnv(t, widgetOpts{})
	e.test("PATCH", "/v1/sites/"+e.site, map[string]any{"widget": map[string]any{"color": "#FFD600"}}).ok(t, 200)
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
