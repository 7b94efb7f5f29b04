package app

import (
	"sync"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// keyCache remembers the mode of API keys already found valid, so most
// requests skip the database read that profiles showed costing a fifth of
// a conversation read. A revocation by this process empties it at once. A
// revocation by another process (`chatsvc keys revoke` beside serve) grows
// a marker file beside the database after it commits; the cache reads the
// marker's size and time at most once per markerEvery, not at every
// request (a stat was 4% of a read's CPU), and forgets everything when they
// changed: such a revocation takes effect within a second.
type keyCache struct {
	mu        sync.Mutex
	stamp     storage.RevocationStamp // the marker's state when last read
	checkedAt time.Time               // when it was read; zero: never
	epoch     uint64                  // moves on whenever the cache is emptied
	modes     map[string]chat.Mode    // by key hash; valid keys only, so unknown keys cannot grow it
	hits      int                     // for tests
}

// markerEvery is how often the revocation marker is read.
const markerEvery = time.Second

// begin starts a check of a key at now: it reads the marker (with read) if
// it was last read markerEvery ago or more (or the clock went back),
// emptying the cache if it changed, and returns the epoch a lookup made now
// must pass to put.
func (c *keyCache) begin(now time.Time, read func() (storage.RevocationStamp, error)) (uint64, error) {
	c.mu.Lock()
	since := now.Sub(c.checkedAt)
	fresh := !c.checkedAt.IsZero() && since >= 0 && since < markerEvery
	epoch := c.epoch
	c.mu.Unlock()
	if fresh {
		return epoch, nil
	}
	stamp, err := read()
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if stamp != c.stamp {
		c.stamp = stamp
		c.forgetLocked()
	}
	c.checkedAt = now
	return c.epoch, nil
}

// get returns the cached mode of hash.
func (c *keyCache) get(hash string) (chat.Mode, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.modes[hash]
	if ok {
		c.hits++
	}
	return m, ok
}

// put remembers a key found valid by a lookup that began at epoch; if the
// cache was emptied since, the lookup may predate a revocation and nothing
// is stored.
func (c *keyCache) put(hash string, mode chat.Mode, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if c.modes == nil {
		c.modes = map[string]chat.Mode{}
	}
	c.modes[hash] = mode
}

// forget empties the cache: a key was revoked.
func (c *keyCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgetLocked()
}

func (c *keyCache) forgetLocked() {
	c.modes = nil
	c.epoch++
}
