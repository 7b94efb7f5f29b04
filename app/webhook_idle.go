package app

import (
	"sync"
	"time"
)

// noEndpointRecheck is how long the fan-out trusts that no webhook
// endpoint is enabled before it looks in the database again.
const noEndpointRecheck = time.Second

// webhooksIdle remembers that no webhook endpoint is enabled, so that the
// fan-out worker, woken after every commit, skips the database (two reads
// and a write to move its position) while there is nowhere to send events.
// Writing an endpoint ends it at once; otherwise it lasts noEndpointRecheck.
type webhooksIdle struct {
	mu     sync.Mutex
	until  time.Time // the fan-out is skipped before then
	writes uint64    // endpoint writes so far
}

// skip reports whether the fan-out may skip the database at now.
func (w *webhooksIdle) skip(now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return now.Before(w.until)
}

// seen returns the count of endpoint writes, to pass to none.
func (w *webhooksIdle) seen() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes
}

// none records that the fan-out found no endpoint enabled at now, unless an
// endpoint was written since seen returned writes (it may be enabled).
func (w *webhooksIdle) none(writes uint64, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.writes == writes {
		w.until = now.Add(noEndpointRecheck)
	}
}

// written records that an endpoint was created or changed: the fan-out
// looks again at its next run.
func (w *webhooksIdle) written() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	w.until = time.Time{}
}
