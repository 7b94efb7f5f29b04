package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/crawler"
	"chatsvc/search"
	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/web"
	"chatsvc/webhooks"
)

// TestBrowserDashboard drives the dashboard and the widget side by side in
// headless Chromium: a visitor asks for a person in the widget, the member
// signs in, sees the waiting conversation arrive live, replies (the reply
// shows in the widget), opens a ticket and closes the conversation, solves
// the ticket, adds a text source and sees it become ready, and creates a
// webhook endpoint and presses its test button. Every page it visits is
// saved to $ARTIFACTS_DIR in light and dark mode, phone and desktop sized.
func TestBrowserDashboard(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db.ReplayEveryBatch() // every write runs twice, as when its batch is replayed
	idx, err := search.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Header.Get("Service-Signature"), "t=") {
			hits.Add(1)
		}
	}))
	defer recv.Close()
	clk := testenv.NewClock(testenv.T0, time.Millisecond)
	svc := app.New(db, app.Options{Now: clk.Now, Assistant: assistant.New(idx, assistant.Extractive{}),
		ReplyWait: 2 * time.Second, Webhooks: app.WebhookOptions{AllowHTTP: true, AllowPrivate: true,
			Sender: webhooks.NewSender(webhooks.SenderOptions{AllowPrivate: true, Timeout: 5 * time.Second})},
		Knowledge: &app.Knowledge{Index: idx, Crawler: crawler.Options{MaxPages: 5, MaxDepth: 1,
			Timeout: 5 * time.Second, MaxPageBytes: 1 << 20}}})
	srv := httptest.NewServer(web.Handler(svc))
	wctx, stopWorkers := context.WithCancel(ctx)
	var running []chan struct{}
	for _, w := range append(svc.KnowledgeWorkers(), svc.AssistantWorker()) {
		done := make(chan struct{})
		running = append(running, done)
		go func() { defer close(done); w.Run(wctx) }()
	}
	defer func() {
		stopWorkers()
		for _, d := range running {
			<-d
		}
		srv.Close()
		idx.Close()
		db.Close()
	}()
	site, err := svc.CreateSite(ctx, "Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateMember(ctx, "agent@example.com", "Agent Smith", dashPassword); err != nil {
		t.Fatal(err)
	}

	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, browserOptions(t)...)
	defer cancelAlloc()
	widget, cancel := chromedp.NewContext(actx)
	defer cancel()
	widget, cancelTimeout := context.WithTimeout(widget, 90*time.Second)
	defer cancelTimeout()
	if err := chromedp.Do(widget, chromedp.Navigate(srv.URL+"/demo?site="+site.ID)); err != nil { // starts the browser
		t.Fatal(err)
	}
	dash, cancelDash := chromedp.NewContext(widget) // a second tab
	defer cancelDash()
	poll := func(c context.Context, what, js string) {
		t.Helper()
		// Evaluated again until true: a page navigating meanwhile (after a
		// form's redirect) only fails one evaluation.
		deadline := time.Now().Add(10 * time.Second)
		for {
			ok, err := chromedp.Run(c, chromedp.Evaluate[bool](js))
			if err == nil && ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not true within 10s (%v)", what, err)
			}
			time.Sleep(50 * time.Millisecond) // polling the browser, not a schedule
		}
	}
	run := func(c context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(c, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	// Sign in: /app/ sends an anonymous user to the sign-in page.
	run(dash, "signing in",
		chromedp.Navigate(srv.URL+"/app/"),
		chromedp.WaitVisible(chromedp.ID("email")),
	)
	looks(t, dash, "dashboard-sign-in")
	run(dash, "signing in",
		chromedp.SendKeys(chromedp.ID("email"), "agent@example.com"),
		chromedp.SendKeys(chromedp.ID("password"), dashPassword),
		chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.ID("inbox")),
	)

	// A visitor asks for a person in the widget (test mode, like the dashboard's default).
	run(widget, "asking for a person in the widget",
		chromedp.WaitVisible(chromedp.CSS(".csw-launch")),
		chromedp.Click(chromedp.CSS(".csw-launch")),
		chromedp.WaitVisible(chromedp.ID("csw-input")),
		chromedp.SendKeys(chromedp.ID("csw-input"), "Where is my parcel?"),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS(".csw-human")),
		chromedp.Click(chromedp.CSS(".csw-human")),
	)
	poll(widget, "widget status", `document.querySelector(".csw-status").textContent.includes("person from the team")`)

	// The waiting conversation appears in the open inbox without a reload, with a title badge.
	poll(dash, "waiting conversation in the inbox", `document.querySelector("#inbox li.status-waiting a") !== null`)
	poll(dash, "unread count in the title", `/^\(\d+\) /.test(document.title)`)
	looks(t, dash, "dashboard-inbox")
	labelled(t, dash, "the inbox")

	run(dash, "opening the conversation",
		chromedp.Click(chromedp.CSS("#inbox li.status-waiting a")),
		chromedp.WaitVisible(chromedp.ID("reply")),
		chromedp.SendKeys(chromedp.ID("reply"), "Hello, this is Agent Smith. Your parcel left today."),
		chromedp.Submit(chromedp.ID("reply")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	poll(dash, "reply in the transcript", `[...document.querySelectorAll("#transcript .author-agent")].some(n => n.textContent.includes("parcel left today"))`)
	poll(dash, "status handed off", `document.querySelector("#conv-status").textContent.includes("handed off")`)
	looks(t, dash, "dashboard-conversation")
	poll(widget, "the reply in the widget", `[...document.querySelectorAll(".csw-agent")].some(n => n.textContent.includes("parcel left today"))`)
	labelled(t, dash, "the conversation page")

	// The visitor answers; the open conversation shows it without a reload.
	run(widget, "answering in the widget",
		chromedp.SendKeys(chromedp.ID("csw-input"), "Thanks, that was quick!"),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
	)
	poll(dash, "the visitor's answer in the transcript", `[...document.querySelectorAll("#transcript .author-contact")].some(n => n.textContent.includes("that was quick"))`)

	// A ticket from the conversation, then close the conversation.
	convURL, err := chromedp.Run(dash, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	run(dash, "creating a ticket",
		chromedp.SendKeys(chromedp.ID("t-subject"), "Parcel follow-up"),
		chromedp.SendKeys(chromedp.ID("t-email"), "visitor@example.com"),
		chromedp.Submit(chromedp.ID("t-subject")),
		chromedp.WaitVisible(chromedp.ID("ticket-status")),
	)
	run(dash, "solving the ticket",
		chromedp.SetValue(chromedp.ID("status"), "solved"),
		chromedp.Submit(chromedp.ID("status")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	poll(dash, "ticket solved", `document.querySelector("#ticket-status").textContent === "solved"`)
	looks(t, dash, "dashboard-ticket")
	run(dash, "opening the ticket's contact",
		chromedp.Click(chromedp.CSS(`main a[href^="/app/contacts/"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action$="/erase"]`)),
	)
	looks(t, dash, "dashboard-contact")
	run(dash, "listing contacts", chromedp.Navigate(srv.URL+"/app/contacts"), chromedp.WaitVisible(chromedp.ID("q")))
	looks(t, dash, "dashboard-contacts")
	run(dash, "listing tickets", chromedp.Navigate(srv.URL+"/app/tickets"), chromedp.WaitVisible(chromedp.ID("f-status")))
	looks(t, dash, "dashboard-tickets")
	run(dash, "opening the settings", chromedp.Navigate(srv.URL+"/app/settings"), chromedp.WaitVisible(chromedp.CSS("form.site-settings")))
	looks(t, dash, "dashboard-settings")
	run(dash, "closing the conversation",
		chromedp.Navigate(convURL),
		chromedp.WaitVisible(chromedp.ID("close")),
		chromedp.Click(chromedp.ID("close")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	poll(dash, "conversation closed", `document.querySelector("#conv-status").textContent.includes("closed")`)

	// Readable on a phone: nothing wider than the screen. The rest runs phone-sized.
	run(dash, "a phone-sized screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(convURL), chromedp.WaitVisible(chromedp.ID("transcript")))
	poll(dash, "no sideways scrolling on a phone", `document.documentElement.scrollWidth <= window.innerWidth`)

	// A text source becomes ready.
	run(dash, "adding a text source",
		chromedp.Navigate(srv.URL+"/app/knowledge"),
		chromedp.WaitVisible(chromedp.ID("add-source")),
		chromedp.SetValue(chromedp.ID("k-type"), "text"),
		chromedp.SendKeys(chromedp.ID("k-name"), "Delivery FAQ"),
		chromedp.SendKeys(chromedp.ID("k-content"), "Parcels are delivered within three working days."),
		chromedp.Submit(chromedp.ID("k-name")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	labelled(t, dash, "the knowledge page")
	deadline := time.Now().Add(10 * time.Second)
	for {
		run(dash, "reloading the sources", chromedp.Navigate(srv.URL+"/app/knowledge"))
		status, err := chromedp.Run(dash, chromedp.Text(chromedp.CSS("#sources tbody td.status")))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(status, "ready") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the text source is %q, not ready", status)
		}
		time.Sleep(200 * time.Millisecond) // polling a real worker, not a schedule
	}

	// The assistant answers from the text source, which has no address: its
	// title is plain text, not an empty link.
	run(dash, "asking the assistant",
		chromedp.SendKeys(chromedp.ID("question"), "When are parcels delivered?"),
		chromedp.Submit(chromedp.ID("question")),
		chromedp.WaitVisible(chromedp.CSS(".answer .sources td")),
	)
	poll(dash, "the text source named without a link, with its match", `document.querySelector(".answer .sources td").textContent === "Delivery FAQ" && document.querySelector(".answer .sources a") === null && /^0\.\d\d|1\.00$/.test(document.querySelector(".answer .sources .score").textContent)`)
	looks(t, dash, "dashboard-knowledge")

	// A webhook endpoint: the secret is shown once; the test button delivers.
	run(dash, "creating a webhook endpoint",
		chromedp.Navigate(srv.URL+"/app/webhooks"),
		chromedp.WaitVisible(chromedp.ID("add-endpoint")),
		chromedp.SendKeys(chromedp.ID("w-url"), recv.URL+"/hook"),
		chromedp.Submit(chromedp.ID("w-url")),
		chromedp.WaitVisible(chromedp.ID("secret")),
	)
	secret, err := chromedp.Run(dash, chromedp.Text(chromedp.ID("secret")))
	if err != nil {
		t.Fatal(err)
	}
	labelled(t, dash, "the webhooks page")
	looks(t, dash, "dashboard-webhooks")
	run(dash, "testing the endpoint",
		chromedp.Click(chromedp.CSS("#endpoints a")),
		chromedp.WaitVisible(chromedp.ID("send-test")),
		chromedp.Click(chromedp.ID("send-test")),
		chromedp.WaitVisible(chromedp.ID("test-result")),
	)
	result, err := chromedp.Run(dash, chromedp.Text(chromedp.ID("test-result")))
	if err != nil {
		t.Fatal(err)
	}
	looks(t, dash, "dashboard-webhook")
	poll(dash, "no sideways scrolling on the endpoint's page", `document.documentElement.scrollWidth <= window.innerWidth`)
	poll(dash, "no badge while nothing waits", `document.getElementById("badge").offsetParent === null`)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Errorf("secret shown: %q", secret)
	}
	if !strings.Contains(result, "delivered") || strings.Contains(result, "not delivered") || hits.Load() != 1 {
		t.Errorf("test result %q, %d signed requests received", result, hits.Load())
	}
}

// labelled checks that every form control of the page has a label, which
// screen readers announce.
func labelled(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("input:not([type=hidden]), select, textarea")].filter(el => !el.labels || el.labels.length === 0).length`))
	if err != nil || n != 0 {
		t.Errorf("%s: %d form controls without a label (%v)", page, n, err)
	}
}

// browserTab starts headless Chromium with one tab whose actions must all
// end within timeout; the browser stops when the test ends.
func browserTab(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), browserOptions(t)...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return ctx
}

// browserOptions are the headless Chromium flags of the browser tests. A
// machine without Chromium skips the test, saying how to get it; in CI
// (CI set) the browser must be there.
func browserOptions(t *testing.T) []chromedp.ExecAllocatorOption {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("headless Chromium is missing at %s, and CI must run the browser tests (.ci/run installs it)", chromiumPath)
		}
		t.Skipf("no Chromium at %s: install Debian's chromium package (apt-get install chromium) to run the browser tests", chromiumPath)
	}
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.UserDataDir(t.TempDir()),
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
	}
}

// screenshot saves the page as name in $ARTIFACTS_DIR.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("ARTIFACTS_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "chatsvc-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", file)
}
