package storage

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// The snippet built in Go is the one FTS5's snippet() gives for the same
// text and query, on the tokenizer the search tables use.
func TestSnippetIsFTS5s(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE VIRTUAL TABLE s USING fts5 (body, tokenize = 'porter unicode61 remove_diacritics 2')`); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("The parcel left our warehouse on Monday and travels by road. ", 6)
	for _, c := range []struct{ text, match string }{
		{"Lost kettle", `"kettle"`},
		{"Message 12 of conversation 4242: how does the plan change when the team grows?", `"team" "grows"`},
		{"Message 12 of conversation 4242: how does the plan change when the team grows? And more words after it.", `"conversation" "4242"`},
		{long + "Refunds reach the card within five working days. " + long, `"refunds"`},
		{long + "The end mentions Winnipeg.", `"winnipeg"`},
		{"Winnipeg first, then " + long, `"winnipeg"`},
		{"Crème brûlée — «quoted» text, then " + long + " café", `"cafe"`},
		{"Parcels: " + long + " a parcel again, and parcels.", `"parcel"`},
		{"Canada " + long + " canada and Canada with plan " + long, `"canada" "plan"`},
	} {
		if _, err := db.Exec(`DELETE FROM s`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO s (body) VALUES (?)`, c.text); err != nil {
			t.Fatal(err)
		}
		var marked, want string
		if err := db.QueryRow(`SELECT highlight(s, 0, char(1), char(2)), trim(snippet(s, 0, '', '', '…', 16))
			FROM s WHERE s MATCH ?`, c.match).Scan(&marked, &want); err != nil {
			t.Fatalf("%s: %v", c.match, err)
		}
		if got := snippetOf(marked, snippetWords); got != want {
			t.Errorf("%s in %.40q…:\n got %q\nwant %q", c.match, c.text, got, want)
		}
	}
}
