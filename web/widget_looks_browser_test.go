package web_test

import (
	"context"
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
