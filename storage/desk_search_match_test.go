package storage

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"chatsvc/chat"
)

// searchQuery writes words as app's searchMatch does: each quoted.
func searchQuery(words ...string) string {
	for i, w := range words {
		words[i] = strconv.Quote(w)
	}
	return strings.Join(words, " ")
}

// indexMessages runs the desk-search-index statements until nothing waits.
func indexMessages(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	for {
		var n int
		err := db.Write(ctx, func(q *Q) (err error) { n, err = q.IndexSearchQueue(ctx, 500); return err })
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

// The matcher marks in a text the words FTS5's highlight() marks there:
// in any case, without accents, by their stem, numbers as words, a query
// word that occurs several times at each place.
func TestSearchMarksAsHighlight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := activityDB(t, 1)
	cases := []struct{ body, query string }{
		{"Where is my PARCEL? Parcels arrive daily; the parcel's box was opened.", "parcel"},
		{"Café crème: le CAFÉ est prêt, café!", "cafe"},
		{"Running runners run 42 times, run-run!", "run"},
		{"Refund the refunds; refunding takes five days", "refunding"},
		{"ÉTÉ été Ete etes", "ete"},
		{"Order 4242 and order 42, ORDER42", "order 42"},
		{"A naïve coöperation, naive cooperation", "naïve cooperation"},
		{"Straße and strasse, STRASSE", "straße"},
		{"Ünïcödé wörds like Grüße and 東京 stay whole", "grüße 東京"},
		{"Plan: how does the plan change when the team grows? Plans change.", "team grows"},
		{"happy happiness happily happier", "happy"},
		{"The plans: plan A, then planning", "plan plans"},
	}
	for i, c := range cases {
		execAll(t, db, fmt.Sprintf(`INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at)
			VALUES ('msg_%d', 'test', 'conv_0', 'contact', '%s', 5)`, i, strings.ReplaceAll(c.body, "'", "''")))
	}
	indexMessages(t, db)
	for i, c := range cases {
		match := searchQuery(strings.Fields(c.query)...)
		var want string
		err := db.Read().row(ctx, `SELECT highlight(search_messages, 0, char(1), char(2)) FROM search_messages
			WHERE search_messages MATCH ? AND rowid = (SELECT rowid FROM messages WHERE id = ?)`, match, fmt.Sprintf("msg_%d", i)).Scan(&want)
		if err != nil {
			t.Fatalf("%q in %q: %v", c.query, c.body, err)
		}
		if got := newMatcher(match).mark(c.body); got != want {
			t.Errorf("%q in %q:\n marked %q\n   FTS5 %q", c.query, c.body, got, want)
		}
	}
}

// A word found in nearly every text is ranked among its newest
// searchWindowCommon texts; a word found in fewer among up to
// SearchWindow.
func TestSearchWindowOfACommonWord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const n = 2000
	db := activityDB(t, n)
	execAll(t, db, fmt.Sprintf(`WITH RECURSIVE i (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM i WHERE i < %d)
		INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at)
		SELECT 'msg_' || i, 'test', 'conv_' || i, 'contact',
			'Refund request ' || i || CASE WHEN i %% 5 = 0 THEN ' about a kettle' ELSE '' END, 5 FROM i`, n-1))
	indexMessages(t, db)
	for _, c := range []struct {
		word   string
		ranked int
	}{
		{"refund", searchWindowCommon}, // in every text
		{"kettle", n / 5},              // in one in 5: all of them
	} {
		res, err := db.Read().Search(ctx, chat.Test, searchQuery(c.word), "", 0, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != c.ranked {
			t.Errorf("%q: %d results, want %d", c.word, len(res), c.ranked)
		}
		for _, r := range res {
			var i int
			fmt.Sscanf(r.ID, "conv_%d", &i)
			if c.ranked == searchWindowCommon && i < n-searchWindowCommon {
				t.Errorf("%q found %s, older than its window", c.word, r.ID)
				break
			}
		}
	}
}

// Merging the search tables' segments leaves fewer of them and changes
// no search's results.
func TestSearchSegmentsMerge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const n = 400
	db := activityDB(t, n)
	// One commit per 20 messages: a segment each, as a busy day's
	// indexing leaves them.
	for from := 0; from < n; from += 20 {
		execAll(t, db, fmt.Sprintf(`WITH RECURSIVE i (i) AS (SELECT %d UNION ALL SELECT i + 1 FROM i WHERE i < %d)
			INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at)
			SELECT 'msg_' || i, 'test', 'conv_' || i, 'contact', 'Parcel ' || i || ' was sent to the warehouse ' || (i %% 7), 5 FROM i`,
			from, from+19))
		indexMessages(t, db)
	}
	searches := func() string {
		var out strings.Builder
		for _, q := range []string{"parcel", "warehouse 3", "sent 17"} {
			res, err := db.Read().Search(ctx, chat.Test, searchQuery(strings.Fields(q)...), "", 0, 50)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				fmt.Fprintf(&out, "%s %s %s\n", q, r.ID, r.Snippet)
			}
		}
		return out.String()
	}
	before, err := db.Read().SearchSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := searches()
	for steps := 0; ; steps++ {
		var merged bool
		err := db.Write(ctx, func(q *Q) (err error) { merged, err = q.MergeSearchSegments(ctx, 8); return err })
		if err != nil {
			t.Fatal(err)
		}
		if !merged {
			break
		}
		if steps > 1000 {
			t.Fatal("the merge never ends")
		}
	}
	after, err := db.Read().SearchSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after >= before || after > 4 {
		t.Errorf("%d segments before the merge, %d after", before, after)
	}
	execAll(t, db, `INSERT INTO search_messages (search_messages, rank) VALUES ('integrity-check', 1)`)
	if got := searches(); got != found {
		t.Errorf("the merge changed what searches find:\n%s\nbefore:\n%s", got, found)
	}
}
