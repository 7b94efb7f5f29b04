package app

import "sync"

// changes tells subscribers, without blocking, that a write was committed.
// Live updates (the widget's event stream, a visitor waiting for the
// assistant's reply) look again at what they follow when signalled.
type changes struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
}

func (c *changes) signal() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for ch := range c.subs {
		select {
		case ch <- struct{}{}:
		default: // a signal is pending already; one is enough
		}
	}
}

// Changes returns a channel signalled after every committed write (at most
// one signal pending) and a function that stops the signals.
func (s *Service) Changes() (<-chan struct{}, func()) {
	c := &s.widget.changes
	ch := make(chan struct{}, 1)
	c.mu.Lock()
	if c.subs == nil {
		c.subs = map[chan struct{}]struct{}{}
	}
	c.subs[ch] = struct{}{}
	c.mu.Unlock()
	return ch, func() {
		c.mu.Lock()
		delete(c.subs, ch)
		c.mu.Unlock()
	}
}
