package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is where Debian's chromium package installs the browser
// (.ci/run installs it when missing).
const chromiumPath = "/usr/bin/chromium"

// TestBrowserWidget drives the demo page in headless Chromium: open the
// widget, ask a question, see the assistant's answer with its source link,
// ask for a person, and see a team reply sent through the REST API appear
// live. A screenshot is saved in $ARTIFACTS_DIR (default: a folder in the
// system's temp dir).
func TestBrowserWidget(t *testing.T) {
	e := newWidgetEnv(t, widgetOpts{})
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), browserOptions(t)...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTimeout()

	source := chromedp.CSS(`.csw-bot .csw-src a[href="https://example.com/help/refunds"]`)
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.srv.URL+"/demo?site="+e.site),
		chromedp.WaitVisible(chromedp.CSS(".csw-launch")),
		chromedp.Click(chromedp.CSS(".csw-launch")),
		chromedp.WaitVisible(chromedp.ID("csw-input")),
		chromedp.SendKeys(chromedp.ID("csw-input"), "How long does a refund take?"),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
		chromedp.WaitVisible(source),
	)
	if err != nil {
		t.Fatalf("asking a question: %v", err)
	}
	answer, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".csw-bot .csw-body")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(answer, "5 business days") {
		t.Fatalf("assistant's answer in the panel: %q", answer)
	}

	// Ask for a person; the panel shows that the team will join.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(".csw-human")),
		chromedp.Poll[chromedp.Void](`document.querySelector(".csw-status").textContent.includes("person from the team")`,
			chromedp.WithPollingTimeout(5*time.Second)),
	)
	if err != nil {
		t.Fatalf("asking for a person: %v", err)
	}

	// A team member answers through the REST API; the panel shows it live.
	convs := e.all(e.testKey, "/v1/conversations?status=waiting", 10)
	if len(convs) != 1 {
		t.Fatalf("waiting conversations %v", convs)
	}
	e.test("POST", "/v1/conversations/"+convs[0]+"/messages", map[string]any{
		"body": "Hello, this is Agent Smith. Your refund is on its way.", "author_id": e.member}).ok(t, 201)
	err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](
		`[...document.querySelectorAll(".csw-agent")].some(n => n.textContent.includes("refund is on its way"))`,
		chromedp.WithPollingTimeout(time.Second)))
	if err != nil {
		t.Fatalf("the team's reply did not appear live within a second: %v", err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".csw-status")))
	if err != nil || !strings.Contains(status, "chatting with the team") {
		t.Fatalf("status line %q (%v)", status, err)
	}
	screenshot(t, ctx, "widget.png")
}
