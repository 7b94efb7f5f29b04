package storage

import (
	"context"
	"strings"
	"testing"
)

// The search-index statements look each queued text up by its id: the
// queue leads, and no table of texts is read whole.
func TestSearchIndexLooksTextsUp(t *testing.T) {
	db, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range searchIndexSQL {
		for _, step := range queryPlan(t, db, stmt, 1) {
			for _, table := range []string{"messages", "notes", "tickets", "ticket_comments", "contacts", "search_docs", "search_queue"} {
				if strings.HasPrefix(step, "SCAN "+table) {
					t.Errorf("reads %s whole: %s\n%s", table, step, stmt)
				}
			}
		}
	}
}
