package browser_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chatsvc/app"
	"chatsvc/files"
	"chatsvc/knowledge"
	"chatsvc/testenv"
)

// TestBrowserFilesBothWays drives files through the widget and the desk in
// headless Chromium: the widget refuses a kind of file it cannot send,
// a visitor sends a screenshot (a thumbnail while composing, the picture in
// the transcript), the agent sees it previewed in the conversation, and
// answers with a picture of their own that the visitor sees.
func TestBrowserFilesBothWays(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newBrowserEnv(t, lightest(), func(o *app.Options, _ *knowledge.Index) {
		o.Files = files.New(files.Options{Dir: filepath.Join(dir, "store"), MaxBytes: 1 << 20, Timeout: 5 * time.Second})
	})
	e.start(e.svc.AssistantWorker())
	file := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shot, page, fix := file("screenshot.png", testenv.PNG(40, 30)), file("page.html", []byte("<html></html>")), file("fix.png", testenv.PNG(20, 20))
	widget, dash := e.widget, e.dash
	picture := func(sel string, width int) string { // a picture under sel, loaded and drawn at its size
		return `[...document.querySelectorAll(` + jsString(sel) + `)].some(i => i.complete && i.naturalWidth === ` + strconv.Itoa(width) + `)`
	}

	e.run(widget, "opening the widget", chromedp.WaitVisible(chromedp.CSS(".csw-launch")), chromedp.Click(chromedp.CSS(".csw-launch")))
	e.askForPerson("My order page looks broken")
	e.run(widget, "attaching a web page", chromedp.SetUploadFiles(chromedp.CSS(".csw-form input[type=file]"), []string{page}))
	e.poll(widget, "the web page refused", `document.querySelector(".csw-status").textContent.includes("page.html: this kind of file cannot be sent")`)
	e.run(widget, "attaching a screenshot", chromedp.SetUploadFiles(chromedp.CSS(".csw-form input[type=file]"), []string{shot}))
	e.poll(widget, "the screenshot's thumbnail", picture(".csw-files img", 40))
	e.run(widget, "sending it",
		chromedp.SendKeys(chromedp.ID("csw-input"), "Here is what I see"),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")))
	e.poll(widget, "the screenshot in the transcript", picture(".csw-contact[data-id] img.csw-img", 40))
	e.poll(widget, "the composer emptied", `document.querySelectorAll(".csw-files li").length === 0`)
	screenshot(t, widget, "widget-files.png")

	e.signIn()
	e.poll(dash, "waiting conversation in the inbox", `document.querySelector("#inbox li.status-waiting a") !== null`)
	e.run(dash, "opening the conversation", clickNow("#inbox li.status-waiting a"), chromedp.WaitVisible(chromedp.ID("reply")))
	e.poll(dash, "the visitor's screenshot previewed", picture("#transcript .author-contact img", 40))
	e.run(dash, "attaching a picture in the desk", chromedp.SetUploadFiles(chromedp.ID("reply-files"), []string{fix}))
	e.poll(dash, "the picture previewed before sending", picture("#reply-previews img", 20))
	screenshot(t, dash, "desk-files.png")
	e.run(dash, "sending the reply",
		chromedp.SendKeys(chromedp.ID("reply"), "This should fix it"),
		chromedp.Submit(chromedp.ID("reply")),
		chromedp.WaitVisible(chromedp.CSS(".flash")))
	e.poll(dash, "the agent's picture in the transcript", picture("#transcript .author-agent img", 20))
	e.poll(widget, "the agent's picture in the widget", picture(".csw-agent img.csw-img", 20))
}
