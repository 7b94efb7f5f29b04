package storage

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"chatsvc/chat"
)

// The desk-search-index statements look each queued text up by its id: the
// queue leads, and no table of texts is read whole.
func TestSearchIndexLooksTextsUp(t *testing.T) {
	t.Parallel()
	db := openDB(t)
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
	t.Parallel()
	ctx := context.Background()
	db := activityDB(t, 1)
	err := db.Write(ctx, func(q *Q) error {
		return q.InsertNote(ctx, &chat.Note{ID: "note_a", Mode: "test", ConversationID: "conv_0", Body: "Where is my parcel", CreatedAt: 5})
	})
	if err != nil {
		t.Fatal(err)
	}
	execAll(t, db,
		`UPDATE search_queue SET source = NULL`, // as queued before the migration
		`INSERT INTO search_queue (source_id) VALUES ('note_gone')`,
	)
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
	if want := []string{"ctc_a", "note_a"}; !slices.Equal(docs, want) || indexed != 3 {
		t.Errorf("took %d off the queue and indexed %v, want 3 and %v", indexed, docs, want)
	}
	if queued, err := db.Read().SearchQueued(ctx); err != nil || queued {
		t.Errorf("still queued: %t (%v)", queued, err)
	}
}

// Messages are indexed from their own table by rowid: a rewrite of an
// indexed message replaces its words at once, one not yet indexed is read as
// it is when its turn comes, and a deleted last message's rowid, given again
// to the next message, is indexed again. FTS5's integrity check holds
// throughout.
func TestSearchMessagesByRowid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := activityDB(t, 1)
	index := func() {
		t.Helper()
		if err := db.Write(ctx, func(q *Q) error { _, err := q.IndexSearchQueue(ctx, 100); return err }); err != nil {
			t.Fatal(err)
		}
		execAll(t, db, `INSERT INTO search_messages (search_messages, rank) VALUES ('integrity-check', 1)`)
	}
	found := func(word string) int {
		t.Helper()
		res, err := db.Read().Search(ctx, chat.Test, word, "", 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(res)
	}
	message := func(id, body string) {
		execAll(t, db, `INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at)
			VALUES ('`+id+`', 'test', 'conv_0', 'contact', '`+body+`', 5)`)
	}
	message("msg_a", "Where is my parcel")
	if queued, err := db.Read().SearchQueued(ctx); err != nil || !queued {
		t.Fatalf("a new message is not waiting to be indexed (%v)", err)
	}
	if found("parcel") != 0 {
		t.Error("found before it was indexed")
	}
	index()
	if found("parcel") != 1 {
		t.Error("not found once indexed")
	}
	execAll(t, db, `UPDATE messages SET body = 'erased' WHERE id = 'msg_a'`)
	if found("parcel") != 0 || found("erased") != 1 {
		t.Error("an indexed message's rewrite did not replace its words at once")
	}
	message("msg_b", "Refund for the kettle")
	execAll(t, db, `UPDATE messages SET body = 'erased too' WHERE id = 'msg_b'`)
	index()
	if found("kettle") != 0 || found("too") != 1 {
		t.Error("a message rewritten before it was indexed kept its old words or lost its new ones")
	}
	execAll(t, db, `DELETE FROM messages WHERE id = 'msg_b'`)
	message("msg_c", "Invoice address changed") // takes msg_b's rowid again
	index()
	if found("too") != 0 || found("invoice") != 1 {
		t.Error("a deleted message stayed found, or the message given its rowid was not indexed")
	}
	execAll(t, db, `DELETE FROM messages`)
	index()
	if found("erased") != 0 || found("invoice") != 0 {
		t.Error("deleted messages are still found")
	}
}

// Migration 0028 moves the messages of an installation out of search_text
// into search_messages: what was found before is found after, once.
func TestSearchMessagesMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	raw, err := sql.Open("sqlite", WriterDSN(filepath.Join(dir, FileName)))
	if err != nil {
		t.Fatal(err)
	}
	raw.SetMaxOpenConns(1)
	old := &DB{write: raw}
	if _, err := raw.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT)`); err != nil {
		t.Fatal(err)
	}
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if v, _ := migrationNumber(name); v < 28 {
			if err := old.applyMigration(ctx, name, v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	for _, stmt := range append([]string{
		`INSERT INTO sites (id, name, created_at) VALUES ('site_a', 'A', 1)`,
		`INSERT INTO conversations (id, mode, site_id, status, last_message_at, created_at, updated_at)
			VALUES ('conv_a', 'test', 'site_a', 'open', 1, 1, 1)`,
		`INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at)
			VALUES ('msg_a', 'test', 'conv_a', 'contact', 'Where is my parcel', 2), ('msg_b', 'test', 'conv_a', 'contact', 'Kettle refund', 3)`,
		`INSERT INTO notes (id, mode, conversation_id, body, created_at) VALUES ('note_a', 'test', 'conv_a', 'Parcel lost by the courier', 4)`,
		// Indexed as before 0028: messages through search_docs and search_text.
		`INSERT INTO search_docs (source_id, mode, type, target_id, created_at)
			SELECT id, mode, 'conversation', conversation_id, created_at FROM messages`,
		`INSERT INTO search_text (rowid, body) SELECT d.doc, m.body FROM search_docs d JOIN messages m ON m.id = d.source_id`,
	}, searchIndexSQL...) {
		if _, err := raw.ExecContext(ctx, stmt, 1<<40); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()

	db, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for word, want := range map[string]int{"parcel": 1, "kettle": 1, "courier": 1} {
		res, err := db.Read().Search(ctx, chat.Test, word, "", 0, 10)
		if err != nil || len(res) != want {
			t.Errorf("%q finds %d conversations (%v), want %d", word, len(res), err, want)
		}
	}
	if queued, err := db.Read().SearchQueued(ctx); err != nil || queued {
		t.Errorf("texts wait to be indexed after the migration: %t (%v)", queued, err)
	}
	var docs int
	if err := db.Read().row(ctx, `SELECT COUNT(*) FROM search_docs WHERE source_id LIKE 'msg%'`).Scan(&docs); err != nil || docs != 0 {
		t.Errorf("%d message documents left in search_docs (%v)", docs, err)
	}
	for _, table := range []string{"search_text", "search_messages"} {
		if err := db.Write(ctx, func(q *Q) error {
			_, err := q.exec(ctx, `INSERT INTO `+table+` (`+table+`, rank) VALUES ('integrity-check', 1)`)
			return err
		}); err != nil {
			t.Errorf("%s: %v", table, err)
		}
	}
}
