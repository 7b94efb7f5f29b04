package browser_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"chatsvc/app"
	"chatsvc/chat"
)

// TestBrowserSplitPaneDesk answers two waiting conversations from the
// desk without leaving the page: the list, the open conversation and the
// contact panel side by side on a desktop; a click in the list opens the
// next conversation beside it, and each reply assigns the conversation to
// the replier. The header keeps one row at 1440 px; on a phone the desk
// shows one pane with a back link and the navigation behind a Menu button.
func TestBrowserSplitPaneDesk(t *testing.T) {
	t.Parallel()
	e := newBrowserEnv(t, lightest(), nil)
	ctx := context.Background()
	var convs []string
	for i, q := range []string{"Where is my parcel?", "Can I change my address?"} {
		c, _, err := e.svc.StartConversation(ctx, chat.Test, app.VisitorStart{SiteID: e.site,
			VisitorID: fmt.Sprintf("vis_split%d", i), PageURL: "https://shop.example/orders", Body: q})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.HandOff(ctx, chat.Test, c.ID, app.Handoff{}); err != nil {
			t.Fatal(err)
		}
		convs = append(convs, c.ID)
	}
	dash := e.dash
	e.signIn()
	e.run(dash, "a desktop window", chromedp.EmulateViewport(1440, 900))
	e.run(dash, "opening the desk", chromedp.Navigate(e.srv.URL+"/app/?view=waiting"), chromedp.WaitVisible(chromedp.ID("inbox")))
	if h, err := chromedp.Run(dash, chromedp.Evaluate[float64](`document.getElementById("top").getBoundingClientRect().height`)); err != nil || h > 60 {
		t.Errorf("the header is %v px high at 1440 px (%v): it wraps", h, err)
	}
	e.run(dash, "a smaller desktop", chromedp.EmulateViewport(1280, 800))
	if w, err := chromedp.Run(dash, chromedp.Evaluate[float64](`document.getElementById("top").scrollWidth - innerWidth`)); err != nil || w > 0 {
		t.Errorf("the header overflows a 1280 px window by %v px (%v)", w, err)
	}
	e.run(dash, "back to 1440 px", chromedp.EmulateViewport(1440, 900))
	// The longest wait first: the first conversation started first.
	e.poll(dash, "the waiting view, longest wait first",
		`[...document.querySelectorAll("#inbox li.conv")].map(li => li.dataset.id).join() === "`+strings.Join(convs, ",")+`"`)
	e.run(dash, "marking the page", chromedp.Evaluate[chromedp.Void](`window.deskMarker = "the same page"`))

	for i, id := range convs {
		reply := fmt.Sprintf("Answer number %d from the desk.", i+1)
		e.run(dash, "opening conversation "+id, clickNow(`#inbox li[data-id="`+id+`"] .conv-main > a`))
		e.poll(dash, "the conversation beside the list", `document.querySelector('#thread[data-conversation="`+id+`"]') !== null && document.getElementById("list-pane") !== null`)
		e.poll(dash, "its row marked open", `document.querySelector('#inbox li[data-id="`+id+`"]').getAttribute("aria-current") === "true"`)
		e.poll(dash, "the desk's scripts bound to the new reply box", `document.getElementById("visitor-typing") !== null`)
		e.run(dash, "replying",
			chromedp.SendKeys(chromedp.ID("reply"), reply),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("reply").dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", ctrlKey: true, bubbles: true}))`))
		e.poll(dash, "the reply in the transcript", `[...document.querySelectorAll("#transcript .author-agent .body")].some(n => n.textContent === "`+reply+`")`)
		e.poll(dash, "the address follows", `location.pathname === "/app/conversations/`+id+`"`)
		e.poll(dash, "still the same page", `window.deskMarker === "the same page"`)
		if i == 0 {
			e.poll(dash, "three panes side by side", `(() => {
				const [l, c, p] = ["list-pane", "thread", "contact-panel"].map(id => document.getElementById(id).getBoundingClientRect());
				return l.right <= c.left + 1 && c.right <= p.left + 1 && l.width > 200 && p.width > 200 && Math.abs(l.top - p.top) < 2;
			})()`)
			screenshot(t, dash, "desk-split-1440.png")
		}
	}
	e.poll(dash, "both replies made both conversations mine", `document.getElementById("count-mine").textContent === "2"`)
	for i, id := range convs {
		c, err := e.svc.Conversation(ctx, chat.Test, id)
		if err != nil || c.AssigneeID == nil || c.Status != "handed_off" {
			t.Fatalf("conversation %d after the reply: %+v (%v)", i, c, err)
		}
	}
	labelled(t, dash, "the desk")
	looks(t, dash, "dashboard-desk")
	e.run(dash, "the Mine view by its key", chromedp.EmulateViewport(1440, 900),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("1"))
	e.poll(dash, "the Mine view in the same page", `location.search === "?view=mine" && window.deskMarker === "the same page" &&
		document.querySelectorAll("#inbox li.conv").length === 2`)

	// On a phone: one pane, a way back to the list, the navigation behind Menu.
	e.run(dash, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(e.srv.URL+"/app/conversations/"+convs[1]), chromedp.WaitVisible(chromedp.ID("reply")))
	e.poll(dash, "the list hidden, the back link shown", `getComputedStyle(document.getElementById("list-pane")).display === "none" &&
		document.querySelector(".thread-head .back").offsetParent !== null`)
	e.poll(dash, "the navigation folded", `getComputedStyle(document.getElementById("main-nav")).display === "none"`)
	e.run(dash, "opening the menu", clickNow("#menu-toggle"))
	e.poll(dash, "the navigation shown", `getComputedStyle(document.getElementById("main-nav")).display !== "none"`)
	screenshot(t, dash, "desk-phone-menu.png")
}

// TestBrowserInstallSnippet copies the live tag from Settings' Install
// section onto a page of another site, and a visitor there chats in live
// mode; the test-data banner shows while the dashboard shows test data,
// the preview follows the colour field, and one click copies the test
// set-up to live data.
func TestBrowserInstallSnippet(t *testing.T) {
	t.Parallel()
	e := newBrowserEnv(t, lightest(), nil)
	ctx := context.Background()
	dash := e.dash
	e.signIn()
	e.run(dash, "opening Settings", chromedp.Navigate(e.srv.URL+"/app/settings"), chromedp.WaitVisible(chromedp.ID("install")))
	e.poll(dash, "the test-data banner", `document.getElementById("test-banner").offsetParent !== null &&
		document.getElementById("test-banner").textContent.includes("test data")`)
	snippet, err := chromedp.Run(dash, chromedp.Evaluate[string](`document.getElementById("snippet-live-`+e.site+`").value`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snippet, `data-site="`+e.site+`"`) || strings.Contains(snippet, "data-test") {
		t.Fatalf("live snippet %q", snippet)
	}

	// The preview follows the colour as it is picked: a yellow gets dark text.
	e.run(dash, "picking a yellow", chromedp.Evaluate[chromedp.Void](`(() => {
		const c = document.getElementById("color-`+e.site+`");
		c.value = "#ffd600";
		c.dispatchEvent(new Event("input", {bubbles: true}));
	})()`))
	e.poll(dash, "the preview in yellow with dark text", `(() => {
		const s = getComputedStyle(document.querySelector("#site-`+e.site+` .wp-head"));
		return s.backgroundColor === "rgb(255, 214, 0)" && s.color === "rgb(17, 17, 17)";
	})()`)
	labelled(t, dash, "the settings page")
	looks(t, dash, "dashboard-install")

	// The live tag on another site's page: a visitor's conversation is live data.
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head><title>Shop</title></head><body><h1>Our shop</h1>%s</body></html>", snippet)
	}))
	defer page.Close()
	e.run(e.widget, "a visitor on the shop's page",
		chromedp.Navigate(page.URL),
		chromedp.WaitVisible(chromedp.CSS(".csw-launch")),
		chromedp.Click(chromedp.CSS(".csw-launch")),
		chromedp.WaitVisible(chromedp.ID("csw-input")),
		chromedp.SendKeys(chromedp.ID("csw-input"), "Hello from the live site"),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS(".csw-contact[data-id]")),
	)
	live, err := e.svc.Conversations(ctx, chat.Live, app.ConversationQuery{})
	if err != nil || len(live.Data) != 1 || live.Data[0].SiteID != e.site {
		t.Fatalf("live conversations after the visitor wrote: %v (%v)", live.Data, err)
	}
	screenshot(t, e.widget, "install-live-snippet.png")

	// The set-up made in test data, copied to live in one click.
	if _, err := e.svc.CreateCannedReply(ctx, chat.Test, app.CannedReplyInput{Shortcut: app.Value("thanks"),
		Title: app.Value("Thanks"), Body: app.Value("Thanks for writing!")}); err != nil {
		t.Fatal(err)
	}
	e.run(dash, "copying to live",
		chromedp.Navigate(e.srv.URL+"/app/settings"),
		chromedp.WaitVisible(chromedp.ID("copy-live")),
		clickNow("#copy-live"),
	)
	e.poll(dash, "the copy reported", `document.querySelector(".flash") !== null && document.querySelector(".flash").textContent.includes("1 canned reply")`)
	canned, err := e.svc.CannedReplies(ctx, chat.Live, app.ListParams{})
	if err != nil || len(canned.Data) != 1 || canned.Data[0].Shortcut != "thanks" {
		t.Fatalf("live canned replies after the copy: %v (%v)", canned.Data, err)
	}
	// In live data the banner is gone.
	e.run(dash, "switching to live data", clickNow(`#test-banner button[type=submit]`))
	e.poll(dash, "live data without the banner", `document.getElementById("mode").textContent === "Live data" && document.getElementById("test-banner") === null`)

	// The owner's Operations page, saved for review.
	e.run(dash, "opening Operations", chromedp.Navigate(e.srv.URL+"/app/operations"), chromedp.WaitVisible(chromedp.ID("replication")))
	looks(t, dash, "dashboard-operations")
}
