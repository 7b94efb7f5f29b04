package browser_test

import (
	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserReports signs in, opens the Reports page of the fixture's
// day with a knowledge gap, checks the chart is drawn and saves it
// (looks).
func TestBrowserReports(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	webenv.ReportFixture(t, e)
	if _, err := e.Svc.SetMemberPassword(context.Background(), "agent@example.com", webenv.DashPassword); err != nil {
		t.Fatal(err)
	}
	webenv.Ask(e, e.Session(true), "Do you sell gift cards?")
	ctx := newBrowser(t)
	day := testenv.T0.Format(time.DateOnly)
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.Server.URL+"/app/reports?"+url.Values{"from": {day}, "to": {day}}.Encode()),
		chromedp.WaitVisible(chromedp.ID("password")),
		chromedp.SendKeys(chromedp.ID("email"), "agent@example.com"),
		chromedp.SendKeys(chromedp.ID("password"), webenv.DashPassword),
		chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.ID("day-chart")),
	)
	if err != nil {
		t.Fatalf("opening the reports: %v", err)
	}
	h, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector("#day-chart rect.all").getBoundingClientRect().height`))
	if err != nil || h <= 0 {
		t.Fatalf("chart bar height %v (%v)", h, err)
	}
	gap, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#unanswered tbody td a")))
	if err != nil || gap != "Do you sell gift cards?" {
		t.Fatalf("unanswered question %q (%v)", gap, err)
	}
	labelled(t, ctx, "reports")
	looks(t, ctx, "dashboard-reports")
}
