package web_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chatsvc/app"
	"chatsvc/assistant"
	"chatsvc/search"
	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/testenv/apienv"
	"chatsvc/web"
)

// TestBrowserDesk drives the agent's desk in headless Chromium beside the
// widget: a visitor asks for a person; the member saves a canned reply,
// assigns the conversation to themself from the inbox in one click,
// inserts the canned reply by typing "/" (its variable filled) and sends it
// with Ctrl+Enter, adds a note the widget never shows, tags the
// conversation, and finds it by a word of the visitor's message in the
// search box. Screenshots of each step go to $ARTIFACTS_DIR.
func TestBrowserDesk(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db.ReplayEveryBatch()
	idx, err := search.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clk := testenv.NewClock(testenv.T0, time.Millisecond)
	svc := app.New(db, app.Options{Now: clk.Now, Assistant: assistant.New(idx, assistant.Extractive{}), ReplyWait: 2 * time.Second})
	srv := httptest.NewServer(web.Handler(svc))
	wctx, stopWorker := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); svc.AssistantWorker().Run(wctx) }()
	searchIndex := apienv.RunSearchIndex(t, svc, db)
	defer func() {
		stopWorker()
		<-done
		searchIndex.Stop()
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
	if err := chromedp.Do(widget, chromedp.Navigate(srv.URL+"/demo?site="+site.ID)); err != nil {
		t.Fatal(err)
	}
	dash, cancelDash := chromedp.NewContext(widget)
	defer cancelDash()
	run := func(c context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(c, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	poll := func(c context.Context, what, js string) {
		t.Helper()
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

	run(dash, "signing in",
		chromedp.Navigate(srv.URL+"/app/"),
		chromedp.WaitVisible(chromedp.ID("email")),
		chromedp.SendKeys(chromedp.ID("email"), "agent@example.com"),
		chromedp.SendKeys(chromedp.ID("password"), dashPassword),
		chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.ID("inbox")),
	)
	run(dash, "saving a canned reply",
		chromedp.Navigate(srv.URL+"/app/canned-replies"),
		chromedp.WaitVisible(chromedp.ID("c-shortcut")),
		chromedp.SendKeys(chromedp.ID("c-shortcut"), "canada"),
		chromedp.SendKeys(chromedp.ID("c-title"), "Shipping to Canada"),
		chromedp.SendKeys(chromedp.ID("c-body"), "Hello{{contact.name}}, {{agent.name}} here: yes, we ship to Canada."),
		chromedp.Submit(chromedp.ID("c-shortcut")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	screenshot(t, dash, "desk-canned-replies.png")

	run(widget, "asking for a person in the widget",
		chromedp.WaitVisible(chromedp.CSS(".csw-launch")),
		chromedp.Click(chromedp.CSS(".csw-launch")),
		chromedp.WaitVisible(chromedp.ID("csw-input")),
		chromedp.SendKeys(chromedp.ID("csw-input"), "Do you ship to Canada? My parcel goes to Winnipeg."),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS(".csw-human")),
		chromedp.Click(chromedp.CSS(".csw-human")),
	)

	// The inbox shows the work; one click assigns the conversation to me.
	run(dash, "opening the inbox", chromedp.Navigate(srv.URL+"/app/"), chromedp.WaitVisible(chromedp.ID("inbox")))
	poll(dash, "a waiting conversation that needs a reply", `document.querySelector("#inbox li.status-waiting.needs-reply .preview") !== null`)
	poll(dash, "its preview and wait", `document.querySelector("#inbox li.status-waiting .preview").textContent.length > 0 && document.querySelector("#inbox li.status-waiting .waited") !== null`)
	poll(dash, "nothing is mine yet", `document.getElementById("count-mine").textContent === "0"`)
	screenshot(t, dash, "desk-inbox.png")
	labelled(t, dash, "the inbox")
	run(dash, "assigning to me in one click",
		chromedp.Click(chromedp.CSS(`#inbox li.status-waiting button[value="me"]`)),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	poll(dash, "mine counts it", `document.getElementById("count-mine").textContent === "1"`)
	poll(dash, "the assignee shows", `document.querySelector("#inbox li.status-waiting .assignee").textContent === "Agent Smith"`)
	run(dash, "the Mine view", chromedp.Click(chromedp.CSS(`#views a[href="/app/?view=mine"]`)), chromedp.WaitVisible(chromedp.ID("inbox")))
	poll(dash, "the Mine view lists it", `document.querySelector("#inbox li.status-waiting a") !== null`)
	screenshot(t, dash, "desk-inbox-mine.png")

	// "/" offers the canned reply; inserting it fills the variables.
	run(dash, "opening the conversation",
		chromedp.Click(chromedp.CSS("#inbox li.status-waiting a")),
		chromedp.WaitVisible(chromedp.ID("reply")),
		chromedp.SendKeys(chromedp.ID("reply"), "/can"),
	)
	poll(dash, "the canned reply offered", `!document.getElementById("canned").hidden && document.querySelector("#canned [role=option]:not([hidden])").dataset.shortcut === "canada"`)
	screenshot(t, dash, "desk-canned-menu.png")
	run(dash, "inserting it", chromedp.Click(chromedp.CSS(`#canned [role=option]:not([hidden])`)))
	poll(dash, "the variables filled", `document.getElementById("reply").value === "Hello, Agent Smith here: yes, we ship to Canada."`)
	run(dash, "sending with Ctrl+Enter", chromedp.Evaluate[chromedp.Void](`document.getElementById("reply").dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", ctrlKey: true, bubbles: true}))`))
	poll(dash, "the reply in the transcript", `[...document.querySelectorAll("#transcript .author-agent")].some(n => n.textContent.includes("we ship to Canada"))`)
	poll(widget, "the reply in the widget", `[...document.querySelectorAll(".csw-agent")].some(n => n.textContent.includes("we ship to Canada"))`)

	// A note for the team, and tags.
	run(dash, "adding a note",
		chromedp.SendKeys(chromedp.ID("note-body"), "Customs forms pending for this parcel"),
		chromedp.Submit(chromedp.ID("note-body")),
		chromedp.WaitVisible(chromedp.ID("notes")),
	)
	poll(dash, "the note shows", `document.getElementById("notes").textContent.includes("Customs forms pending")`)
	run(dash, "tagging",
		chromedp.SetValue(chromedp.ID("tags"), "shipping, canada"),
		chromedp.Submit(chromedp.ID("tags")),
		chromedp.WaitVisible(chromedp.CSS(".flash")),
	)
	poll(dash, "the tags kept", `document.getElementById("tags").value === "shipping, canada"`)
	screenshot(t, dash, "desk-conversation.png")

	// Search finds it by a word of the visitor's message.
	searchIndex.Indexed(t)
	run(dash, "searching",
		chromedp.SendKeys(chromedp.ID("site-search"), "winnipeg\r"),
		chromedp.WaitVisible(chromedp.ID("results")),
	)
	poll(dash, "the conversation found", `document.querySelector("#results li.type-conversation .snippet").textContent.includes("Winnipeg")`)
	screenshot(t, dash, "desk-search.png")
	labelled(t, dash, "the search page")
	run(dash, "opening the result", chromedp.Click(chromedp.CSS("#results a")), chromedp.WaitVisible(chromedp.ID("notes")))
	run(dash, "the help overlay", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("?"))
	poll(dash, "the overlay shows", `!document.getElementById("shortcuts").hidden`)
	screenshot(t, dash, "desk-shortcuts.png")

	// The note never reached the visitor.
	text, err := chromedp.Run(widget, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "Customs forms") {
		t.Error("the widget shows the team's note")
	}

	// The desk's own pages in both colour schemes and both sizes.
	run(dash, "back to the search", chromedp.Navigate(srv.URL+"/app/search?q=winnipeg"), chromedp.WaitVisible(chromedp.ID("results")))
	looks(t, dash, "dashboard-search")
	run(dash, "back to the canned replies", chromedp.Navigate(srv.URL+"/app/canned-replies"), chromedp.WaitReady("body"))
	looks(t, dash, "dashboard-canned-replies")
}
