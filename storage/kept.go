package storage

import (
	"container/list"
	"sync"
)

// Table names a table whose rows, read by id, may be kept in memory
// (DB.Keep) until the writer changes them.
type Table uint8

const (
	TableConversations Table = iota
	TableTickets
	TableContacts
	numTables
)

// keptTables are the kept tables' SQL names, by Table.
var keptTables = [numTables]string{"conversations", "tickets", "contacts"}

// keptBytes bounds the memory the kept values take, their bytes and about
// 150 more for each entry's bookkeeping: tens of thousands of API objects.
const keptBytes = 16 << 20

// keptOverhead is what an entry costs beside its value's bytes (the map
// slot, the list element, the entry and its strings' headers).
const keptOverhead = 150

// keptRows holds values made from single rows read by id (for the API, their
// rendered JSON), the least recently used dropped first. The writer forgets
// the rows each batch changed after it commits and before the batch's writes
// return; a value read before such a forget is refused by Keep (see
// readAt), so a write acknowledged to one client is never followed by a
// stale read by another.
type keptRows struct {
	mu    sync.Mutex
	byKey map[keptKey]*list.Element // of *keptEntry
	order list.List                 // most recently used first
	size  int
	limit int
	// changedAt is, per table, the generation of the last batch that
	// changed any of its rows: a value read at an earlier generation may
	// have been read before that change.
	changedAt [numTables]uint64
}

type keptKey struct {
	table Table
	id    string
}

type keptEntry struct {
	key   keptKey
	scope string // who may see it (a mode): a read in another scope misses
	value []byte
}

func newKeptRows(limit int) *keptRows {
	return &keptRows{byKey: map[keptKey]*list.Element{}, limit: limit}
}

// Kept returns the value kept for the row of t with id, if one is kept for
// scope. The caller must not change it.
func (db *DB) Kept(t Table, id, scope string) ([]byte, bool) {
	k := db.kept
	k.mu.Lock()
	defer k.mu.Unlock()
	el, ok := k.byKey[keptKey{t, id}]
	if !ok {
		return nil, false
	}
	e := el.Value.(*keptEntry)
	if e.scope != scope {
		return nil, false
	}
	k.order.MoveToFront(el)
	return e.value, true
}

// Keep keeps value for the row of t with id, made from a read that began
// at generation readAt (DB.Generation, taken before the read). If a batch
// that changed a row of t has committed since readAt, the read may predate
// it and nothing is kept. value must not be changed afterwards.
func (db *DB) Keep(t Table, id, scope string, value []byte, readAt uint64) {
	k := db.kept
	k.mu.Lock()
	defer k.mu.Unlock()
	if readAt < k.changedAt[t] || len(value)+keptOverhead > k.limit {
		return
	}
	key := keptKey{t, id}
	if el, ok := k.byKey[key]; ok {
		k.remove(el)
	}
	e := &keptEntry{key: key, scope: scope, value: value}
	k.byKey[key] = k.order.PushFront(e)
	k.size += e.cost()
	for k.size > k.limit {
		k.remove(k.order.Back())
	}
}

func (e *keptEntry) cost() int { return len(e.value) + len(e.key.id) + len(e.scope) + keptOverhead }

func (k *keptRows) remove(el *list.Element) {
	e := k.order.Remove(el).(*keptEntry)
	delete(k.byKey, e.key)
	k.size -= e.cost()
}

// forget drops what the batch of generation gen changed: the rows named by
// id, and every row of the tables it changed in ways not named by id.
func (k *keptRows) forget(c *changedRows, gen uint64) {
	if c.empty() {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for t := range numTables {
		if c.whole&(1<<t) != 0 {
			k.changedAt[t] = gen
			for _, el := range k.byKey {
				if e := el.Value.(*keptEntry); e.key.table == t {
					k.remove(el)
				}
			}
			continue
		}
		if len(c.ids[t]) > 0 {
			k.changedAt[t] = gen
		}
		for _, id := range c.ids[t] {
			if el, ok := k.byKey[keptKey{t, id}]; ok {
				k.remove(el)
			}
		}
	}
}

// len reports how many values are kept.
func (k *keptRows) len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.byKey)
}

// KeptRows reports how many rows are kept in memory.
func (db *DB) KeptRows() int { return db.kept.len() }
