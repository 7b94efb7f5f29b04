package bench

import (
	"context"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// BenchmarkReportSummary times GET /reports/summary's work for the last 30
// days on the full seeded data set (1,000,000 messages in 100,000
// conversations over 90 days, 50,000 tickets). Seeding takes about 20 s.
//
//	go test ./bench -run '^$' -bench ReportSummary -benchtime 20x
func BenchmarkReportSummary(b *testing.B) {
	ctx := context.Background()
	now := time.Now()
	s := newBenchService(b, app.Options{Now: func() time.Time { return now }})
	s.seedFull(b, chat.Live, now)
	var rep *chat.Report
	var err error
	for b.Loop() {
		if rep, err = s.svc.ReportSummary(ctx, chat.Live, app.ReportQuery{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "summary_ms")
	b.Logf("30 days: %d conversations, %d handed off, %d tickets created", rep.Conversations, rep.HandedOff, rep.Tickets.Created)
}
