package web_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

// TestDashboardReports checks the Reports page against the hand-computed
// fixture: the headline figures, one bar per day, the site filter and a
// refused period.
func TestDashboardReports(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	webenv.ReportFixture(t, e)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	day := testenv.T0.Format(time.DateOnly)
	body := d.get("/app/reports?from="+day+"&to="+day).must(t, http.StatusOK)
	for _, want := range []string{"33.3%", "1 of 3 conversations", "1m 30s", "7m 15s", "3.50 / 5", "2 ratings",
		"1 created", "1 solved", "<svg", day + ": 3 conversations, 2 handed off"} {
		if !strings.Contains(body, want) {
			t.Errorf("reports page lacks %q", want)
		}
	}
	if n := strings.Count(body, `class="handed"`); n != 1 {
		t.Errorf("%d bars for one day", n)
	}
	if strings.Contains(body, "<script src=\"http") {
		t.Error("the page loads a script from elsewhere")
	}
	// "Answer it" adds a text source named after the question.
	if !strings.Contains(body, `name="name" value="Can I pay by invoice?"`) {
		t.Error("no answer form for an unanswered question")
	}
	d.post("/app/knowledge", url.Values{"type": {"text"}, "name": {"Can I pay by invoice?"},
		"content": {"Question: Can I pay by invoice?\nAnswer: Yes, on the Business plan."}}).must(t, http.StatusSeeOther)
	if src := e.Test("GET", "/v1/knowledge-sources", nil).OK(t, 200)["data"].([]any); len(src) != 1 ||
		src[0].(map[string]any)["name"] != "Can I pay by invoice?" || src[0].(map[string]any)["type"] != "text" {
		t.Errorf("sources after answering: %v", src)
	}
	d.get("/app/reports?from="+day+"&to=2026-09-01").must(t, http.StatusBadRequest)
	d.get("/app/reports?site_id=site_nothing").must(t, http.StatusBadRequest)
	if b := d.get("/app/reports?from="+day+"&to="+day+"&site_id="+e.Site).must(t, http.StatusOK); !strings.Contains(b, "1 of 3") {
		t.Error("the site filter drops the site's conversations")
	}
	// A question longer than a source's name can be is answered under a name cut short.
	long := strings.Repeat("Where precisely do I find the telescope calibration for my submarine ", 4) + "?"
	e.Say(e.Session(true), long)
	page := d.get("/app/reports").must(t, http.StatusOK)
	m := regexp.MustCompile(`name="name" value="(Where precisely[^"]*)"`).FindStringSubmatch(page)
	if m == nil || utf8.RuneCountInString(html.UnescapeString(m[1])) != 200 || !strings.HasSuffix(m[1], "…") {
		t.Errorf("the name of the long question's answer: %q", m)
	}
	// A period without conversations says its highest day has none.
	if b := d.get("/app/reports?from=2026-09-01&to=2026-09-02").must(t, http.StatusOK); !strings.Contains(b, "the highest day has 0") {
		t.Error("an empty period's chart claims a busy day")
	}
}
