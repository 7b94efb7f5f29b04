package app

import (
	"testing"
	"time"
)

func TestAvailability(t *testing.T) {
	weekdays := [][2]string{{"09:00", "17:00"}}
	berlin := &BusinessHours{Timezone: "Europe/Berlin", Holidays: []string{"2026-12-25"}, Weekly: map[string][][2]string{
		"mon": weekdays, "tue": weekdays, "wed": weekdays, "thu": weekdays, "fri": weekdays,
		"sun": {{"01:00", "04:00"}}}}
	ny := &BusinessHours{Timezone: "America/New_York", Weekly: map[string][][2]string{"mon": weekdays, "fri": weekdays}}
	gap := &BusinessHours{Timezone: "Europe/Berlin", Weekly: map[string][][2]string{"sun": {{"02:30", "05:00"}}}}
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		name   string
		h      *BusinessHours
		now    string
		online bool
		next   string // "" for none
	}{
		{"always open", nil, "2026-03-29T01:30:00Z", true, ""},
		{"in hours, winter", berlin, "2026-03-23T08:30:00Z", true, ""},                          // 09:30 CET
		{"before hours, winter", berlin, "2026-03-23T07:30:00Z", false, "2026-03-23T08:00:00Z"}, // 08:30 CET
		{"weekend across spring-forward", berlin, "2026-03-28T12:00:00Z", false, "2026-03-29T00:00:00Z"},
		{"spring-forward night, after the jump", berlin, "2026-03-29T01:30:00Z", true, ""}, // 03:30 CEST
		{"spring-forward night, closed at 04:00 CEST", berlin, "2026-03-29T02:00:00Z", false, "2026-03-30T07:00:00Z"},
		{"a start in the skipped hour opens when the clock reaches it", gap, "2026-03-29T01:00:00Z", false, "2026-03-29T01:30:00Z"},
		{"a holiday is closed all day", berlin, "2026-12-24T23:00:00Z", false, "2026-12-27T00:00:00Z"}, // Sunday night, not Friday
		{"New York, Friday evening before spring-forward", ny, "2026-03-06T22:00:00Z", false, "2026-03-09T13:00:00Z"},
		{"New York, Monday after, in hours", ny, "2026-03-09T13:00:00Z", true, ""},
		{"no hours at all", &BusinessHours{Timezone: "UTC"}, "2026-03-09T13:00:00Z", false, ""},
		{"three weeks of holidays", &BusinessHours{Timezone: "UTC", Weekly: map[string][][2]string{"fri": weekdays},
			Holidays: []string{"2026-12-04", "2026-12-11", "2026-12-18", "2026-12-25"}}, "2026-12-01T12:00:00Z", false, "2027-01-01T09:00:00Z"},
	} {
		online, next := c.h.Availability(utc(c.now))
		got := ""
		if next != nil {
			got = next.UTC().Format(time.RFC3339)
		}
		if online != c.online || got != c.next {
			t.Errorf("%s: online %v, next %q; want %v, %q", c.name, online, got, c.online, c.next)
		}
	}
}
