package storage

import (
	"context"
	"slices"
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

// A text queued before the queue named its table (migration 0026) is
// given its table by the migration and indexed; an id found in no table
// indexes nothing and leaves the queue.
func TestSearchQueueSourceBackfill(t *testing.T) {
	ctx := context.Background()
	db := activityDB(t, 1)
	for _, stmt := range []string{
		`INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at)
			VALUES ('msg_a', 'test', 'conv_0', 'contact', 'Where is my parcel', 5)`,
		`UPDATE search_queue SET source = NULL`, // as queued before the migration
		`INSERT INTO search_queue (source_id) VALUES ('msg_gone')`,
	} {
		if err := db.Write(ctx, func(q *Q) error { _, err := q.exec(ctx, stmt); return err }); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	body, err := migrations.ReadFile("migrations/0026_search_queue_source.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(body), "\n") {
		if !strings.HasPrefix(line, "UPDATE search_queue SET source") {
			continue
		}
		if err := db.Write(ctx, func(q *Q) error { _, err := q.exec(ctx, line); return err }); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	var indexed int
	if err := db.Write(ctx, func(q *Q) (err error) { indexed, err = q.IndexSearchQueue(ctx, 100); return err }); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Read().query(ctx, `SELECT d.source_id FROM search_text t JOIN search_docs d ON d.doc = t.rowid
		WHERE search_text MATCH 'parcel OR pricing OR example' ORDER BY d.source_id`)
	docs, err := collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var id string
		return id, s.Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ctc_a", "msg_a"}; !slices.Equal(docs, want) || indexed != 3 {
		t.Errorf("took %d off the queue and indexed %v, want 3 and %v", indexed, docs, want)
	}
	if queued, err := db.Read().SearchQueued(ctx); err != nil || queued {
		t.Errorf("still queued: %t (%v)", queued, err)
	}
}
