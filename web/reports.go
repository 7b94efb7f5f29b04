package web

import (
	"encoding/csv"
	"net/http"
	"strconv"

	"chatsvc/app"
	"chatsvc/chat"
)

func (h *handlers) reportSummary(w http.ResponseWriter, r *http.Request) {
	rep, err := h.summary(r)
	reply(w, r, http.StatusOK, rep, err)
}

// reportSummaryCSV writes the summary as CSV in long form, one figure a
// line: "metric,date,value", the date empty for the period's figures
// (docs/reports.md), so every line has the same columns.
func (h *handlers) reportSummaryCSV(w http.ResponseWriter, r *http.Request) {
	rep, err := h.summary(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
	cw := csv.NewWriter(w)
	cw.WriteAll(reportCSV(rep)) // a failed write is the client gone: nothing to answer
}

func (h *handlers) summary(r *http.Request) (*chat.Report, error) {
	q, err := query(r, "from", "to", "site_id")
	if err != nil {
		return nil, err
	}
	return h.svc.ReportSummary(r.Context(), mode(r), app.ReportQuery{From: q.Get("from"), To: q.Get("to"), SiteID: q.Get("site_id")})
}

func (h *handlers) listUnanswered(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "limit", "cursor")
	if err != nil {
		writeError(w, r, err)
		return
	}
	list, err := h.svc.Unanswered(r.Context(), mode(r), listParams(q))
	reply(w, r, http.StatusOK, list, err)
}

// reportCSV lays the report out as CSV records; absent figures are empty.
func reportCSV(rep *chat.Report) [][]string {
	num := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	site := ""
	if rep.SiteID != nil {
		site = *rep.SiteID
	}
	out := [][]string{{"metric", "date", "value"}}
	add := func(metric, date, value string) { out = append(out, []string{metric, date, value}) }
	for _, f := range [][2]string{{"from", rep.From.String()}, {"to", rep.To.String()}, {"site_id", site},
		{"conversations", strconv.Itoa(rep.Conversations)},
		{"assistant_only", strconv.Itoa(rep.AssistantOnly)},
		{"handed_off", strconv.Itoa(rep.HandedOff)},
		{"deflection_rate", num(rep.DeflectionRate)},
		{"first_response_seconds_count", strconv.Itoa(rep.FirstResponseSeconds.Count)},
		{"first_response_seconds_median", num(rep.FirstResponseSeconds.Median)},
		{"first_response_seconds_p90", num(rep.FirstResponseSeconds.P90)},
		{"resolution_seconds_count", strconv.Itoa(rep.ResolutionSeconds.Count)},
		{"resolution_seconds_median", num(rep.ResolutionSeconds.Median)},
		{"resolution_seconds_p90", num(rep.ResolutionSeconds.P90)},
		{"csat_count", strconv.Itoa(rep.CSAT.Count)},
		{"csat_average", num(rep.CSAT.Average)},
		{"tickets_created", strconv.Itoa(rep.Tickets.Created)},
		{"tickets_solved", strconv.Itoa(rep.Tickets.Solved)}} {
		add(f[0], "", f[1])
	}
	for _, d := range rep.ByDay {
		add("conversations", d.Date, strconv.Itoa(d.Conversations))
		add("handed_off", d.Date, strconv.Itoa(d.HandedOff))
		add("tickets_created", d.Date, strconv.Itoa(d.TicketsCreated))
	}
	return out
}

func (h *handlers) replyFeedback(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visit(w, r, "")
	if !ok {
		return
	}
	b, err := decodeBody(w, r, "helpful")
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := app.ReplyFeedback{Helpful: b.boolean("helpful")}
	if b.Err() != nil {
		writeError(w, r, b.Err())
		return
	}
	f, err := h.svc.GiveFeedback(r.Context(), v, r.PathValue("id"), in)
	reply(w, r, http.StatusOK, f, err)
}
