package browser_test

import (
	"chatsvc/testenv/webenv"
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserReplyFeedback asks a question in the widget, presses "Not
// helpful" under the assistant's reply and finds the question
// among the unanswered ones. The reply with its buttons is saved as
// widget-feedback.png.
func TestBrowserReplyFeedback(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	ctx := newBrowser(t)

	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, append(askInDemo(e, "How long does a refund take?"),
		chromedp.WaitVisible(chromedp.CSS(`.csw-bot .csw-fb button[data-helpful="false"]`)),
		chromedp.Click(chromedp.CSS(`.csw-bot .csw-fb button[data-helpful="false"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.csw-bot .csw-fb button[data-helpful="false"][aria-pressed="true"]`)))...)
	if err == nil {
		label, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.csw-bot .csw-fb button[data-helpful="false"]`)))
		if err == nil && label != "Not helpful" {
			t.Errorf("button label %q", label)
		}
	}
	if err != nil {
		t.Fatalf("feedback in the widget: %v", err)
	}
	reviewScreenshot(t, ctx, "widget-feedback.png")
	// The reply that a person is coming is no answer: it has no buttons.
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("csw-input"), "I want to talk to a human"),
		chromedp.Click(chromedp.CSS(".csw-form button[type=submit]")),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll(".csw-bot").length >= 2`,
			chromedp.WithPollingTimeout(5*time.Second)))
	var buttons int
	if err == nil {
		buttons, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".csw-bot .csw-fb").length`))
	}
	if err != nil || buttons != 1 {
		t.Fatalf("feedback buttons after the hand-off reply: %d (%v), want 1", buttons, err)
	}
	list := e.Test("GET", "/v1/reports/unanswered", nil).OK(t, 200)["data"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["question"] != "How long does a refund take?" {
		t.Fatalf("unanswered after the feedback: %v", list)
	}
}

// newBrowser starts headless Chromium for one test, with a minute to run.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return browserTab(t, 60*time.Second)
}
