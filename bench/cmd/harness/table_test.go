package main

import (
	"strings"
	"testing"
	"time"

	"chatsvc/bench/seed"
)

// The reference row is shown but is no ceiling: no row's ratio is taken to
// it in the table, and the write rows are set against it below the table.
func TestTableSetsWritesAgainstTheReference(t *testing.T) {
	rows := []result{
		{name: "ceiling: raw SQLite write tx (1 conn)", n: 1000, elapsed: time.Second},
		{name: "reference: the same without fsync", n: 20000, elapsed: time.Second, ceiling: "reference"},
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
		"writes against raw SQLite without fsync: agent message create 0.250\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
