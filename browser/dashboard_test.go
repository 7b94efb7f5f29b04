package browser_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/crawler"
	"chatsvc/knowledge"
	"chatsvc/testenv"
	"chatsvc/testenv/apienv"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
	"chatsvc/webhooks"
)

// TestBrowserDashboard drives the dashboard and the widget side by side in
// headless Chromium: a visitor asks for a person in the widget, the member
// signs in, sees the waiting conversation arrive live, replies (the reply
// shows in the widget), opens a ticket and closes the conversation, solves
// the ticket, adds a text source and sees it become ready, and creates a
// webhook endpoint and presses its test button. Every page it visits is
// saved to $ARTIFACTS_DIR (looks).
func TestBrowserDashboard(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Header.Get("Service-Signature"), "t=") {
			hits.Add(1)
		}
	}))
	defer recv.Close()
	e := newBrowserEnv(t, lightest(), func(o *app.Options, idx *knowledge.Index) {
		o.Webhooks = app.WebhookOptions{AllowHTTP: true, AllowPrivate: true,
			Sender: webhooks.NewSender(webhooks.SenderOptions{AllowPrivate: true, Timeout: 5 * time.Second})}
		o.Knowledge = &app.Knowledge{Index: idx, Crawler: crawler.Options{MaxPages: 5, MaxDepth: 1,
			Timeout: 5 * time.Second, MaxPageBytes: 1 << 20}}
	})
	e.start(append(e.svc.KnowledgeWorkers(), e.svc.AssistantWorker())...)
	widget, dash := e.widget, e.dash

	// Sign in: /app/ sends an anonymous user to the sign-in page.
	e.run(dash, "opening the dashboard", chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.ID("email")))
	looks(t, dash, "dashboard-sign-in")
	e.signIn()

	// A visitor asks for a person in the widget (test mode, like the dashboard's default).
	e.run(widget, "opening the widget", chromedp.WaitVisible(chromedp.CSS(".csw-launch")), chromedp.Click(chromedp.CSS(".csw-launch")))
	e.askForPerson("Where is my parcel?")

	// The waiting conversation appears in the open inbox without a reload, with a title badge.
	e.poll(dash, "waiting conversation in the inbox", `document.querySelector("#inbox li.status-waiting a") !== null`)
	e.poll(dash, "unread count in the title", `/^\(\d+\) /.test(document.title)`)
	looks(t, dash, "dashboard-inbox")
	labelled(t, dash, "the inbox")

	e.run(dash, "opening the conversation",
		clickNow("#inbox li.status-waiting a"),
		chromedp.WaitVisible(chromedp.ID("reply")),
		chromedp.SendKeys(chromedp.ID("reply"), "Hello, this is Agent Smith. Your parcel left today."),
		chromedp.Submit(chromedp.ID("reply")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	e.poll(dash, "reply in the transcript", `[...document.querySelectorAll("#transcript .author-agent")].some(n => n.textContent.includes("parcel left today"))`)
	e.poll(dash, "status handed off", `document.querySelector("#conv-status").textContent.includes("handed off")`)
	looks(t, dash, "dashboard-conversation")
	e.poll(widget, "the reply in the widget", `[...document.querySelectorAll(".csw-agent")].some(n => n.textContent.includes("parcel left today"))`)
	labelled(t, dash, "the conversation page")

	// The visitor answers; the open conversation shows it without a reload.
	e.run(widget, "answering in the widget",
		chromedp.SendKeys(chromedp.ID("csw-input"), "Thanks, that was quick!"),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
	)
	e.poll(dash, "the visitor's answer in the transcript", `[...document.querySelectorAll("#transcript .author-contact")].some(n => n.textContent.includes("that was quick"))`)

	// A ticket from the conversation, then close the conversation.
	convURL, err := chromedp.Run(dash, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	e.run(dash, "creating a ticket",
		chromedp.SendKeys(chromedp.ID("t-subject"), "Parcel follow-up"),
		chromedp.SendKeys(chromedp.ID("t-email"), "visitor@example.com"),
		chromedp.Submit(chromedp.ID("t-subject")),
		chromedp.WaitVisible(chromedp.ID("ticket-status")),
	)
	e.loaded(dash, "status") // the desk's form led out of it with a page load
	e.run(dash, "solving the ticket",
		chromedp.SetValue(chromedp.ID("status"), "solved"),
		chromedp.Submit(chromedp.ID("status")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	e.poll(dash, "ticket solved", `document.querySelector("#ticket-status").textContent === "solved"`)
	looks(t, dash, "dashboard-ticket")
	e.run(dash, "opening the ticket's contact",
		chromedp.Click(chromedp.CSS(`main a[href^="/app/contacts/"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action$="/erase"]`)),
	)
	looks(t, dash, "dashboard-contact")
	e.run(dash, "listing contacts", chromedp.Navigate(e.srv.URL+"/app/contacts"), chromedp.WaitVisible(chromedp.ID("q")))
	looks(t, dash, "dashboard-contacts")
	e.run(dash, "listing tickets", chromedp.Navigate(e.srv.URL+"/app/tickets"), chromedp.WaitVisible(chromedp.ID("f-status")))
	looks(t, dash, "dashboard-tickets")
	e.run(dash, "opening the settings", chromedp.Navigate(e.srv.URL+"/app/settings"), chromedp.WaitVisible(chromedp.CSS("form.site-settings")))
	looks(t, dash, "dashboard-settings")
	e.run(dash, "closing the conversation",
		chromedp.Navigate(convURL),
		chromedp.WaitVisible(chromedp.ID("close")),
		chromedp.Click(chromedp.ID("close")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	e.poll(dash, "conversation closed", `document.querySelector("#conv-status").textContent.includes("closed")`)

	// Readable on a phone: nothing wider than the screen. The rest runs phone-sized.
	e.run(dash, "a phone-sized screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(convURL), chromedp.WaitVisible(chromedp.ID("transcript")))
	e.poll(dash, "no sideways scrolling on a phone", `document.documentElement.scrollWidth <= window.innerWidth`)

	// A text source becomes ready.
	e.run(dash, "adding a text source",
		chromedp.Navigate(e.srv.URL+"/app/knowledge"),
		chromedp.WaitVisible(chromedp.ID("add-source")),
		chromedp.SetValue(chromedp.ID("k-type"), "text"),
		chromedp.SendKeys(chromedp.ID("k-name"), "Delivery FAQ"),
		chromedp.SendKeys(chromedp.ID("k-content"), "Parcels are delivered within three working days."),
		chromedp.Submit(chromedp.ID("k-name")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	labelled(t, dash, "the knowledge page")
	tick := time.NewTicker(200 * time.Millisecond) // the knowledge worker syncs it: reload now and then
	defer tick.Stop()
	testenv.Until(t, tick.C, "the text source ready", func() bool {
		e.run(dash, "reloading the sources", chromedp.Navigate(e.srv.URL+"/app/knowledge"))
		status, err := chromedp.Run(dash, chromedp.Text(chromedp.CSS("#sources tbody td.status")))
		return err == nil && strings.HasPrefix(status, "ready")
	})

	// The assistant answers from the text source, which has no address: its
	// title is plain text, not an empty link.
	e.run(dash, "asking the assistant",
		chromedp.SendKeys(chromedp.ID("question"), "When are parcels delivered?"),
		chromedp.Submit(chromedp.ID("question")),
		chromedp.WaitVisible(chromedp.CSS(".answer .sources td")),
	)
	e.poll(dash, "the text source named without a link, with its match", `document.querySelector(".answer .sources td").textContent === "Delivery FAQ" && document.querySelector(".answer .sources a") === null && /^0\.\d\d|1\.00$/.test(document.querySelector(".answer .sources .score").textContent)`)
	looks(t, dash, "dashboard-knowledge")

	// A webhook endpoint: the secret is shown once; the test button delivers.
	e.run(dash, "creating a webhook endpoint",
		chromedp.Navigate(e.srv.URL+"/app/webhooks"),
		chromedp.WaitVisible(chromedp.ID("add-endpoint")),
		chromedp.SendKeys(chromedp.ID("w-url"), recv.URL+"/hook"),
		chromedp.Submit(chromedp.ID("w-url")),
		chromedp.WaitVisible(chromedp.ID("secret")),
	)
	// Read in one step in the page: the live region that holds it may be
	// replaced between finding the node and reading it.
	secret, err := chromedp.Run(dash, chromedp.Evaluate[string](`document.getElementById("secret").textContent.trim()`))
	if err != nil {
		t.Fatal(err)
	}
	labelled(t, dash, "the webhooks page")
	looks(t, dash, "dashboard-webhooks")
	e.run(dash, "opening the endpoint", chromedp.WaitVisible(chromedp.CSS("#endpoints a")), clickNow("#endpoints a"))
	e.loaded(dash, "send-test")
	e.run(dash, "testing the endpoint", clickNow("#send-test"))
	e.loaded(dash, "test-result")
	result, err := chromedp.Run(dash, chromedp.Evaluate[string](`document.getElementById("test-result").textContent.trim()`))
	if err != nil {
		t.Fatal(err)
	}
	looks(t, dash, "dashboard-webhook")
	e.poll(dash, "no sideways scrolling on the endpoint's page", `document.documentElement.scrollWidth <= window.innerWidth`)
	e.poll(dash, "no badge while nothing waits", `document.getElementById("badge").offsetParent === null`)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Errorf("secret shown: %q", secret)
	}
	if !strings.Contains(result, "delivered") || strings.Contains(result, "not delivered") || hits.Load() != 1 {
		t.Errorf("test result %q, %d signed requests received", result, hits.Load())
	}
}

// browserEnv is what the dashboard's browser tests drive: the service over
// real HTTP on a database that replays every write batch, with a site and a
// member, and headless Chromium with two tabs, the site's widget on the
// demo page and the dashboard (not signed in). It all stops when the test
// ends, the browser first.
type browserEnv struct {
	t      *testing.T
	svc    *app.Service
	search *apienv.SearchIndex // the desk-search-index worker, always running
	srv    *httptest.Server
	site   string
	widget context.Context
	dash   context.Context
}

// newBrowserEnv starts a browserEnv, its tabs in browser b, whose
// assistant answers from an empty search index; opts may change the
// service's options, idx being that index.
func newBrowserEnv(t *testing.T, b *chromium, opts func(o *app.Options, idx *knowledge.Index)) *browserEnv {
	t.Helper()
	ctx := context.Background()
	db := testenv.OpenDB(t, "")
	idx, err := knowledge.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	o := app.Options{Now: testenv.NewClock(testenv.T0, time.Millisecond).Now,
		Assistant: assistant.New(idx, assistant.Extractive{}), ReplyWait: 2 * time.Second, PasswordCost: bcrypt.MinCost}
	if opts != nil {
		opts(&o, idx)
	}
	e := &browserEnv{t: t, svc: app.New(db, o)}
	e.search = apienv.RunSearchIndex(t, e.svc, db)
	e.srv = httptest.NewServer(web.Handler(e.svc))
	t.Cleanup(e.srv.Close)
	site, err := e.svc.CreateSite(ctx, "Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	e.site = site.ID
	if _, err := e.svc.CreateMember(ctx, "agent@example.com", "Agent Smith", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	e.widget = tabOf(t, b, 90*time.Second)
	e.run(e.widget, "opening the demo page", chromedp.Navigate(e.srv.URL+"/demo?site="+e.site)) // starts the browser
	dash, cancel := chromedp.NewContext(e.widget)                                               // a second tab
	t.Cleanup(cancel)
	e.dash = dash
	return e
}

// start runs the workers until the test ends.
func (e *browserEnv) start(workers ...app.Worker) {
	ctx, stop := context.WithCancel(context.Background())
	var running sync.WaitGroup
	for _, w := range workers {
		running.Go(func() { w.Run(ctx) })
	}
	e.t.Cleanup(func() { stop(); running.Wait() })
}

// signIn signs the dashboard's tab in as the member.
func (e *browserEnv) signIn() {
	e.t.Helper()
	signIn(e.t, e.dash, e.srv.URL, "agent@example.com", webenv.DashPassword)
}

// signIn signs tab c in to the dashboard served at base.
func signIn(t *testing.T, c context.Context, base, email, password string) {
	t.Helper()
	err := chromedp.Do(c,
		chromedp.Navigate(base+"/app/sign-in"),
		chromedp.WaitVisible(chromedp.ID("email")),
		chromedp.SendKeys(chromedp.ID("email"), email),
		chromedp.SendKeys(chromedp.ID("password"), password),
		chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.ID("mode")), // in every signed-in page's header
	)
	if err != nil {
		t.Fatalf("signing in as %s: %v", email, err)
	}
}

// askForPerson writes question in the open widget and asks for a person.
func (e *browserEnv) askForPerson(question string) {
	e.t.Helper()
	e.run(e.widget, "asking for a person in the widget",
		chromedp.WaitVisible(chromedp.ID("csw-input")),
		chromedp.SendKeys(chromedp.ID("csw-input"), question),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS(".csw-human")),
		chromedp.Click(chromedp.CSS(".csw-human")),
	)
	e.poll(e.widget, "the widget says the team will join", `document.querySelector(".csw-status").textContent.includes("person from the team")`)
}

// run does the actions in tab c, failing the test with what it was doing.
func (e *browserEnv) run(c context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	e.t.Helper()
	if err := chromedp.Do(c, actions...); err != nil {
		e.t.Fatalf("%s: %v", what, err)
	}
}

// poll evaluates js in tab c until it is true. It is evaluated again and
// again, so a page navigating meanwhile (after a form's redirect) only
// fails one evaluation.
func (e *browserEnv) poll(c context.Context, what, js string) {
	e.t.Helper()
	poll(e.t, c, what, js)
}

// poll evaluates js in tab c until it is true.
func poll(t *testing.T, c context.Context, what, js string) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond) // the browser sends no signal: look at it now and then
	defer tick.Stop()
	testenv.Until(t, tick.C, what, func() bool {
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](js))
		return err == nil && ok
	})
}

// loaded waits until tab c has loaded a page with the element of that id.
// After a click or a script navigates, the browser driver's node lookups
// can otherwise reach into the page being left, and fail.
func (e *browserEnv) loaded(c context.Context, id string) {
	e.t.Helper()
	waitLoaded(e.t, c, id)
}

// waitLoaded waits until tab c has loaded a page with the element of that id.
func waitLoaded(t *testing.T, c context.Context, id string) {
	t.Helper()
	poll(t, c, "a page with #"+id, `document.readyState === "complete" && document.getElementById("`+id+`") !== null`)
}

// clickNow clicks what sel names in one step in the page, so that a live
// region the dashboard replaces meanwhile (it reloads them when its stream
// starts) cannot take the element away between finding and clicking it.
func clickNow(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`document.querySelector(` + jsString(sel) + `).click()`)
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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

// screenshot saves the page as name in $ARTIFACTS_DIR.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, fullScreenshot())
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
