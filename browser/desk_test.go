package browser_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"chatsvc/app"
	"chatsvc/knowledge"
	"chatsvc/push"
	"chatsvc/testenv"
)

// TestBrowserDesk drives the agent's desk end to end in headless Chromium,
// beside the site's real widget: the dashboard subscribes to notifications
// (a local push service stands in for the browser's) and the member saves
// a canned reply; a visitor leaves an e-mail address and asks for a
// person, and the push telling the team reaches the service worker; the
// member opens the conversation, inserts the canned reply by typing "/"
// (its variables filled, the widget shows the filled text) and sends it
// with Ctrl+Enter, adds a note the widget never shows, tags the
// conversation, assigns it from the inbox in one click, and finds it by a
// word of the visitor's message in the search box; the visitor writes
// again and the push of the assigned conversation reaches the member.
// Screenshots of each step go to $ARTIFACTS_DIR where they are kept
// (reviewScreenshot).
func TestBrowserDesk(t *testing.T) {
	t.Parallel()
	// The whole browser: the headless shell shows no notifications.
	e := newBrowserEnv(t, fullChromium, func(o *app.Options, _ *knowledge.Index) { o.Notify.AllowHTTP = true })
	pushes := newPushService(t)
	e.start(e.svc.AssistantWorker(), e.svc.NotifyWorker(),
		push.New(e.svc, push.Options{Subscriber: "ops@shop.example", AllowPrivate: true}).Worker())
	// The site asks for an e-mail address first: the canned reply fills it in.
	if _, err := e.svc.UpdateSite(context.Background(), e.site, app.SiteUpdate{
		Widget: app.Value(app.WidgetInput{RequireEmail: app.Value(true)})}); err != nil {
		t.Fatal(err)
	}
	widget, dash := e.widget, e.dash

	e.signIn()
	sw := e.subscribePush(pushes)
	e.run(dash, "saving a canned reply",
		chromedp.Navigate(e.srv.URL+"/app/canned-replies"),
		chromedp.WaitVisible(chromedp.ID("c-shortcut")),
		chromedp.SendKeys(chromedp.ID("c-shortcut"), "canada"),
		chromedp.SendKeys(chromedp.ID("c-title"), "Shipping to Canada"),
		chromedp.SendKeys(chromedp.ID("c-body"), "Hello{{contact.name}}, {{agent.name}} here: yes, we ship to Canada. Tracking goes to {{contact.email}}."),
		chromedp.Submit(chromedp.ID("c-shortcut")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	reviewScreenshot(t, dash, "desk-canned-replies.png")

	// The visitor gives an address, writes, and asks for a person.
	const question = "Do you ship to Canada? My parcel goes to Winnipeg."
	e.run(widget, "leaving an e-mail address in the widget",
		chromedp.Navigate(e.srv.URL+"/demo?site="+e.site), // the site's new settings
		chromedp.WaitVisible(chromedp.CSS(".csw-launch")),
		chromedp.Click(chromedp.CSS(".csw-launch")),
		chromedp.WaitVisible(chromedp.ID("csw-email")),
		chromedp.SendKeys(chromedp.ID("csw-email"), "ada@example.com"),
		chromedp.Click(chromedp.CSS(".csw-mail button[type=submit]")),
	)
	e.askForPerson(question)

	// Every member hears of a waiting conversation nobody is assigned; the
	// push names it by its subject, the question's first sentence.
	const subject = "Do you ship to Canada?"
	waiting, note := pushes.next(t)
	conv := note["conversation_id"]
	if note["title"] != "A visitor is waiting" || note["body"] != subject || !strings.HasSuffix(note["url"], "/app/conversations/"+conv+"?mode=test") {
		t.Fatalf("push when the visitor started waiting: %v", note)
	}
	if shown := e.showPush(sw, waiting); shown != "1 | A visitor is waiting | "+subject {
		t.Fatalf("notification shown: %q", shown)
	}

	// The inbox shows the work.
	row := `#inbox li[data-id="` + conv + `"]`
	e.run(dash, "opening the inbox", chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.ID("inbox")))
	e.poll(dash, "a waiting conversation that needs a reply", `document.querySelector('`+row+`.status-waiting.needs-reply .preview') !== null`)
	e.poll(dash, "its preview and wait", `document.querySelector('`+row+` .preview').textContent.length > 0 && document.querySelector('`+row+` .waited') !== null`)
	e.poll(dash, "nothing is mine yet", `document.getElementById("count-mine").textContent === "0"`)
	reviewScreenshot(t, dash, "desk-inbox.png")
	labelled(t, dash, "the inbox")

	// "/" offers the canned reply; inserting it fills the variables, and the
	// visitor reads the filled text.
	const answer = "Hello, Agent Smith here: yes, we ship to Canada. Tracking goes to ada@example.com."
	e.run(dash, "opening the conversation", clickNow(row+" a"))
	e.loaded(dash, "reply")
	e.run(dash, "typing a slash", chromedp.SendKeys(chromedp.ID("reply"), "/can"))
	e.poll(dash, "the canned reply offered", `!document.getElementById("canned").hidden && document.querySelector("#canned [role=option]:not([hidden])").dataset.shortcut === "canada"`)
	reviewScreenshot(t, dash, "desk-canned-menu.png")
	e.run(dash, "inserting it", chromedp.Click(chromedp.CSS(`#canned [role=option]:not([hidden])`)))
	e.poll(dash, "the variables filled", `document.getElementById("reply").value === "`+answer+`"`)
	e.run(dash, "sending with Ctrl+Enter", chromedp.Evaluate[chromedp.Void](`document.getElementById("reply").dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", ctrlKey: true, bubbles: true}))`))
	e.poll(dash, "the page after the form's redirect", `document.querySelector(".flash") !== null && document.readyState === "complete"`)
	e.poll(dash, "the reply in the transcript", `[...document.querySelectorAll("#transcript .author-agent .body")].some(n => n.textContent === "`+answer+`")`)
	e.poll(widget, "the filled reply in the widget", `[...document.querySelectorAll(".csw-agent .csw-body")].some(n => n.textContent === "`+answer+`")`)

	// A note for the team, and tags.
	const teamNote = "Customs forms pending for this parcel"
	e.run(dash, "adding a note",
		// Loaded anew: the page the script's submit led to can still be
		// settling, and its nodes be replaced under the browser driver.
		chromedp.Navigate(e.srv.URL+"/app/conversations/"+conv),
		chromedp.WaitVisible(chromedp.ID("note-body")),
		chromedp.SendKeys(chromedp.ID("note-body"), teamNote),
		chromedp.Submit(chromedp.ID("note-body")),
		chromedp.WaitVisible(chromedp.ID("notes")),
	)
	e.poll(dash, "the note shows", `document.getElementById("notes").textContent.includes("`+teamNote+`")`)
	e.run(dash, "tagging",
		chromedp.SetValue(chromedp.ID("tags"), "shipping, canada"),
		chromedp.Submit(chromedp.ID("tags")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	e.poll(dash, "the tags kept", `document.getElementById("tags").value === "shipping, canada"`)
	reviewScreenshot(t, dash, "desk-conversation.png")

	// One click in the inbox assigns the conversation to me.
	e.run(dash, "assigning to me in one click",
		chromedp.Navigate(e.srv.URL+"/app/"),
		chromedp.WaitVisible(chromedp.CSS(row+` button[value="me"]`)),
		clickNow(row+` button[value="me"]`),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	e.poll(dash, "mine counts it", `document.getElementById("count-mine").textContent === "1"`)
	e.poll(dash, "the assignee shows", `document.querySelector('`+row+` .assignee').textContent === "Agent Smith"`)
	e.run(dash, "the Mine view", clickNow(`#views a[href="/app/?view=mine"]`))
	e.poll(dash, "the Mine view shown", `location.search === "?view=mine" && document.readyState === "complete"`)
	e.poll(dash, "the Mine view lists it", `document.querySelector('`+row+` a') !== null`)
	reviewScreenshot(t, dash, "desk-inbox-mine.png")

	// Search finds it by a word of the visitor's message.
	e.search.Indexed(t)
	e.run(dash, "searching",
		chromedp.SendKeys(chromedp.ID("site-search"), "winnipeg\r"),
		chromedp.WaitVisible(chromedp.ID("results")),
	)
	e.poll(dash, "the conversation found", `document.querySelector("#results li.type-conversation .snippet").textContent.includes("Winnipeg")`)
	reviewScreenshot(t, dash, "desk-search.png")
	labelled(t, dash, "the search page")
	e.run(dash, "opening the result", clickNow("#results li.type-conversation a"))
	e.loaded(dash, "notes")
	e.poll(dash, "the hit is the conversation", `location.pathname === "/app/conversations/`+conv+`"`)
	// The page's script made the (hidden) overlay: its keys are listened to.
	e.poll(dash, "the desk's script ran", `document.getElementById("shortcuts") !== null`)
	e.run(dash, "the help overlay", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("?"))
	e.poll(dash, "the overlay shows", `!document.getElementById("shortcuts").hidden`)
	reviewScreenshot(t, dash, "desk-shortcuts.png")
	e.run(dash, "closing the overlay", chromedp.KeyEvent(kb.Escape))
	e.poll(dash, "the overlay closed", `document.getElementById("shortcuts").hidden`)

	// The visitor writes again: the assignee is told, and the notification
	// takes the place of the first (one per conversation).
	const again = "Thanks! How long does it take to Winnipeg?"
	e.run(widget, "writing again",
		chromedp.SendKeys(chromedp.ID("csw-input"), again),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
	)
	message, note := pushes.next(t)
	if note["title"] != "New message from a visitor" || note["body"] != again || note["conversation_id"] != conv {
		t.Fatalf("push of the visitor's new message: %v", note)
	}
	if shown := e.showPush(sw, message); shown != "1 | New message from a visitor | "+again {
		t.Fatalf("notification shown: %q", shown)
	}
	e.poll(dash, "the message in the open conversation", `[...document.querySelectorAll("#transcript .author-contact")].some(n => n.textContent.includes("`+again+`"))`)
	reviewScreenshot(t, dash, "desk-push.png")

	// The note never reached the visitor: not live, not in the widget's
	// API, not in the history the widget shows after a reload.
	e.noteHidden(teamNote, answer, again)
	e.run(widget, "reloading the widget",
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS(".csw-launch")),
		chromedp.Click(chromedp.CSS(".csw-launch")),
	)
	e.poll(widget, "the history in the widget", `[...document.querySelectorAll(".csw-contact")].some(n => n.textContent.includes("`+again+`"))`)
	e.noteHidden(teamNote, answer, again)
	reviewScreenshot(t, widget, "desk-widget.png")

	// The desk's own pages in both colour schemes and both sizes.
	e.run(dash, "back to the search", chromedp.Navigate(e.srv.URL+"/app/search?q=winnipeg"), chromedp.WaitVisible(chromedp.ID("results")))
	looks(t, dash, "dashboard-search")
	e.run(dash, "back to the canned replies", chromedp.Navigate(e.srv.URL+"/app/canned-replies"), chromedp.WaitReady("body"))
	looks(t, dash, "dashboard-canned-replies")
}

// noteHidden checks that the widget's page and the widget API's messages
// hold the messages given and nothing of the team's note.
func (e *browserEnv) noteHidden(note string, messages ...string) {
	e.t.Helper()
	page, err := chromedp.Run(e.widget, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err != nil {
		e.t.Fatal(err)
	}
	// The widget's own request, with the visitor token it keeps.
	bodies, err := chromedp.Run(e.widget, chromedp.Evaluate[[]string](`fetch("/widget/v1/messages", {headers:
		{"X-Visitor-Token": localStorage.getItem("chatsvc:`+e.site+`:test")}})
		.then(r => r.json()).then(l => l.data.map(m => m.body))`, chromedp.EvalAwaitPromise))
	if err != nil {
		e.t.Fatal(err)
	}
	for _, m := range messages {
		if !slices.Contains(bodies, m) {
			e.t.Errorf("the widget API's messages %q lack %q", bodies, m)
		}
	}
	if strings.Contains(page, note) || strings.Contains(strings.Join(bodies, "\n"), note) {
		e.t.Errorf("the visitor is shown the team's note (API messages %q)", bodies)
	}
}

// pushService stands in for a browser's push service: it hands each push
// the server sends to the test, and the test decrypts it with the keys of
// the browser it subscribed.
type pushService struct {
	url     string
	got     chan []byte
	browser testenv.PushBrowser
}

func newPushService(t *testing.T) *pushService {
	p := &pushService{got: make(chan []byte, 8), browser: testenv.NewPushBrowser(t)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		p.got <- b
		w.WriteHeader(http.StatusCreated)
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

// next waits for the next push and returns it decrypted, and its fields.
func (p *pushService) next(t *testing.T) ([]byte, map[string]string) {
	t.Helper()
	select {
	case body := <-p.got:
		payload := p.browser.Decrypt(t, body)
		var note map[string]string
		if err := json.Unmarshal(payload, &note); err != nil {
			t.Fatalf("push %s: %v", payload, err)
		}
		return payload, note
	case <-time.After(testenv.Patience):
		t.Fatalf("no push within %v", testenv.Patience)
	}
	return nil, nil
}

// subscribePush waits for the dashboard's service worker, allows its
// notifications and stores a subscription at the push service, as the
// page's script does once the browser subscribed: headless Chromium has
// no push service of its own. It returns the worker's registration.
func (e *browserEnv) subscribePush(p *pushService) serviceworker.RegistrationID {
	e.t.Helper()
	scope, err := chromedp.Run(e.dash, chromedp.Evaluate[string](`navigator.serviceWorker.ready.then(r => r.scope)`,
		chromedp.EvalAwaitPromise))
	if err != nil || scope != e.srv.URL+"/app/" {
		e.t.Fatalf("service worker scope %q (%v), want the whole dashboard", scope, err)
	}
	reg, err := chromedp.Run(e.dash, chromedp.WaitEvent(serviceworker.WorkerRegistrationUpdated,
		func(ev serviceworker.EventWorkerRegistrationUpdated) bool {
			return len(ev.Registrations) > 0 && ev.Registrations[0].ScopeURL == scope && !ev.Registrations[0].IsDeleted
		},
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, serviceworker.Enable, cdp.Empty{})
			return err
		})))
	if err != nil {
		e.t.Fatalf("service worker registration: %v", err)
	}
	e.run(e.dash, "allowing notifications", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted,
			Origin: e.srv.URL, BrowserContextID: chromedp.FromContext(ctx).BrowserContextID})
		return err
	}))
	p256dh, auth := p.browser.Keys()
	status, err := chromedp.Run(e.dash, chromedp.Evaluate[int](`fetch("/app/push/subscriptions", {method: "POST",
		headers: {"X-CSRF-Token": document.querySelector('input[name="csrf"]').value},
		body: new URLSearchParams({endpoint: "`+p.url+`/sub/1", p256dh: "`+p256dh+`", auth: "`+auth+`"})})
		.then(r => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != http.StatusNoContent {
		e.t.Fatalf("subscription: status %d (%v)", status, err)
	}
	return reg.Registrations[0].RegistrationID
}

// showPush hands a decrypted push to the service worker, as the push
// service would, and returns the notifications shown: "count | title |
// body" of the first. The first delivery can reach a worker Chromium is
// still starting, and be dropped; a notification has one tag per
// conversation, so delivering again, as a push service retries, never
// shows two.
func (e *browserEnv) showPush(reg serviceworker.RegistrationID, payload []byte) string {
	e.t.Helper()
	deliver := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
			Origin: e.srv.URL, RegistrationID: reg, Data: string(payload)})
		return err
	})
	var note struct{ Title string }
	_ = json.Unmarshal(payload, &note)
	var shown string
	for try := 0; try < 5 && !strings.Contains(shown, note.Title); try++ {
		e.run(e.dash, "delivering the push", deliver)
		var err error
		shown, err = chromedp.Run(e.dash, chromedp.Evaluate[string](`(async () => {
			const reg = await navigator.serviceWorker.ready;
			for (let i = 0; i < 60; i++) {
				const n = await reg.getNotifications();
				if (n.some(x => x.title === `+jsString(note.Title)+`)) return n.length + " | " + n[0].title + " | " + n[0].body;
				await new Promise(r => setTimeout(r, 50));
			}
			return "";
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			e.t.Fatalf("notifications: %v", err)
		}
	}
	return shown
}
