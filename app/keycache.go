package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"chatsvc/chat"
)

// keyCache remembers the mode of API keys already found valid, so most
// requests skip the database read that profiles showed costing a fifth of
// a conversation read. Revocations take effect at once even when `chatsvc
// keys revoke` runs in another process beside serve: every revocation
// grows a marker file beside the database after it commits, and the cache
// forgets everything whenever the marker's size or time differs from when
// an entry was stored. A stat costs far less than the lookup it replaces.
type keyCache struct {
	mu    sync.Mutex
	stamp markerStamp
	modes map[string]chat.Mode // by key hash; valid keys only, so unknown keys cannot grow it
	hits  int                  // for tests
}

// markerStamp is what identifies one state of the marker file.
type markerStamp struct {
	size    int64
	modTime time.Time
	exists  bool
}

// revocationMarker is the marker file of the database at dbPath.
func revocationMarker(dbPath string) string { return dbPath + "-revocations" }

func readStamp(path string) (markerStamp, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return markerStamp{}, nil
	}
	if err != nil {
		return markerStamp{}, err
	}
	return markerStamp{size: fi.Size(), modTime: fi.ModTime(), exists: true}, nil
}

// get returns the cached mode of hash, if stamp is still the marker's state.
func (c *keyCache) get(hash string, stamp markerStamp) (chat.Mode, bool) {
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
func (c *keyCache) put(hash string, mode chat.Mode, stamp markerStamp) {
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

// markRevocation grows the marker file, which every process's key cache
// checks before trusting what it holds. It runs after the revocation has
// committed.
func markRevocation(dbPath string) error {
	f, err := os.OpenFile(revocationMarker(dbPath), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("key revoked, but running servers may accept it until restarted: %w", err)
	}
	_, err = f.Write([]byte{'\n'})
	return errors.Join(err, f.Close())
}
