package web

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// reports shows the summary of a period (dates in UTC, both days included)
// with its per-day chart, and the questions the assistant could not answer.
func (d *dashboard) reports(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	from, to := r.URL.Query().Get("from"), r.URL.Query().Get("to")
	in := app.ReportQuery{From: dayStart(from, 0), To: dayStart(to, 1), SiteID: r.URL.Query().Get("site_id")}
	rep, err := d.h.svc.ReportSummary(r.Context(), s.Mode, in)
	if err != nil {
		return err
	}
	gaps, err := d.h.svc.Unanswered(r.Context(), s.Mode, app.ListParams{Limit: "20"})
	if err != nil {
		return err
	}
	sites, err := d.h.svc.Sites(r.Context())
	if err != nil {
		return err
	}
	last := rep.To.Time().Add(-time.Millisecond)
	d.render(w, r, http.StatusOK, "reports", view{Title: "Reports", Nav: "reports", Session: s,
		Data: map[string]any{"Report": rep, "Figures": figures(rep), "Chart": dayChart(rep.ByDay), "Gaps": gaps.Data, "Sites": sites,
			"From": rep.From.Time().Format(time.DateOnly), "To": last.Format(time.DateOnly), "SiteID": in.SiteID}})
	return nil
}

// dayStart turns a date of the form into the timestamp of the start of that
// day plus days; anything else passes through for the service to refuse.
func dayStart(date string, days int) string {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return date
	}
	return t.AddDate(0, 0, days).Format(time.RFC3339)
}

// chart is a bar chart of the period drawn as inline SVG by the template:
// per day, a bar of conversations with its handed-off part.
type chart struct {
	Width, Height int
	Max           int
	Bars          []chartBar
}

// chartBar is one day's bar in SVG units (y grows downwards).
type chartBar struct {
	X, W             float64
	Y, H             float64 // the whole bar: every conversation
	HandedY, HandedH float64 // its lower part: the handed-off ones
	Label            string  // the date, shown on hover and to screen readers
	Conversations    int
	HandedOff        int
}

const chartWidth, chartHeight = 600, 160

func dayChart(days []chat.ReportDay) chart {
	c := chart{Width: chartWidth, Height: chartHeight}
	for _, d := range days {
		c.Max = max(c.Max, d.Conversations)
	}
	step := float64(chartWidth) / float64(max(len(days), 1))
	scale := float64(chartHeight) / float64(max(c.Max, 1)) // an empty period draws no bars
	for i, d := range days {
		h, hh := float64(d.Conversations)*scale, float64(d.HandedOff)*scale
		c.Bars = append(c.Bars, chartBar{X: float64(i)*step + step*0.1, W: step * 0.8,
			Y: chartHeight - h, H: h, HandedY: chartHeight - hh, HandedH: hh,
			Label: d.Date, Conversations: d.Conversations, HandedOff: d.HandedOff})
	}
	return c
}

// figure is one headline number of the Reports page.
type figure struct {
	Label, Value, Note string
}

func figures(rep *chat.Report) []figure {
	deflection := "–"
	if rep.DeflectionRate != nil {
		deflection = strconv.FormatFloat(*rep.DeflectionRate*100, 'f', 1, 64) + "%"
	}
	csat := "–"
	if rep.CSAT.Average != nil {
		csat = strconv.FormatFloat(*rep.CSAT.Average, 'f', 2, 64) + " / 5"
	}
	return []figure{
		{"Answered by the assistant alone", deflection, fmt.Sprintf("%d of %d conversations", rep.AssistantOnly, rep.Conversations)},
		{"First response after hand-off", seconds(rep.FirstResponseSeconds.Median),
			"median; 90% within " + seconds(rep.FirstResponseSeconds.P90)},
		{"Resolution", seconds(rep.ResolutionSeconds.Median),
			"median; 90% within " + seconds(rep.ResolutionSeconds.P90)},
		{"Visitor rating", csat, fmt.Sprintf("%d ratings", rep.CSAT.Count)},
		{"Tickets", strconv.Itoa(rep.Tickets.Created) + " created", strconv.Itoa(rep.Tickets.Solved) + " solved"},
	}
}

// seconds writes a duration as people read it: "1m 30s", "2h 5m"; "–" when absent.
func seconds(v *float64) string {
	if v == nil {
		return "–"
	}
	d := time.Duration(*v * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return d.String()
	case d < time.Hour:
		return fmt.Sprintf("%dm %ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh %dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd %dh", int(d.Hours())/24, int(d.Hours())%24)
}
