package storage

import (
	"context"

	"chatsvc/chat"
)

// SearchWindow is how many of a query's newest matching messages, and of
// its newest other matching texts, are ranked. FTS5 walks its matches
// newest first and stops there (the full-text table is the outer loop:
// CROSS JOIN keeps SQLite from reordering it), so a word found in a million
// messages costs about as much as one found in a thousand.
const SearchWindow = 1000

// Search ranks the texts of a mode that match an FTS5 query among its
// newest SearchWindow matches, one result per object (its best text), best
// first, and returns limit of them after skipping offset. typ, when not
// empty, keeps one type of object.
//
// The rank is BM25 without its rarity part: how often the words occur in a
// text (saturating), against the text's length relative to the window's
// average. FTS5's bm25() weighs each word by its rarity, which it counts
// over every text holding the word: tens of milliseconds for a word in a
// million messages, whatever the window. Every word of a query is
// required, so each ranked text holds them all and the rarity only weighed
// one word against another. highlight() marks each occurrence, which gives
// the count and the length from the text FTS5 reads anyway, and the
// snippet, built in Go from the best text of each result (snippetOf).
func (q *Q) Search(ctx context.Context, mode chat.Mode, match, typ string, offset, limit int) ([]*chat.SearchResult, error) {
	rows, err := q.query(ctx, `WITH hits AS MATERIALIZED (
			SELECT * FROM (SELECT 0 AS src, d.doc, d.type, d.target_id, highlight(search_text, 0, char(1), char(2)) AS marked
				FROM search_text CROSS JOIN search_docs d ON d.doc = search_text.rowid
				WHERE search_text MATCH ?1 AND d.mode = ?2 AND (?3 = '' OR d.type = ?3)
				ORDER BY search_text.rowid DESC LIMIT ?6)
			UNION ALL
			SELECT * FROM (SELECT 1 AS src, m.rowid, 'conversation', m.conversation_id, highlight(search_messages, 0, char(1), char(2))
				FROM search_messages CROSS JOIN messages m ON m.rowid = search_messages.rowid
				WHERE search_messages MATCH ?1 AND m.mode = ?2 AND ?3 IN ('', 'conversation')
				ORDER BY search_messages.rowid DESC LIMIT ?6)
		), counted AS (
			SELECT src, doc, type, target_id, marked, length(marked) - length(replace(marked, char(1), '')) AS tf,
				length(marked) AS marked_len FROM hits
		), scored AS (
			-- BM25's k1 = 1.2 and b = 0.75.
			-- A text's length counts one marker per match, as it always has.
			SELECT src, doc, type, target_id, marked, tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * (marked_len - tf) / AVG(marked_len - tf) OVER ())) AS score
			FROM counted
		), best AS (
			-- marked is the best text's: SQLite takes bare columns from the row of MAX().
			SELECT src, doc, type, target_id, marked, MAX(score) AS score FROM scored GROUP BY type, target_id
			ORDER BY score DESC, target_id LIMIT ?4 OFFSET ?5
		)
		SELECT b.type, b.target_id,
			COALESCE(CASE b.type
				WHEN 'conversation' THEN (SELECT subject FROM conversations WHERE id = b.target_id)
				WHEN 'ticket' THEN (SELECT subject FROM tickets WHERE id = b.target_id)
				ELSE (SELECT COALESCE(name, email) FROM contacts WHERE id = b.target_id) END, ''),
			b.marked,
			COALESCE(CASE b.type
				WHEN 'conversation' THEN (SELECT created_at FROM conversations WHERE id = b.target_id)
				WHEN 'ticket' THEN (SELECT created_at FROM tickets WHERE id = b.target_id)
				ELSE (SELECT created_at FROM contacts WHERE id = b.target_id) END, 0)
		FROM best b ORDER BY b.score DESC, b.target_id`, match, mode, typ, limit, offset, SearchWindow)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (*chat.SearchResult, error) {
		r := &chat.SearchResult{}
		var marked string
		err := s.Scan(&r.Type, &r.ID, &r.Title, &marked, &r.CreatedAt)
		r.Snippet = snippetOf(marked, snippetWords)
		return r, err
	})
}
