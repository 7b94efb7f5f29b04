package browser_test

import (
	"chatsvc/testenv/webenv"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// toneWatch runs before the page's scripts: the widget's tag asks for the
// reply tone (data-sound="true", as a site writes it) and the page's audio
// is a stand-in that counts the tones played.
const toneWatch = `window.__tones = 0;
window.AudioContext = function () {
  var param = { setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {} };
  return { currentTime: 0, destination: {},
    createOscillator: function () { return { frequency: {}, connect: function () {}, start: function () { window.__tones++; }, stop: function () {} }; },
    createGain: function () { return { gain: param, connect: function () {} }; } };
};
new MutationObserver(function () {
  var s = document.querySelector("script[data-site]");
  if (s) s.setAttribute("data-sound", "true");
}).observe(document, { childList: true, subtree: true });`

// TestBrowserWidgetConversationSteps drives what the widget adds around a
// conversation: a tone for each reply when the site asks for one, avatars
// with the author's initials, a team member's messages of one minute
// grouped, emoji from the picker, times that move on, and the rating step
// that takes the composer's place without hiding the last reply.
func TestBrowserWidgetConversationSteps(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	ctx := browserTab(t, 60*time.Second)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: toneWatch})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what, js string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if err := chromedp.Do(ctx, append(askInDemo(e, "How long does a refund take?"), chromedp.WaitVisible(chromedp.CSS(".csw-bot .csw-body")))...); err != nil {
		t.Fatalf("asking: %v", err)
	}
	check("a tone for the assistant's answer", `window.__tones === 1`)
	check("the assistant's avatar", `document.querySelector(".csw-bot .csw-av").textContent === "A"`)

	conv := e.All(e.TestKey, "/v1/conversations", 1)[0]
	for _, text := range []string{"Hello, Agent Smith here.", "Your refund left today."} {
		e.Test("POST", "/v1/conversations/"+conv+"/messages", map[string]any{"body": text, "author_id": e.Member}).OK(t, 201)
	}
	check("two replies in one group", `(() => { const a = document.querySelectorAll(".csw-agent");
		return a.length === 2 && a[0].classList.contains("csw-more") && a[1].classList.contains("csw-cont") &&
			getComputedStyle(a[1].querySelector(".csw-who")).display === "none" && getComputedStyle(a[0].querySelector(".csw-time")).display === "none"; })()`)
	check("Agent Smith's initials", `document.querySelector(".csw-agent .csw-av").textContent === "AS"`)
	check("a tone for each reply", `window.__tones === 3`)

	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`.csw-tool[aria-label="Emoji"]`)),
		chromedp.Click(chromedp.CSS(".csw-emoji button")),
	)
	if err != nil {
		t.Fatalf("the emoji picker: %v", err)
	}
	check("the emoji in the text box", `document.getElementById("csw-input").value === "\u{1F600}"`)

	// Times move on: the browser's clock is set beside the last message's
	// time, and the panel opened again.
	at := func(offset string) {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Evaluate[chromedp.Void](`(() => { const last = [...document.querySelectorAll(".csw-log time[datetime]")].pop();
				const at = Date.parse(last.getAttribute("datetime")) + `+offset+`; Date.now = () => at; })()`),
			chromedp.Click(chromedp.CSS(".csw-x")), chromedp.Click(chromedp.CSS(".csw-launch")))
		if err != nil {
			t.Fatal(err)
		}
	}
	last := `[...document.querySelectorAll(".csw-log time[datetime]")].pop().textContent`
	at("10000")
	check(`"just now"`, last+` === "just now"`)
	at("5 * 60000")
	check(`"5 minutes ago"`, last+` === "5 minutes ago"`)

	// The team closes the conversation: the rating takes the composer's
	// place, and the last reply stays in view above it.
	e.Test("POST", "/v1/conversations/"+conv+"/close", nil).OK(t, 200)
	check("the rating instead of the composer", `!document.querySelector(".csw-rate").hidden && document.querySelector(".csw-form").hidden`)
	check("the last reply in view", `(() => { const log = document.querySelector(".csw-log").getBoundingClientRect();
		const r = [...document.querySelectorAll(".csw-agent")].pop().getBoundingClientRect();
		return r.height > 0 && r.top >= log.top - 1 && r.bottom <= log.bottom + 1; })()`)
	labels, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".csw-stars > *")].map(b => b.tagName + ":" + b.getAttribute("aria-label"))`))
	if err != nil || strings.Join(labels, ",") != "BUTTON:1 of 5,BUTTON:2 of 5,BUTTON:3 of 5,BUTTON:4 of 5,BUTTON:5 of 5" {
		t.Fatalf("stars %v (%v)", labels, err)
	}
	check("no comment box before a score", `document.getElementById("csw-comment").hidden`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.csw-stars button[data-score="4"]`))); err != nil {
		t.Fatal(err)
	}
	check("four stars lit and the comment box", `document.querySelectorAll(".csw-stars .csw-on").length === 4 && !document.getElementById("csw-comment").hidden`)
	screenshot(t, ctx, "widget-rating-step.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".csw-skip"))); err != nil {
		t.Fatal(err)
	}
	check("the composer back after skipping", `document.querySelector(".csw-rate").hidden && !document.querySelector(".csw-form").hidden`)
}
