package app

import (
	"context"
	"math"
	"slices"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Report limits: the default period, and the longest one (a year and a
// day, so a leap year's by_day fits).
const (
	DefaultReportPeriod = 30 * 24 * time.Hour
	MaxReportPeriod     = 366 * 24 * time.Hour
)

// ReportQuery is the query of GET /reports/summary, as received; empty
// strings are absent.
type ReportQuery struct {
	From, To, SiteID string
}

// ReportSummary computes the report of a period from the rows as they are.
func (s *Service) ReportSummary(ctx context.Context, mode chat.Mode, in ReportQuery) (*chat.Report, error) {
	r, err := s.reportRange(ctx, mode, in)
	if err != nil {
		return nil, err
	}
	q := s.db.Read()
	created, solved, err := q.ReportTickets(ctx, r)
	if err != nil {
		return nil, err
	}
	rep := &chat.Report{Object: "report", From: r.From, To: r.To, Tickets: chat.TicketCounts{Created: len(created), Solved: solved}}
	if r.SiteID != "" {
		rep.SiteID = &r.SiteID
	}
	rep.ByDay = reportDays(r.From, r.To)
	dayOf := func(t chat.Timestamp) *chat.ReportDay {
		return &rep.ByDay[int((t.Time().Truncate(24*time.Hour).Sub(r.From.Time().Truncate(24*time.Hour)))/(24*time.Hour))]
	}
	var response, resolution []float64
	var ratings []int
	err = q.ReportConversations(ctx, r, func(c storage.ReportConversation) error {
		rep.Conversations++
		day := dayOf(c.CreatedAt)
		day.Conversations++
		if c.RatingScore != nil {
			ratings = append(ratings, *c.RatingScore)
		}
		if c.Status == chat.StatusClosed && c.ClosedAt != nil && *c.ClosedAt >= c.CreatedAt {
			resolution = append(resolution, seconds(c.CreatedAt, *c.ClosedAt))
		}
		if assistantOnly(c) {
			rep.AssistantOnly++
			return nil
		}
		day.HandedOff++
		// From the hand-off (not known of those handed off before hand-offs
		// were recorded) to the team's first message.
		if c.HandedOffAt != nil && c.FirstAgentAt != nil && *c.FirstAgentAt >= *c.HandedOffAt {
			response = append(response, seconds(*c.HandedOffAt, *c.FirstAgentAt))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, t := range created {
		dayOf(t).TicketsCreated++
	}
	rep.HandedOff = rep.Conversations - rep.AssistantOnly
	if rep.Conversations > 0 {
		rate := round(float64(rep.AssistantOnly)/float64(rep.Conversations), 4)
		rep.DeflectionRate = &rate
	}
	rep.FirstResponseSeconds, rep.ResolutionSeconds = spread(response), spread(resolution)
	rep.CSAT = csat(ratings)
	return rep, nil
}

// assistantOnly: no team member wrote in the conversation, which is open
// (with the assistant) or closed; one waiting for or assigned to a person
// is the team's.
func assistantOnly(c storage.ReportConversation) bool {
	return (c.Status == chat.StatusOpen || c.Status == chat.StatusClosed) && c.FirstAgentAt == nil
}

// reportRange validates the query: timestamps, from before to, at most
// MaxReportPeriod apart, an existing site. By default the period is the
// DefaultReportPeriod up to now (or before to).
func (s *Service) reportRange(ctx context.Context, mode chat.Mode, in ReportQuery) (storage.ReportRange, error) {
	r := storage.ReportRange{Mode: mode, SiteID: in.SiteID, To: s.stamp()}
	if in.To != "" {
		t, err := parseTimestamp("to", in.To)
		if err != nil {
			return r, err
		}
		r.To = t
	}
	r.From = chat.At(r.To.Time().Add(-DefaultReportPeriod))
	if in.From != "" {
		t, err := parseTimestamp("from", in.From)
		if err != nil {
			return r, err
		}
		r.From = t
	}
	if r.From >= r.To {
		return r, invalid("from", "from must be before to.")
	}
	if r.To.Time().Sub(r.From.Time()) > MaxReportPeriod {
		return r, invalid("from", "A report covers at most 366 days; move from or to closer together.")
	}
	if in.SiteID != "" {
		if _, err := s.db.Read().Site(ctx, in.SiteID); err != nil {
			return r, found(err, noSuchRef("site_id", "site", in.SiteID))
		}
	}
	return r, nil
}

// parseTimestamp reads an ISO 8601 timestamp of a query parameter.
func parseTimestamp(param, v string) (chat.Timestamp, error) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return 0, invalid(param, "%s must be an ISO 8601 timestamp such as 2026-10-01T00:00:00Z (got '%s').", param, v)
	}
	return chat.At(t), nil
}

// reportDays lists every UTC day the period touches, each with zero counts.
func reportDays(from, to chat.Timestamp) []chat.ReportDay {
	var days []chat.ReportDay
	last := (to - 1).Time()
	for d := from.Time().Truncate(24 * time.Hour); !d.After(last); d = d.Add(24 * time.Hour) {
		days = append(days, chat.ReportDay{Date: d.Format(time.DateOnly)})
	}
	return days
}

func seconds(from, to chat.Timestamp) float64 { return float64(to-from) / 1000 }

// spread is the median (the mean of the two middle values of an even count)
// and the 90th percentile (nearest rank) of the durations.
func spread(v []float64) chat.Spread {
	sp := chat.Spread{Count: len(v)}
	if len(v) == 0 {
		return sp
	}
	slices.Sort(v)
	n := len(v)
	med := v[n/2]
	if n%2 == 0 {
		med = (v[n/2-1] + v[n/2]) / 2
	}
	p90 := v[int(math.Ceil(0.9*float64(n)))-1]
	med, p90 = round(med, 3), round(p90, 3)
	sp.Median, sp.P90 = &med, &p90
	return sp
}

func csat(scores []int) chat.CSAT {
	c := chat.CSAT{Count: len(scores)}
	if len(scores) == 0 {
		return c
	}
	sum := 0
	for _, s := range scores {
		sum += s
	}
	avg := round(float64(sum)/float64(len(scores)), 2)
	c.Average = &avg
	return c
}

func round(v float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(v*p) / p
}
