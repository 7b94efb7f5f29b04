package app

import (
	"context"
	"strings"
	"testing"

	"chatsvc/testenv"
)

// Every column of the live schema that can hold text has a decision in
// erasureColumns: erasing a contact scrubs it, or it holds no personal
// data. A column added without a decision fails here, named.
func TestErasureCoversTheSchema(t *testing.T) {
	db := testenv.OpenDB(t, "")
	cols, err := db.Read().TextColumns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) < 50 {
		t.Fatalf("only %d text columns found: %v", len(cols), cols)
	}
	var undecided []string
	live := map[string]bool{}
	for _, c := range cols {
		live[c] = true
		if _, ok := erasureColumns[c]; !ok {
			undecided = append(undecided, c)
		}
	}
	if len(undecided) > 0 {
		t.Errorf("columns that erasure neither scrubs nor declares free of personal data (add each to erasureColumns in erasure_columns.go):\n%s",
			strings.Join(undecided, "\n"))
	}
	for c := range erasureColumns {
		if !live[c] {
			t.Errorf("erasureColumns names %s, which the schema no longer has", c)
		}
	}
}
