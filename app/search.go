package app

import (
	"context"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"chatsvc/support"
)

// Search limits (docs/api.md, Search).
const (
	MaxSearchQuery = 200
	MaxSearchWords = 10
)

// SearchQuery is the query of GET /search.
type SearchQuery struct {
	Q    string
	Type string
	ListParams
}

// Search finds the conversations (by their messages and notes), tickets and
// contacts of a mode whose text holds every word of the query, best first.
func (s *Service) Search(ctx context.Context, mode support.Mode, in SearchQuery) (List[*support.SearchResult], error) {
	match, err := searchMatch(in.Q)
	if err != nil {
		return List[*support.SearchResult]{}, err
	}
	switch in.Type {
	case "", "conversation", "ticket", "contact":
	default:
		return List[*support.SearchResult]{}, invalid("type", "type must be one of conversation, ticket, contact (got '%s').", in.Type)
	}
	pg, err := in.page()
	if err != nil {
		return List[*support.SearchResult]{}, err
	}
	offset := 0
	if pg.After != nil {
		offset = int(pg.After.Key)
	}
	rows, err := s.db.Read().Search(ctx, mode, match, in.Type, offset, pg.Limit)
	if err != nil {
		return List[*support.SearchResult]{}, err
	}
	// Ranks are not a stable key, so the cursor holds the position reached.
	return makeList(rows, pg, func(r *support.SearchResult) support.Cursor {
		return support.Cursor{Key: int64(offset + pg.Limit - 1), ID: r.ID}
	}), nil
}

// searchMatch turns what a person typed into an FTS5 query: its words, each
// quoted so no character of the query is read as FTS5 syntax, all required.
// No word is a prefix query: FTS5 merges every matching term's full list
// for one, which costs seconds on a word as common as "plan".
func searchMatch(q string) (string, error) {
	if strings.TrimSpace(q) == "" {
		return "", missing("q")
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
