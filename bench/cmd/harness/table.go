package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"chatsvc/bench/seed"
)

// printTable writes the run's figures as a Markdown table, with the
// machine and the data they were taken on.
func printTable(w io.Writer, o options, sc seed.Scale, seedTime time.Duration, rows []result, idleRSS, loadRSS, dbSize int64, total time.Duration) {
	fmt.Fprintf(w, "chatsvc harness: %s/%s, %d CPUs, %s; %d clients, %v per phase\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel(), o.clients, o.phase)
	fmt.Fprintf(w, "data: %d messages in %d conversations, %d tickets, %d contacts (seeded in %v)\n\n",
		sc.Messages, sc.Conversations, sc.Tickets, sc.Contacts, seedTime.Round(time.Millisecond))
	fmt.Fprintf(w, "| %-40s | %8s | %7s | %7s | %6s | %9s | %-26s |\n", "what", "per s", "p50 ms", "p99 ms", "errors", "CPU µs/op", "ratio to ceiling")
	fmt.Fprintf(w, "|%s|%s:|%s:|%s:|%s:|%s:|%s|\n", strings.Repeat("-", 42), strings.Repeat("-", 9), strings.Repeat("-", 8), strings.Repeat("-", 8), strings.Repeat("-", 7), strings.Repeat("-", 10), strings.Repeat("-", 28))
	for _, r := range rows {
		p50, p99, cpu, ratio := "-", "-", "-", "-"
		if r.p50 > 0 {
			p50, p99 = ms(r.p50), ms(r.p99)
		}
		if r.cpu > 0 {
			cpu = fmt.Sprintf("%.0f", float64(r.cpu.Nanoseconds())/1000)
		}
		switch r.ceiling {
		case "sqlite":
			ratio = fmt.Sprintf("%.3f of raw SQLite tx", r.ratio)
		case "http":
			ratio = fmt.Sprintf("%.3f of trivial handler", r.ratio)
		case refUnsynced, refTicket, refTicketUnsynced:
			ratio = "(not a ceiling)"
		}
		fmt.Fprintf(w, "| %-40s | %8.0f | %7s | %7s | %6d | %9s | %-26s |\n", r.name, r.rate(), p50, p99, r.errors, cpu, ratio)
	}
	if line := againstUnsynced(rows); line != "" {
		fmt.Fprintf(w, "\nwrites against raw SQLite without fsync: %s\n", line)
	}
	if line := againstTicketRows(rows); line != "" {
		fmt.Fprintf(w, "ticket creates against a ticket's rows in raw SQLite, one ticket a tx: %s\n", line)
	}
	fmt.Fprintf(w, "\nresident memory: %s idle, %s peak under load; database %s; whole run %v\n",
		mb(idleRSS), mb(loadRSS), mb(dbSize), total.Round(time.Second))
}

// againstUnsynced gives each write row's rate as a share of the raw
// writes without fsync: how close the writes come to the CPU's limit,
// with the cost of durable commits left out of the ceiling.
func againstUnsynced(rows []result) string {
	ref := refRate(rows, refUnsynced)
	var parts []string
	for _, r := range rows {
		if r.ceiling == "sqlite" && ref > 0 {
			parts = append(parts, fmt.Sprintf("%s %.3f", r.name, r.rate()/ref))
		}
	}
	return strings.Join(parts, ", ")
}

// againstTicketRows gives the ticket create row's rate as a share of the
// same rows written one ticket per transaction in raw SQLite, durable and
// without fsync (ticket_rows.go): the cost of the server around the
// writes, with the writes themselves the same.
func againstTicketRows(rows []result) string {
	durable, nosync := refRate(rows, refTicket), refRate(rows, refTicketUnsynced)
	for _, r := range rows {
		if r.name == ticketCreatePhase && durable > 0 && nosync > 0 {
			return fmt.Sprintf("%.3f durable, %.3f without fsync", r.rate()/durable, r.rate()/nosync)
		}
	}
	return ""
}

// refRate is the rate of the reference row of that kind, 0 without one.
func refRate(rows []result, kind string) float64 {
	for _, r := range rows {
		if r.ceiling == kind {
			return r.rate()
		}
	}
	return 0
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000) }

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// cpuModel is the processor's name from /proc/cpuinfo, if there is one.
func cpuModel() string {
	b, err := readFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(b, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
