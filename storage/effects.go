package storage

// Queue names the kinds of queued work a write can add, so that after it
// commits only the workers doing that kind of work are woken.
type Queue uint8

const (
	QueueEvents     Queue = 1 << iota // events, for the webhook fan-out
	QueueMail                         // e-mails in the outbox
	QueueAssistant                    // visitor messages for the assistant (or a slot freed by an answer)
	QueueKnowledge                    // knowledge sources to sync or index
	QueueDeliveries                   // webhook deliveries to send
	QueuePushes                       // Web Push notifications to send
)

// Effects is what a committed write did that others wait for.
type Effects struct {
	Queued Queue // the kinds of work it queued
	// Changed holds the ids of the conversations whose messages or state it
	// changed, and of the visitors whose list of conversations it changed:
	// what a visitor's live updates follow.
	Changed []string
}

// queued notes that the running write added work of kind k.
func (q *Q) queued(k Queue) { q.effects.Queued |= k }

// changed notes that the running write changed the conversations or
// visitors with these ids (nil ones are skipped).
func (q *Q) changed(ids ...*string) {
	for _, id := range ids {
		if id != nil {
			q.effects.Changed = append(q.effects.Changed, *id)
		}
	}
}
