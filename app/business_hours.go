package app

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
	_ "time/tzdata" // time zones without the system's database, for a static binary
)

// BusinessHours are when a site's team answers: weekly hours in the site's
// time zone, less holidays.
type BusinessHours struct {
	Timezone string `json:"timezone"` // IANA name, e.g. Europe/Berlin
	// Weekly holds, for each day (mon … sun), its opening hours as
	// ["09:00", "17:30"] pairs, in order; a day without any is closed.
	Weekly   map[string][][2]string `json:"weekly"`
	Holidays []string               `json:"holidays"` // YYYY-MM-DD dates closed all day
}

// Weekdays are the keys of BusinessHours.Weekly, Monday first.
var Weekdays = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// HoursInput is the business_hours object of a site update, as received.
type HoursInput struct {
	Timezone Field[string]
	Weekly   Field[map[string]json.RawMessage]
	Holidays Field[[]string]
}

// hours validates the input, naming the field at fault
// (business_hours.weekly.mon.0), and returns the schedule.
func (in HoursInput) hours() (*BusinessHours, error) {
	if !in.Timezone.has() {
		return nil, missing("business_hours.timezone")
	}
	if _, err := time.LoadLocation(in.Timezone.V); err != nil || in.Timezone.V == "" || in.Timezone.V == "Local" {
		return nil, invalid("business_hours.timezone", "business_hours.timezone must be an IANA time zone such as Europe/Berlin (got '%s').", in.Timezone.V)
	}
	h := &BusinessHours{Timezone: in.Timezone.V, Weekly: map[string][][2]string{}, Holidays: []string{}}
	for _, day := range Weekdays {
		h.Weekly[day] = [][2]string{}
	}
	for day, raw := range in.Weekly.V {
		param := "business_hours.weekly." + day
		if !slices.Contains(Weekdays, day) {
			return nil, Unknown(param)
		}
		spans, err := daySpans(param, raw)
		if err != nil {
			return nil, err
		}
		h.Weekly[day] = spans
	}
	if len(in.Holidays.V) > MaxHolidays {
		return nil, invalid("business_hours.holidays", "business_hours.holidays can hold at most %d dates.", MaxHolidays)
	}
	for i, d := range in.Holidays.V {
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			p := "business_hours.holidays." + strconv.Itoa(i)
			return nil, invalid(p, "%s must be a date written YYYY-MM-DD (got '%s').", p, d)
		}
		h.Holidays = append(h.Holidays, d)
	}
	return h, nil
}

// daySpans reads one day's hours: pairs of HH:MM times, each starting
// before it ends and after the one before.
func daySpans(param string, raw json.RawMessage) ([][2]string, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalid(param, `%s must be an array of ["HH:MM", "HH:MM"] pairs.`, param)
	}
	spans := make([][2]string, 0, len(items))
	prevEnd := -1
	for i, item := range items {
		p := param + "." + strconv.Itoa(i)
		var pair []string // not [2]string, which would drop a third item
		if err := json.Unmarshal(item, &pair); err != nil || len(pair) != 2 {
			return nil, invalid(p, `%s must be a pair of times such as ["09:00", "17:30"].`, p)
		}
		span := [2]string(pair)
		start, ok1 := minuteOfDay(span[0])
		end, ok2 := minuteOfDay(span[1])
		switch {
		case !ok1 || !ok2 || start == 24*60:
			return nil, invalid(p, `%s must hold times from "00:00" to "24:00" (got ["%s", "%s"]).`, p, span[0], span[1])
		case end <= start:
			return nil, invalid(p, "%s must end after it starts (got %s to %s).", p, span[0], span[1])
		case start < prevEnd:
			return nil, invalid(p, "%s must start after the hours before it end.", p)
		}
		prevEnd = end
		spans = append(spans, span)
	}
	return spans, nil
}

// minuteOfDay reads "HH:MM" (00:00 to 24:00): two digits, a colon, two
// digits, nothing else.
func minuteOfDay(v string) (int, bool) {
	if len(v) != 5 || v[2] != ':' {
		return 0, false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
	}
	h, m := int(v[0]-'0')*10+int(v[1]-'0'), int(v[3]-'0')*10+int(v[4]-'0')
	if h > 24 || m > 59 || h == 24 && m != 0 {
		return 0, false
	}
	return h*60 + m, true
}

// Availability tells whether the team is in at now and, when not, when it
// next is (nil when the schedule has no hours at all). Times are read in
// the site's time zone, so a day across a daylight-saving change keeps its
// local opening times.
func (h *BusinessHours) Availability(now time.Time) (online bool, nextOpen *time.Time) {
	if h == nil {
		return true, nil
	}
	loc, err := time.LoadLocation(h.Timezone)
	if err != nil {
		return true, nil // checked when saved: only a vanished zone gets here
	}
	open := false
	for _, spans := range h.Weekly {
		open = open || len(spans) > 0
	}
	if !open {
		return false, nil
	}
	// Far enough to pass every holiday a schedule may hold, and a week more.
	local := now.In(loc)
	for off := 0; off <= MaxHolidays+7; off++ {
		day := time.Date(local.Year(), local.Month(), local.Day()+off, 0, 0, 0, 0, loc)
		if slices.Contains(h.Holidays, day.Format(time.DateOnly)) {
			continue
		}
		for _, span := range h.Weekly[Weekdays[(int(day.Weekday())+6)%7]] {
			start, end := at(day, span[0]), at(day, span[1])
			if !now.Before(start) && now.Before(end) {
				return true, nil
			}
			if start.After(now) {
				return false, &start
			}
		}
	}
	return false, nil
}

// at is the instant of clock time hhmm on day (24:00 is the next midnight).
func at(day time.Time, hhmm string) time.Time {
	m, _ := minuteOfDay(hhmm)
	return time.Date(day.Year(), day.Month(), day.Day(), m/60, m%60, 0, 0, day.Location())
}
