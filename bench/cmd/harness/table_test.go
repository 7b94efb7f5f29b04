package main

import (
	"strings"
	"testing"
	"time"

	"chatsvc/bench/seed"
)

// The reference rows are shown but are no ceilings: no row's ratio is taken
// to them in the table; the write rows are set against the single-row one
// without fsync below the table, and ticket creates against a ticket's
// rows, durable and without fsync.
func TestTableSetsWritesAgainstTheReference(t *testing.T) {
	rows := []result{
		{name: "ceiling: raw SQLite write tx (1 conn)", n: 1000, elapsed: time.Second},
		{name: "reference: the same without fsync", n: 20000, elapsed: time.Second, ceiling: "reference"},
		{name: "reference: a ticket's rows per tx", n: 800, elapsed: time.Second, ceiling: "ticket rows"},
		{name: "reference: a ticket's rows, no fsync", n: 8000, elapsed: time.Second, ceiling: "ticket rows without fsync"},
		{name: "ticket create", n: 2000, elapsed: time.Second, ceiling: "sqlite", ratio: 2},
		{name: "agent message create", n: 5000, elapsed: time.Second, ceiling: "sqlite", ratio: 5},
		{name: "get conversation", n: 9000, elapsed: time.Second, ceiling: "http", ratio: 0.3},
	}
	var b strings.Builder
	printTable(&b, options{clients: 16, phase: time.Second}, seed.Of(0.001), time.Second, rows, 1<<20, 2<<20, 3<<20, time.Minute)
	out := b.String()
	for _, want := range []string{
		"| reference: the same without fsync        |    20000 |",
		"(not a ceiling)",
		"5.000 of raw SQLite tx",
		"0.300 of trivial handler",
		"| reference: a ticket's rows per tx        |      800 |",
		"| reference: a ticket's rows, no fsync     |     8000 |",
		"2.000 of raw SQLite tx",
		"writes against raw SQLite without fsync: ticket create 0.100, agent message create 0.250\n",
		"ticket creates against a ticket's rows in raw SQLite, one ticket a tx: 2.500 durable, 0.250 without fsync\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
