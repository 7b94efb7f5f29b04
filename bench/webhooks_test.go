package bench

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/webhooks"
)

// queuedEvents is how many events wait when delivery starts.
const queuedEvents = 10000

// BenchmarkWebhookDelivery writes 10,000 events with one endpoint
// subscribed to all of them, then starts the webhook workers and measures
// the time until a local receiver has every event and nothing is queued:
// fan-out, signing, HTTP over loopback and recording each attempt. It
// reports deliveries/s, the drain time, and events lost or sent twice.
//
//	go test ./bench -run '^$' -bench WebhookDelivery -benchtime 1x
func BenchmarkWebhookDelivery(b *testing.B) {
	for b.Loop() {
		ctx := context.Background()
		db, err := storage.Open(ctx, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		sender := webhooks.NewSender(webhooks.SenderOptions{AllowPrivate: true, Timeout: 10 * time.Second})
		svc := app.New(db, app.Options{Webhooks: app.WebhookOptions{AllowHTTP: true, AllowPrivate: true, Sender: sender}})

		recv := testenv.NewReceiver(b, nil, nil)
		if _, err := svc.CreateWebhookEndpoint(ctx, chat.Test, app.WebhookEndpointInput{
			URL: app.Value(recv.URL()), Events: app.Value([]string{"*"})}); err != nil {
			b.Fatal(err)
		}
		data := json.RawMessage(`{"id":"ctc_bench","object":"contact","email":"bench@example.com"}`)
		for i := 0; i < queuedEvents; i += 500 {
			err := db.Write(ctx, func(q *storage.Q) error {
				for j := 0; j < 500; j++ {
					if err := q.InsertEvent(ctx, &chat.Event{ID: app.NewID(app.PrefixEvent), Mode: chat.Test,
						Type: chat.EventContactCreated, ObjectID: "ctc_bench", Data: data, CreatedAt: chat.At(time.Now())}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}

		d := webhooks.New(svc, sender, webhooks.Options{})
		wctx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		start := time.Now()
		for _, w := range d.Workers() {
			wg.Add(1)
			go func() { defer wg.Done(); w.Run(wctx) }()
		}
		// Woken by each arrival, and by a tick for the last attempts, which
		// are recorded after their answer.
		tick := time.NewTicker(2 * time.Millisecond)
		deadline := time.After(5 * time.Minute)
		for drained := false; !drained; {
			select {
			case <-recv.Arrived():
			case <-tick.C:
			case <-deadline:
				b.Fatalf("not drained: %d of %d received", len(recv.Hits()), queuedEvents)
			}
			drained = recv.Len() >= queuedEvents && distinct(recv.Hits()) == queuedEvents && queued(b, db) == 0
		}
		tick.Stop()
		drain := time.Since(start)
		stop()
		wg.Wait()
		db.Close()

		hits := recv.Hits()
		unique, total := distinct(hits), len(hits)
		var maxGap time.Duration // longest pause between two requests: a stall shows here
		for i := 1; i < len(hits); i++ {
			maxGap = max(maxGap, hits[i].At.Sub(hits[i-1].At))
		}
		rate := float64(queuedEvents) / drain.Seconds()
		b.ReportMetric(rate, "deliveries/s")
		b.ReportMetric(drain.Seconds(), "drain_s")
		b.ReportMetric(float64(queuedEvents-unique), "lost")
		b.ReportMetric(float64(total-unique), "duplicates")
		b.ReportMetric(float64(maxGap.Milliseconds()), "max_gap_ms")
		b.Logf("%d queued events delivered in %v: %.0f deliveries/s; lost %d, sent twice %d; longest pause %v",
			queuedEvents, drain.Round(time.Millisecond), rate, queuedEvents-unique, total-unique,
			maxGap.Round(time.Millisecond))
	}
}

// distinct counts the events among hits.
func distinct(hits []testenv.Hit) int {
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h.EventID] = true
	}
	return len(seen)
}

// queued counts the deliveries still owed.
func queued(b *testing.B, db *storage.DB) int {
	n, err := db.Read().QueuedWebhooks(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return n
}
