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

// chromium is a build of Chromium that the package's browser tests share
// (the whole browser or its headless shell): starting it takes seconds, a new tab in a browser context of its own
// takes milliseconds. The first test that needs it starts it; TestMain
// stops it.
type chromium struct {
	path string          // its executable
	once sync.Once       // starts it
	tab  context.Context // its first tab; new tabs are made from it
	stop func()
	err  error
}

var (
	// headlessShell is Chromium's headless shell (Debian's
	// chromium-headless-shell): the same engine without a browser's user
	// interface, made to be driven by programs. It starts in a third of
	// Chromium's time, and the tests that drive it take half the CPU
	// (measured in docs/architecture.md).
	headlessShell = &chromium{path: "/usr/bin/chromium-headless-shell"}
	// fullChromium is the whole browser, for what the shell lacks: it
	// shows a service worker's notifications.
	fullChromium = &chromium{path: testenv.Chromium.Path}
)

// lightest is the browser most tests drive: the headless shell where it
// is installed, Chromium itself elsewhere, which runs every test too.
func lightest() *chromium {
	if _, err := os.Stat(headlessShell.path); err == nil {
		return headlessShell
	}
	return fullChromium
}

// browserTab opens a tab of the lightest browser (lightest) whose actions
// must all end within timeout; see tabOf.
func browserTab(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	return tabOf(t, lightest(), timeout)
}

// tabOf opens a tab of b whose actions must all end within timeout. The
// tab has a browser context of its own (cookies, storage, cache), as a
// fresh browser would; it closes when the test ends. A machine without
// Chromium skips the test, saying how to get it; in CI (CI set) the
// browser must be there.
func tabOf(t *testing.T, b *chromium, timeout time.Duration) context.Context {
	t.Helper()
	testenv.Require(t, testenv.Chromium)
	b.once.Do(b.start)
	if b.err != nil {
		t.Fatalf("starting %s: %v", b.path, b.err)
	}
	ctx, cancel := chromedp.NewContext(b.tab, chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	return ctx
}

// start starts the browser with the browser tests' flags.
func (b *chromium) start() {
	dir, err := os.MkdirTemp("", "chatsvc-chromium-")
	if err != nil {
		b.err = err
		return
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(b.path),
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
	b.tab = tab
	b.stop = func() { cancel(); cancelAlloc(); os.RemoveAll(dir) }
	b.err = chromedp.Do(tab) // starts the browser
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

// stopBrowsers stops the shared browsers that tests started.
func stopBrowsers() {
	for _, b := range []*chromium{headlessShell, fullChromium} {
		if b.stop != nil {
			b.stop()
		}
	}
}
