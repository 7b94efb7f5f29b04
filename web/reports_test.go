package web_test

import (
	"encoding/csv"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

func TestReportSummary(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	from, to := webenv.ReportFixture(t, e)
	got := e.Test("GET", "/v1/reports/summary?from="+url.QueryEscape(from)+"&to="+url.QueryEscape(to), nil).OK(t, 200)
	want := map[string]any{
		"conversations": 3.0, "assistant_only": 1.0, "handed_off": 2.0, "deflection_rate": 0.3333,
		"first_response_seconds": map[string]any{"count": 1.0, "median": 90.0, "p90": 90.0},
		"resolution_seconds":     map[string]any{"count": 2.0, "median": 435.0, "p90": 750.0},
		"csat":                   map[string]any{"count": 2.0, "average": 3.5},
		"tickets":                map[string]any{"created": 1.0, "solved": 1.0},
		"by_day": []any{map[string]any{"date": testenv.T0.Format(time.DateOnly), "conversations": 3.0,
			"handed_off": 2.0, "tickets_created": 1.0}},
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	// The live mode sees none of it; the default period ends now.
	live := e.Live("GET", "/v1/reports/summary", nil).OK(t, 200)
	if live["conversations"] != 0.0 || live["deflection_rate"] != nil || len(live["by_day"].([]any)) != 31 {
		t.Errorf("live report %v", live)
	}
	// The site filter: the fixture's site holds everything.
	site := e.Test("GET", "/v1/reports/summary?from="+url.QueryEscape(from)+"&to="+url.QueryEscape(to)+"&site_id="+e.Site, nil).OK(t, 200)
	if site["conversations"] != 3.0 || site["site_id"] != e.Site || site["tickets"].(map[string]any)["created"] != 0.0 {
		t.Errorf("site report %v", site)
	}
}

// assistant_only counts the conversations no team member wrote in once
// they are closed, a visitor's hand-off request included; while waiting
// for a person, a conversation is the team's.
func TestReportAssistantOnlyIsWithoutAgentMessage(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	conv := e.Say(tok, "Where is my parcel?")["message"].(map[string]any)["conversation_id"].(string)
	e.WidgetDo("POST", "/widget/v1/handoff", tok, nil).OK(t, 200)
	figures := func() (float64, float64) {
		r := e.Test("GET", "/v1/reports/summary", nil).OK(t, 200)
		return r["assistant_only"].(float64), r["handed_off"].(float64)
	}
	if only, off := figures(); only != 0 || off != 1 {
		t.Fatalf("waiting: assistant_only %v, handed_off %v; want 0, 1", only, off)
	}
	e.Test("POST", "/v1/conversations/"+conv+"/close", nil).OK(t, 200)
	if only, off := figures(); only != 1 || off != 0 {
		t.Fatalf("closed without an agent message: assistant_only %v, handed_off %v; want 1, 0", only, off)
	}
}

func TestReportSummaryCSV(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	from, to := webenv.ReportFixture(t, e)
	r := e.Test("GET", "/v1/reports/summary.csv?from="+url.QueryEscape(from)+"&to="+url.QueryEscape(to), nil)
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("status %d, type %q", r.Status, r.Header.Get("Content-Type"))
	}
	recs, err := csv.NewReader(strings.NewReader(string(r.Raw))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]string{}
	for _, rec := range recs {
		values[rec[0]+"@"+rec[1]] = rec[2]
	}
	day := testenv.T0.Format(time.DateOnly)
	for k, v := range map[string]string{"conversations@": "3", "assistant_only@": "1", "deflection_rate@": "0.3333",
		"first_response_seconds_median@": "90", "resolution_seconds_p90@": "750", "csat_average@": "3.5",
		"first_response_seconds_count@": "1", "resolution_seconds_count@": "2",
		"tickets_solved@": "1", "conversations@" + day: "3", "handed_off@" + day: "2", "tickets_created@" + day: "1"} {
		if values[k] != v {
			t.Errorf("%s = %q, want %q", k, values[k], v)
		}
	}
}

func TestReportSummaryRefusesBadQueries(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	for _, c := range []struct{ query, code, param string }{
		{"from=yesterday", "parameter_invalid", "from"},
		{"to=2026-13-01T00:00:00Z", "parameter_invalid", "to"},
		{"from=2026-10-02T00:00:00Z&to=2026-10-01T00:00:00Z", "parameter_invalid", "from"},
		{"from=2025-01-01T00:00:00Z&to=2026-10-01T00:00:00Z", "parameter_invalid", "from"},
		{"site_id=site_missing", "resource_missing", "site_id"},
		{"sites=x", "parameter_unknown", "sites"},
	} {
		e.Test("GET", "/v1/reports/summary?"+c.query, nil).Fails(t, 400, c.code, c.param)
	}
	e.Test("GET", "/v1/reports/summary.csv?from=x", nil).Fails(t, 400, "parameter_invalid", "from")
}
