package app

import (
	"runtime"
	"sync"
	"time"

	"chatsvc/chat"
)

// searchWait is how long a search waits for a free slot when every core is
// searching already, before it is refused as rate_limited.
const searchWait = time.Second

// newSearchSlots bounds the searches run at once to the cores: a search is
// all CPU inside SQLite, and more at once only share the cores and the C
// library's allocator, so every search of a burst takes longer.
func newSearchSlots() slots {
	return newSlots(runtime.NumCPU(), searchWait, "The search is busy at this moment. Try again in a second.")
}

// maxCachedSearches bounds the answers kept: a full page of results is
// about 10 kB, so a few MB at most.
const maxCachedSearches = 256

// searchCache keeps the answers to searches until the next write: agents
// at a busy desk run the same searches again (the list refreshed, a page
// back), and a search costs milliseconds of CPU where the answer kept costs
// a map lookup. An answer is kept with the database's write generation it
// was read at and given out only while that is still current, so a write
// anywhere, committed before or during the search, makes it stale.
type searchCache struct {
	mu      sync.Mutex
	gen     uint64 // the generation the kept answers were read at
	answers map[searchKey]List[*chat.SearchResult]
}

// searchKey is what a search's answer depends on.
type searchKey struct {
	mode          chat.Mode
	match, typ    string
	offset, limit int
}

// get returns the answer kept for k if it was read at generation gen.
func (c *searchCache) get(k searchKey, gen uint64) (List[*chat.SearchResult], bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return List[*chat.SearchResult]{}, false
	}
	l, ok := c.answers[k]
	return l, ok
}

// put keeps the answer for k read at generation gen, unless a later
// generation's answers are kept already (a write has made it stale).
func (c *searchCache) put(k searchKey, gen uint64, l List[*chat.SearchResult]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen < c.gen {
		return
	}
	if gen > c.gen || c.answers == nil || len(c.answers) >= maxCachedSearches {
		c.gen, c.answers = gen, map[searchKey]List[*chat.SearchResult]{}
	}
	c.answers[k] = l
}
