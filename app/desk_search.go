package app

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Search limits (docs/api.md, Search).
const (
	MaxSearchQuery = 200
	MaxSearchWords = 10
)

// searchIndexEvery is how often the desk-search-index worker looks for queued
// text. It is not woken by each write on purpose: under load the texts of
// a few hundred writes then share one FTS5 update, where one per write
// cost a quarter of each write. Search sees a new text within about this.
const searchIndexEvery = 200 * time.Millisecond

// searchIndexBatch is how many queued texts one step indexes, few enough
// that the writer is not held long from the requests waiting on it.
const searchIndexBatch = 1000

// SearchIndexWorker returns the worker that moves the text that writes
// queued into the search tables.
func (s *Service) SearchIndexWorker() Worker {
	return Worker{Name: "desk-search-index", Every: searchIndexEvery, Step: s.IndexSearchStep}
}

// searchMergePages bounds the pages one merge step writes in each search
// table, so the writer is not held long from the requests waiting on it.
const searchMergePages = 8

// IndexSearchStep indexes the oldest queued texts and reports whether more
// are waiting. With none queued, it merges the search tables' segments a
// step at a time (mergeSearchSegments).
func (s *Service) IndexSearchStep(ctx context.Context) (bool, error) {
	// Looking on a reader first keeps an idle server's writer free.
	if queued, err := s.db.Read().SearchQueued(ctx); err != nil {
		return false, err
	} else if !queued {
		return false, s.mergeSearchSegments(ctx)
	}
	// Not s.write: this commit is no news for the workers or live views.
	done, err := storage.Write(ctx, s.db, func(q *storage.Q) (int, error) {
		return q.IndexSearchQueue(ctx, searchIndexBatch)
	})
	return done.Result == searchIndexBatch, err
}

// mergeSearchSegments takes one step of merging the search tables'
// segments, whose number every search pays for (each of its words is
// looked up in each segment): a step per idle tick of the worker, so the
// index a busy day wrote in hundreds of commits ends in a few segments.
// It looks on a reader first and does nothing while the number of
// segments is the one at which the last merge found nothing to merge.
func (s *Service) mergeSearchSegments(ctx context.Context) error {
	n, err := s.db.Read().SearchSegments(ctx)
	if err != nil || int64(n) == s.searchSettled.Load() {
		return err
	}
	merged, err := storage.Write(ctx, s.db, func(q *storage.Q) (bool, error) {
		return q.MergeSearchSegments(ctx, searchMergePages)
	})
	if err == nil && !merged.Result {
		s.searchSettled.Store(int64(n))
	}
	return err
}

// SearchQuery is the query of GET /search.
type SearchQuery struct {
	Q    string
	Type string
	ListParams
}

// Search finds the conversations (by their messages and notes), tickets and
// contacts of a mode whose text holds every word of the query, best first.
func (s *Service) Search(ctx context.Context, mode chat.Mode, in SearchQuery) (List[*chat.SearchResult], error) {
	match, err := searchMatch(in.Q)
	if err != nil {
		return List[*chat.SearchResult]{}, err
	}
	switch in.Type {
	case "", "conversation", "ticket", "contact":
	default:
		return List[*chat.SearchResult]{}, invalid("type", "type must be one of conversation, ticket, contact (got '%s').", in.Type)
	}
	pg, err := in.page()
	if err != nil {
		return List[*chat.SearchResult]{}, err
	}
	offset := 0
	if pg.After != nil {
		offset = int(pg.After.Key)
	}
	key := searchKey{mode: mode, match: match, typ: in.Type, offset: offset, limit: pg.Limit}
	if l, ok := s.searches.get(key, s.db.Generation()); ok {
		return l, nil
	}
	release, err := s.searchSlots.acquire(ctx)
	if err != nil {
		return List[*chat.SearchResult]{}, err
	}
	defer release()
	// Read before the search: a write committed during it makes the answer stale.
	gen := s.db.Generation()
	if l, ok := s.searches.get(key, gen); ok { // found by a search this one waited behind
		return l, nil
	}
	// One snapshot: a search reads the window of each table, then the titles.
	var rows []*chat.SearchResult
	err = s.db.ReadTx(ctx, func(q *storage.Q) error {
		rows, err = q.Search(ctx, mode, match, in.Type, offset, pg.Limit)
		return err
	})
	if err != nil {
		return List[*chat.SearchResult]{}, err
	}
	// Ranks are not a stable key, so the cursor holds the position reached.
	l := makeList(rows, pg, func(r *chat.SearchResult) chat.Cursor {
		return chat.Cursor{Key: int64(offset + pg.Limit - 1), ID: r.ID}
	})
	s.searches.put(key, gen, l)
	return l, nil
}

// searchMatch turns what a person typed into an FTS5 query: its words, each
// quoted so no character of the query is read as FTS5 syntax, all required.
// No word is a prefix query: FTS5 merges every matching term's full list
// for one, which costs seconds on a word as common as "plan".
func searchMatch(q string) (string, error) {
	if q == "" {
		return "", missing("q") // a q of spaces has no word: invalid, below
	}
	if n := utf8.RuneCountInString(q); n > MaxSearchQuery {
		return "", invalid("q", "q can be at most %d characters long (got %d).", MaxSearchQuery, n)
	}
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	if len(words) == 0 {
		return "", invalid("q", "q must hold at least one word.")
	}
	if len(words) > MaxSearchWords {
		return "", invalid("q", "q can hold at most %d words (got %d).", MaxSearchWords, len(words))
	}
	for i, w := range words {
		words[i] = strconv.Quote(w)
	}
	return strings.Join(words, " "), nil
}
