package webhooks

import (
	"context"
	"sync"
	"time"

	"chatsvc/app"
	"chatsvc/storage"
)

// Options bound the delivery work.
type Options struct {
	PerEndpoint int           // requests in flight to one endpoint; default 8
	InFlight    int           // requests in flight in all; default 64
	Every       time.Duration // how often due retries are looked for; default 1s
	FanOutBatch int           // events fanned out per transaction; default 500
}

func (o Options) withDefaults() Options {
	if o.PerEndpoint <= 0 {
		o.PerEndpoint = 8
	}
	if o.InFlight <= 0 {
		o.InFlight = 64
	}
	if o.InFlight < o.PerEndpoint {
		o.InFlight = o.PerEndpoint
	}
	if o.Every <= 0 {
		o.Every = time.Second
	}
	if o.FanOutBatch <= 0 {
		o.FanOutBatch = 500
	}
	return o
}

// Deliverer sends due deliveries. Which deliveries are in flight is kept
// in memory only: after a crash nothing is in flight, and every delivery
// not recorded as done is due again, so it is sent again (at least once)
// while a recorded success is never repeated.
type Deliverer struct {
	svc    *app.Service
	sender app.WebhookSender
	o      Options
	wake   chan struct{} // a send finished or deliveries were queued

	dispatching sync.Mutex // one dispatch round at a time

	mu       sync.Mutex
	inFlight map[int64]bool // queue row ids being sent
	// finished holds the sends that ended during the current dispatch
	// round: its query may have read their rows before they were deleted,
	// and they must not start again.
	finished    map[int64]bool
	perEndpoint map[string]int
	total       int
	running     sync.WaitGroup
}

// New returns a Deliverer for svc's deliveries, sending with sender.
func New(svc *app.Service, sender app.WebhookSender, o Options) *Deliverer {
	d := &Deliverer{svc: svc, sender: sender, o: o.withDefaults(), wake: make(chan struct{}, 1),
		inFlight: map[int64]bool{}, finished: map[int64]bool{}, perEndpoint: map[string]int{}}
	svc.WakeOn(storage.QueueDeliveries, d.wake) // a resend is sent at once
	return d
}

// Workers returns the two loops serve runs: the fan-out, woken by commits
// that record events, and the sender, woken when deliveries are queued (by
// the fan-out or a resend) or a send finished, and every Options.Every for
// retries coming due.
func (d *Deliverer) Workers() []app.Worker {
	return []app.Worker{
		{Name: "webhooks.fanout", Every: 5 * time.Second, Wake: d.svc.Wakeup(storage.QueueEvents), Step: d.fanOut},
		{Name: "webhooks.send", Every: d.o.Every, Wake: d.wake, Step: d.dispatch, Drain: d.running.Wait},
	}
}

func (d *Deliverer) signal() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// fanOut queues deliveries for events written since the last round.
func (d *Deliverer) fanOut(ctx context.Context) (bool, error) {
	more, queued, err := d.svc.FanOutWebhooks(ctx, d.o.FanOutBatch)
	if queued > 0 {
		d.signal()
	}
	return more, err
}

// dispatch starts a send for each due delivery, endpoint by endpoint, as
// far as the bounds allow, and returns without waiting for them: a slow
// receiver holds only its own endpoint's slots.
func (d *Deliverer) dispatch(ctx context.Context) (bool, error) {
	if ctx.Err() != nil {
		return false, nil // shutting down: start nothing new
	}
	d.dispatching.Lock()
	defer d.dispatching.Unlock()
	d.mu.Lock()
	d.finished = map[int64]bool{}
	d.mu.Unlock()
	endpoints, err := d.svc.DueWebhookEndpoints(ctx)
	if err != nil {
		return false, err
	}
	for _, id := range endpoints {
		d.mu.Lock()
		busy := d.perEndpoint[id]
		room := min(d.o.PerEndpoint-busy, d.o.InFlight-d.total)
		d.mu.Unlock()
		if room <= 0 {
			continue
		}
		// The first rows may be those already in flight: ask for enough.
		jobs, err := d.svc.DueWebhookJobs(ctx, id, room+busy)
		if err != nil {
			return false, err
		}
		for _, j := range jobs {
			if room == 0 {
				break
			}
			if d.start(ctx, j) {
				room--
			}
		}
	}
	return false, nil
}

// start sends j in the background unless it is in flight already.
func (d *Deliverer) start(ctx context.Context, j *app.WebhookJob) bool {
	d.mu.Lock()
	if d.inFlight[j.Send.ID] || d.finished[j.Send.ID] {
		d.mu.Unlock()
		return false
	}
	d.inFlight[j.Send.ID] = true
	d.perEndpoint[j.Send.EndpointID]++
	d.total++
	d.running.Add(1)
	d.mu.Unlock()
	// A send that started is finished and recorded even when shutdown
	// begins (Drain waits for it, within webhooks.timeout): cutting it
	// would send again what the receiver may have acknowledged.
	ctx = context.WithoutCancel(ctx)
	go func() {
		defer d.running.Done()
		defer d.finish(j)
		at := d.svc.Now()
		res := d.sender.Send(ctx, j.URL, j.Secret, j.Payload, at)
		if err := d.svc.RecordWebhookAttempt(ctx, j, at, res); err != nil {
			logError("record webhook attempt", err)
		}
	}()
	return true
}

func (d *Deliverer) finish(j *app.WebhookJob) {
	d.mu.Lock()
	delete(d.inFlight, j.Send.ID)
	d.finished[j.Send.ID] = true
	if d.perEndpoint[j.Send.EndpointID]--; d.perEndpoint[j.Send.EndpointID] <= 0 {
		delete(d.perEndpoint, j.Send.EndpointID)
	}
	d.total--
	d.mu.Unlock()
	d.signal()
}

// Flush fans out every event written so far, sends every delivery due by
// the service's clock, and waits for the results, until nothing is due.
// Tests move a fake clock and call it instead of waiting for the loops.
func (d *Deliverer) Flush(ctx context.Context) error {
	for {
		for {
			more, err := d.fanOut(ctx)
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
		if _, err := d.dispatch(ctx); err != nil {
			return err
		}
		d.mu.Lock()
		idle := d.total == 0
		d.mu.Unlock()
		if idle {
			return nil
		}
		d.running.Wait()
	}
}
