package app

import "time"

// Retry is the one rule by which background work that failed is tried
// again: e-mails, webhook deliveries and the assistant's answers each have a
// Retry, and nothing else decides when they run next.
type Retry struct {
	// Delays are the waits after the first, second, … failed attempt.
	Delays []time.Duration
	// Repeat keeps using the last delay once Delays run out; without it the
	// work is given up then.
	Repeat bool
	// GiveUpAfter (0: never) ends the retries that long after the work
	// started, with one last attempt at that moment when FinalAttempt is set.
	GiveUpAfter  time.Duration
	FinalAttempt bool
}

// Next is when work that started at start and has now failed n times (the
// latest at at) is tried again; ok is false when it is given up.
func (r Retry) Next(n int, start, at time.Time) (next time.Time, ok bool) {
	i := n - 1
	if i >= len(r.Delays) {
		if !r.Repeat || len(r.Delays) == 0 {
			return time.Time{}, false
		}
		i = len(r.Delays) - 1
	}
	next = at.Add(r.Delays[i])
	if r.GiveUpAfter <= 0 {
		return next, true
	}
	end := start.Add(r.GiveUpAfter)
	switch {
	case !next.After(end):
		return next, true
	case r.FinalAttempt && at.Before(end):
		return end, true
	}
	return time.Time{}, false
}

// MailRetry is the outbox's rule: waits doubling from a minute to an hour,
// for three days from when the e-mail was queued.
var MailRetry = Retry{
	Delays: []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute,
		32 * time.Minute, time.Hour},
	Repeat: true, GiveUpAfter: 72 * time.Hour,
}

// assistantRetry is the assistant's rule: two more tries, then the visitor is
// told a person will follow up and the conversation is handed off.
var assistantRetry = Retry{Delays: []time.Duration{5 * time.Second, 30 * time.Second}}

// webhookRetry is the rule of webhook deliveries: the configured waits, the
// last repeating, for the retry window, with a last attempt as it closes.
func webhookRetry(o WebhookOptions) Retry {
	return Retry{Delays: o.RetryDelays, Repeat: true, GiveUpAfter: o.GiveUpAfter, FinalAttempt: true}
}

// pushRetry is the rule of Web Push notifications: three more tries within
// minutes, then dropped, since a late alert is worth little.
var pushRetry = Retry{Delays: []time.Duration{10 * time.Second, time.Minute, 5 * time.Minute}}
