package app

import (
	"sync"

	"chatsvc/chat"
	"chatsvc/storage"
)

// keyCache remembers the mode of API keys already found valid, so most
// requests skip the database read that profiles showed costing a fifth of
// a conversation read. Revocations take effect at once even when `chatsvc
// keys revoke` runs in another process beside serve: every revocation
// grows a marker file beside the database after it commits
// (storage.DB.MarkRevocation), and the cache forgets everything whenever
// the marker's state differs from when an entry was stored.
type keyCache struct {
	mu    sync.Mutex
	stamp storage.RevocationStamp
	modes map[string]chat.Mode // by key hash; valid keys only, so unknown keys cannot grow it
	hits  int                  // for tests
}

// get returns the cached mode of hash, if stamp is still the marker's state.
func (c *keyCache) get(hash string, stamp storage.RevocationStamp) (chat.Mode, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stamp != stamp {
		c.stamp, c.modes = stamp, nil
		return "", false
	}
	m, ok := c.modes[hash]
	if ok {
		c.hits++
	}
	return m, ok
}

// put remembers a key found valid by a read that began after the marker
// was in state stamp; if it has changed since, the read may be stale and
// nothing is stored.
func (c *keyCache) put(hash string, mode chat.Mode, stamp storage.RevocationStamp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stamp != stamp {
		return
	}
	if c.modes == nil {
		c.modes = map[string]chat.Mode{}
	}
	c.modes[hash] = mode
}
