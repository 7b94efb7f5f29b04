package storage

import "context"

// Queue names the kinds of queued work a write can add, so that after it
// commits only the workers doing that kind of work are woken.
type Queue uint8

const (
	QueueEvents     Queue = 1 << iota // events, for the webhook fan-out
	QueueMail                         // e-mails in the outbox
	QueueAssistant                    // visitor messages for the assistant (or a slot freed by an answer)
	QueueKnowledge                    // knowledge sources to sync or index
	QueueDeliveries                   // webhook deliveries to send
)

// queued notes that the running write added work of kind k.
func (q *Q) queued(k Queue) { q.added |= k }

// WriteQueuing is Write that also reports the kinds of work the committed
// fn queued (none when it failed).
func (db *DB) WriteQueuing(ctx context.Context, fn func(*Q) error) (Queue, error) {
	j := &writeJob{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case db.jobs <- j:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	// Once queued, the job may commit even if ctx ends: report what happened.
	if err := <-j.done; err != nil {
		return 0, err
	}
	return j.added, nil
}
