package chat

// Report is the summary of one period (docs/reports.md), as the API shows it.
type Report struct {
	Object               string       `json:"object"`
	From                 Timestamp    `json:"from"`
	To                   Timestamp    `json:"to"`
	SiteID               *string      `json:"site_id"`
	Conversations        int          `json:"conversations"`
	AssistantOnly        int          `json:"assistant_only"`
	HandedOff            int          `json:"handed_off"`
	DeflectionRate       *float64     `json:"deflection_rate"`
	FirstResponseSeconds Spread       `json:"first_response_seconds"`
	ResolutionSeconds    Spread       `json:"resolution_seconds"`
	CSAT                 CSAT         `json:"csat"`
	Tickets              TicketCounts `json:"tickets"`
	ByDay                []ReportDay  `json:"by_day"`
}

// Spread is the median and 90th percentile of durations in seconds, null
// when there is nothing to measure.
type Spread struct {
	Count  int      `json:"count"`
	Median *float64 `json:"median"`
	P90    *float64 `json:"p90"`
}

// CSAT is how many conversations were rated and their average score.
type CSAT struct {
	Count   int      `json:"count"`
	Average *float64 `json:"average"`
}

// TicketCounts are the tickets created and solved in the period.
type TicketCounts struct {
	Created int `json:"created"`
	Solved  int `json:"solved"`
}

// ReportDay is one UTC day of the period.
type ReportDay struct {
	Date           string `json:"date"`
	Conversations  int    `json:"conversations"`
	HandedOff      int    `json:"handed_off"`
	TicketsCreated int    `json:"tickets_created"`
}
