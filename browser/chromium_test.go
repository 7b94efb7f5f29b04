package browser_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"chatsvc/testenv"
)

// chromium is the one headless Chromium the package's browser tests share:
// starting it takes seconds, a new tab in a browser context of its own takes
// milliseconds. The first test that needs it starts it; TestMain stops it.
var chromium struct {
	once sync.Once
	tab  context.Context // the browser's first tab; new tabs are made from it
	stop func()
	err  error
}

// browserTab opens a tab of the shared Chromium whose actions must all end
// within timeout. The tab has a browser context of its own (cookies, storage,
// cache), as a fresh browser would; it closes when the test ends. A machine
// without Chromium skips the test, saying how to get it; in CI (CI set) the
// browser must be there.
func browserTab(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	testenv.Require(t, testenv.Chromium)
	chromium.once.Do(startChromium)
	if chromium.err != nil {
		t.Fatalf("starting Chromium: %v", chromium.err)
	}
	ctx, cancel := chromedp.NewContext(chromium.tab, chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	return ctx
}

// startChromium starts the shared browser with the browser tests' flags.
func startChromium() {
	dir, err := os.MkdirTemp("", "chatsvc-chromium-")
	if err != nil {
		chromium.err = err
		return
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(testenv.Chromium.Path),
		chromedp.UserDataDir(dir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1024, 768),
		// What a browser does for its user beside the page, which a test
		// never sees: extensions, crash reports, phishing checks, hints
		// fetched for pages, the offer to translate a page (a language
		// detection at every load), the system's keyring; and the spare
		// renderer, a process started ahead of the next navigation to a new
		// site, which these tests mostly never use (each tab has a browser
		// context of its own, and a renderer serves one context only):
		// without it the tests start half as many renderers, and the
		// package takes a sixth less CPU.
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("disable-hang-monitor", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("disable-features", "PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,"+
			"Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,SpareRendererForSitePerProcess"),
	)
	tab, cancel := chromedp.NewContext(actx)
	chromium.tab = tab
	chromium.stop = func() { cancel(); cancelAlloc(); os.RemoveAll(dir) }
	chromium.err = chromedp.Do(tab) // starts the browser
}

// fullScreenshot is a PNG of the whole page, as chromedp.FullScreenshot(100)
// takes it, encoded for speed rather than size.
func fullScreenshot() chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		yes := true
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, CaptureBeyondViewport: &yes, FromSurface: &yes, OptimizeForSpeed: &yes})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}
}

// stopChromium stops the shared browser, if a test started it.
func stopChromium() {
	if chromium.stop != nil {
		chromium.stop()
	}
}
