package app

import "sync"

// changes tells subscribers, without blocking, that a write was committed.
// Live updates (the widget's event stream, the dashboard's inbox) look
// again at what they follow when signalled. A visitor's updates follow only their own conversation:
// signalling every open widget after every write would make each write cost
// a read per visitor online.
type changes struct {
	mu   sync.Mutex
	all  map[*Subscription]struct{}            // signalled after every write
	byID map[string]map[*Subscription]struct{} // after writes that changed the id
}

// Subscription is signalled on C (at most one signal pending) after
// committed writes that changed what it follows.
type Subscription struct {
	C   <-chan struct{}
	c   chan struct{}
	of  *changes
	ids []string // what a ChangesOf subscription follows
}

func (c *changes) signal(ids []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for sub := range c.all {
		sub.notify()
	}
	for _, id := range ids {
		for sub := range c.byID[id] {
			sub.notify()
		}
	}
}

func (sub *Subscription) notify() {
	select {
	case sub.c <- struct{}{}:
	default: // a signal is pending already; one is enough
	}
}

// Changes returns a subscription signalled after every committed write.
func (s *Service) Changes() *Subscription {
	c := &s.changes
	sub := newSubscription(c)
	c.mu.Lock()
	if c.all == nil {
		c.all = map[*Subscription]struct{}{}
	}
	c.all[sub] = struct{}{}
	c.mu.Unlock()
	return sub
}

// ChangesOf returns a subscription signalled after committed writes that
// changed the messages or state of the conversations with these ids, or the
// conversations of the visitors with these ids.
func (s *Service) ChangesOf(ids ...string) *Subscription {
	sub := newSubscription(&s.changes)
	sub.Follow(ids...)
	return sub
}

func newSubscription(c *changes) *Subscription {
	ch := make(chan struct{}, 1)
	return &Subscription{C: ch, c: ch, of: c}
}

// Follow replaces the ids a ChangesOf subscription follows.
func (sub *Subscription) Follow(ids ...string) {
	c := sub.of
	c.mu.Lock()
	defer c.mu.Unlock()
	sub.unfollow()
	if c.byID == nil {
		c.byID = map[string]map[*Subscription]struct{}{}
	}
	for _, id := range ids {
		if c.byID[id] == nil {
			c.byID[id] = map[*Subscription]struct{}{}
		}
		c.byID[id][sub] = struct{}{}
	}
	sub.ids = ids
}

// unfollow drops sub's ids; c.mu is held.
func (sub *Subscription) unfollow() {
	c := sub.of
	for _, id := range sub.ids {
		delete(c.byID[id], sub)
		if len(c.byID[id]) == 0 {
			delete(c.byID, id)
		}
	}
	sub.ids = nil
}

// Stop ends the signals.
func (sub *Subscription) Stop() {
	c := sub.of
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.all, sub)
	sub.unfollow()
}
