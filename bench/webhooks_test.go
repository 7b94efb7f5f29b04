package bench

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/storage"
	"chatsvc/support"
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

		var seen sync.Map
		var unique, total atomic.Int64
		var gapMu sync.Mutex
		var lastHit time.Time
		var maxGap time.Duration // longest pause between two requests: a stall shows here
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			gapMu.Lock()
			if now := time.Now(); !lastHit.IsZero() && now.Sub(lastHit) > maxGap {
				maxGap = now.Sub(lastHit)
			}
			lastHit = time.Now()
			gapMu.Unlock()
			body, _ := io.ReadAll(r.Body)
			var p struct{ ID string }
			json.Unmarshal(body, &p)
			total.Add(1)
			if _, dup := seen.LoadOrStore(p.ID, true); !dup {
				unique.Add(1)
			}
		}))
		if _, err := svc.CreateWebhookEndpoint(ctx, support.Test, app.WebhookEndpointInput{
			URL: app.Value(recv.URL), Events: app.Value([]string{"*"})}); err != nil {
			b.Fatal(err)
		}
		data := json.RawMessage(`{"id":"ctc_bench","object":"contact","email":"bench@example.com"}`)
		for i := 0; i < queuedEvents; i += 500 {
			err := db.Write(ctx, func(q *storage.Q) error {
				for j := 0; j < 500; j++ {
					if err := q.InsertEvent(ctx, &support.Event{ID: app.NewID(app.PrefixEvent), Mode: support.Test,
						Type: app.EventContactCreated, ObjectID: "ctc_bench", Data: data, CreatedAt: support.At(time.Now())}); err != nil {
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
		deadline := start.Add(5 * time.Minute)
		for {
			n, err := db.Read().QueuedWebhooks(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if unique.Load() == queuedEvents && n == 0 {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("not drained: %d of %d received, %d queued", unique.Load(), queuedEvents, n)
			}
			time.Sleep(2 * time.Millisecond)
		}
		drain := time.Since(start)
		stop()
		wg.Wait()
		recv.Close()
		db.Close()

		rate := float64(queuedEvents) / drain.Seconds()
		b.ReportMetric(rate, "deliveries/s")
		b.ReportMetric(drain.Seconds(), "drain_s")
		b.ReportMetric(float64(queuedEvents-unique.Load()), "lost")
		b.ReportMetric(float64(total.Load()-unique.Load()), "duplicates")
		b.ReportMetric(float64(maxGap.Milliseconds()), "max_gap_ms")
		b.Logf("%d queued events delivered in %v: %.0f deliveries/s; lost %d, sent twice %d; longest pause %v",
			queuedEvents, drain.Round(time.Millisecond), rate, queuedEvents-unique.Load(), total.Load()-unique.Load(),
			maxGap.Round(time.Millisecond))
	}
}
