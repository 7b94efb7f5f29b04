package storage

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"chatsvc/chat"
)

// SearchWindow is how many of a query's newest matching messages, and of
// its newest other matching texts, are ranked. FTS5 walks its matches
// newest first and stops there (the full-text table is the outer loop:
// CROSS JOIN keeps SQLite from reordering it), so a word found in a million
// messages costs about as much as one found in a thousand.
const SearchWindow = 1000

// searchWindowCommon is the window of a query found in nearly every text
// (see searchWindow): its newest matches are the ones a desk wants, and
// ranking four times fewer of them takes about a quarter of the time.
const searchWindowCommon = SearchWindow / 4

// searchCommonShare: a query whose searchWindowCommon newest matches are
// at least one in searchCommonShare of the texts written in their time is
// found in nearly every text.
const searchCommonShare = 4

// Search ranks the texts of a mode that match an FTS5 query among its
// newest matches (searchWindow), one result per object (its best text),
// best first, and returns limit of them after skipping offset. typ, when
// not empty, keeps one type of object.
//
// The rank is BM25 without its rarity part: how often the words occur in a
// text (saturating), against the text's length relative to the window's
// average. FTS5's bm25() weighs each word by its rarity, which it counts
// over every text holding the word: tens of milliseconds for a word in a
// million messages, whatever the window. Every word of a query is
// required, so each ranked text holds them all and the rarity only weighed
// one word against another. The count, the length and the snippet's
// marks come from the text the search fetches anyway, in Go (matcher):
// highlight() tokenized every text of the window again inside SQLite.
func (q *Q) Search(ctx context.Context, mode chat.Mode, match, typ string, offset, limit int) ([]*chat.SearchResult, error) {
	// Texts first, then messages, each newest first: of a target's texts
	// with the same score, the first met is its best.
	hits, err := searchWindow(func(below int64, n int) ([]searchHit, error) {
		rows, err := q.query(ctx, `SELECT search_text.rowid, d.type, d.target_id, search_text.body
			FROM search_text CROSS JOIN search_docs d ON d.doc = search_text.rowid
			WHERE search_text MATCH ?1 AND d.mode = ?2 AND (?3 = '' OR d.type = ?3) AND search_text.rowid < ?4
			ORDER BY search_text.rowid DESC LIMIT ?5`, match, mode, typ, below, n)
		return collect(rows, err, scanHit)
	})
	if err != nil {
		return nil, err
	}
	if typ == "" || typ == "conversation" {
		messages, err := searchWindow(func(below int64, n int) ([]searchHit, error) {
			rows, err := q.query(ctx, `SELECT search_messages.rowid, 'conversation', m.conversation_id, m.body
				FROM search_messages CROSS JOIN messages m ON m.rowid = search_messages.rowid
				WHERE search_messages MATCH ?1 AND m.mode = ?2 AND search_messages.rowid < ?3
				ORDER BY search_messages.rowid DESC LIMIT ?4`, match, mode, below, n)
			return collect(rows, err, scanHit)
		})
		if err != nil {
			return nil, err
		}
		hits = append(hits, messages...)
	}
	m := newMatcher(match)
	best := rank(hits, m)
	if offset >= len(best) {
		return nil, nil
	}
	best = best[offset:min(len(best), offset+limit)]
	out := make([]*chat.SearchResult, len(best))
	for i, h := range best {
		out[i] = &chat.SearchResult{Type: h.typ, ID: h.target, Snippet: snippetOf(m.mark(h.body), snippetWords)}
	}
	return out, q.searchTitles(ctx, out)
}

// searchHit is a ranked text: the object it finds, its words, its score.
type searchHit struct {
	rowid       int64
	typ, target string
	body        string
	score       float64
}

func scanHit(s interface{ Scan(...any) error }) (searchHit, error) {
	var h searchHit
	err := s.Scan(&h.rowid, &h.typ, &h.target, &h.body)
	return h, err
}

// searchWindow fetches a query's newest matches in one table, up to
// SearchWindow of them, with fetch (n at most, their rowids under below).
// When the searchWindowCommon newest are at least one in
// searchCommonShare of the texts written in their time, the query is
// found in nearly every text and they are its window.
func searchWindow(fetch func(below int64, n int) ([]searchHit, error)) ([]searchHit, error) {
	hits, err := fetch(math.MaxInt64, searchWindowCommon)
	if err != nil || len(hits) < searchWindowCommon {
		return hits, err
	}
	if span := hits[0].rowid - hits[len(hits)-1].rowid + 1; span <= int64(len(hits))*searchCommonShare {
		return hits, nil
	}
	more, err := fetch(hits[len(hits)-1].rowid, SearchWindow-len(hits))
	return append(hits, more...), err
}

// rank scores each hit and returns each target's best hit, best first,
// ties by target id. BM25's k1 = 1.2 and b = 0.75; a text's length is its
// characters and one more per match (highlight()'s markers, as it was).
func rank(hits []searchHit, m *matcher) []searchHit {
	if len(hits) == 0 {
		return nil
	}
	tf, length := make([]float64, len(hits)), make([]float64, len(hits))
	var total float64
	for i, h := range hits {
		// FTS5 found every word: a word the matcher reads otherwise (in a
		// script the stemmer leaves alone) still counts once.
		n := max(m.count(h.body), len(m.phrases))
		tf[i], length[i] = float64(n), float64(utf8.RuneCountInString(h.body)+n)
		total += length[i]
	}
	avg := total / float64(len(hits))
	at := map[string]int{} // type and target → its best hit in out
	var out []searchHit
	for i, h := range hits {
		h.score = tf[i] * 2.2 / (tf[i] + 1.2*(0.25+0.75*length[i]/avg))
		key := h.typ + "\x00" + h.target
		if j, ok := at[key]; !ok {
			at[key] = len(out)
			out = append(out, h)
		} else if h.score > out[j].score {
			out[j] = h
		}
	}
	slices.SortFunc(out, func(a, b searchHit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.target, b.target)
	})
	return out
}

// searchTitles fills in each result's title (the conversation's or
// ticket's subject, the contact's name or else e-mail address) and
// creation time, in one statement.
func (q *Q) searchTitles(ctx context.Context, results []*chat.SearchResult) error {
	var values strings.Builder
	args := make([]any, 0, 2*len(results))
	for i, r := range results {
		if i > 0 {
			values.WriteString(", ")
		}
		fmt.Fprintf(&values, "(%d, ?, ?)", i)
		args = append(args, r.Type, r.ID)
	}
	rows, err := q.query(ctx, `WITH page (i, type, id) AS (VALUES `+values.String()+`)
		SELECT i,
			COALESCE(CASE type
				WHEN 'conversation' THEN (SELECT subject FROM conversations WHERE conversations.id = page.id)
				WHEN 'ticket' THEN (SELECT subject FROM tickets WHERE tickets.id = page.id)
				ELSE (SELECT COALESCE(name, email) FROM contacts WHERE contacts.id = page.id) END, ''),
			COALESCE(CASE type
				WHEN 'conversation' THEN (SELECT created_at FROM conversations WHERE conversations.id = page.id)
				WHEN 'ticket' THEN (SELECT created_at FROM tickets WHERE tickets.id = page.id)
				ELSE (SELECT created_at FROM contacts WHERE contacts.id = page.id) END, 0)
		FROM page`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var title string
		var created chat.Timestamp
		if err := rows.Scan(&i, &title, &created); err != nil {
			return err
		}
		results[i].Title, results[i].CreatedAt = title, created
	}
	return rows.Err()
}
