package storage

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeepRefusesAReadAWriteOvertook: a value read before a batch that
// changed its table committed is not kept, even when the batch's forget ran
// before the Keep; one read after it is.
func TestKeepRefusesAReadAWriteOvertook(t *testing.T) {
	db := &DB{kept: newKeptRows(1 << 20)}
	readAt := db.Generation()
	db.kept.forget(&changedRows{ids: [numTables][]string{TableTickets: {"tkt_1"}}}, readAt+1)
	db.written.Add(1)
	db.Keep(TableTickets, "tkt_1", "test", []byte("stale"), readAt)
	if _, ok := db.Kept(TableTickets, "tkt_1", "test"); ok {
		t.Fatal("a read older than the write was kept")
	}
	db.Keep(TableContacts, "ctc_1", "test", []byte("other table"), readAt)
	if _, ok := db.Kept(TableContacts, "ctc_1", "test"); !ok {
		t.Fatal("a write to tickets refused a contact read before it")
	}
	db.Keep(TableTickets, "tkt_1", "test", []byte("fresh"), db.Generation())
	if v, ok := db.Kept(TableTickets, "tkt_1", "test"); !ok || string(v) != "fresh" {
		t.Fatalf("kept %q %v, want fresh", v, ok)
	}
	if _, ok := db.Kept(TableTickets, "tkt_1", "live"); ok {
		t.Fatal("a value kept for one mode was given to the other")
	}
	db.kept.forget(&changedRows{whole: 1 << TableTickets}, db.Generation()+1)
	if _, ok := db.Kept(TableTickets, "tkt_1", "test"); ok {
		t.Fatal("a change of the whole table left a row kept")
	}
	if _, ok := db.Kept(TableContacts, "ctc_1", "test"); !ok {
		t.Fatal("a change of tickets dropped a contact")
	}
}

// TestKeptRowsAreBounded: the least recently used values go first once
// the bytes kept would pass the limit.
func TestKeptRowsAreBounded(t *testing.T) {
	value := make([]byte, 1000)
	db := &DB{kept: newKeptRows(10 * (len(value) + keptOverhead + 20))}
	for i := range 10 {
		db.Keep(TableConversations, fmt.Sprintf("cnv_%02d", i), "test", value, 0)
	}
	db.Kept(TableConversations, "cnv_00", "test") // used: kept over cnv_01
	db.Keep(TableConversations, "cnv_10", "test", value, 0)
	if _, ok := db.Kept(TableConversations, "cnv_01", "test"); ok {
		t.Fatal("the least recently used value was not dropped")
	}
	for _, id := range []string{"cnv_00", "cnv_10"} {
		if _, ok := db.Kept(TableConversations, id, "test"); !ok {
			t.Fatalf("%s dropped", id)
		}
	}
	if db.kept.size > db.kept.limit || db.KeptRows() != 10 {
		t.Fatalf("%d bytes in %d rows kept, limit %d", db.kept.size, db.KeptRows(), db.kept.limit)
	}
}

// TestRowChangesOfStatements reads statements against the real schema: a
// change by id names its row, anything else counts its tables as changed
// whole, following foreign-key actions (deleting a contact empties the
// contact of its conversations).
func TestRowChangesOfStatements(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite", DSN(filepath.Join(dir, FileName)))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	conn, err := raw.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	links, err := readSchemaLinks(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	const conv, tkt, ctc = 1 << TableConversations, 1 << TableTickets, 1 << TableContacts
	for _, c := range []struct {
		query string
		args  []any
		ids   map[Table][]string
		whole tableSet
	}{
		{"SELECT * FROM conversations WHERE id = ?", []any{"cnv_1"}, nil, 0},
		{"UPDATE conversations SET status = ?, updated_at = ?\n\t\tWHERE id = ? AND mode = ?", []any{"open", 1, "cnv_1", "test"},
			map[Table][]string{TableConversations: {"cnv_1"}}, 0},
		{"UPDATE conversations SET message_count = message_count + 1 WHERE id = ? AND mode = ? AND status NOT IN (?, ?)",
			[]any{"cnv_2", "test", "a", "b"}, map[Table][]string{TableConversations: {"cnv_2"}}, 0},
		{"UPDATE tickets SET subject = 'why?' , status = ? WHERE id = ?", []any{"open", "tkt_1"},
			map[Table][]string{TableTickets: {"tkt_1"}}, 0},
		{"INSERT INTO tickets (id, subject) VALUES (?, ?)", []any{"tkt_2", "new"}, nil, 0},
		{"INSERT INTO messages (id, body) VALUES (?, ?)", []any{"msg_1", "hello"}, nil, 0},
		{"UPDATE contacts SET name = ? WHERE id = ? AND mode = ?", []any{"Ada", "ctc_1", "test"},
			map[Table][]string{TableContacts: {"ctc_1"}}, 0},
		// Deleting a contact sets its conversations' contact_id to NULL.
		{"DELETE FROM contacts WHERE id = ? AND mode = ?", []any{"ctc_1", "test"}, map[Table][]string{TableContacts: {"ctc_1"}}, conv},
		{"UPDATE tickets SET conversation_id = NULL WHERE conversation_id = ?", []any{"cnv_1"}, nil, tkt},
		{"UPDATE conversations SET closed_at = ? WHERE id = ? OR contact_id = ?", []any{1, "cnv_1", "x"}, nil, conv},
		{"UPDATE conversations SET n = (SELECT count(*) FROM messages WHERE id = ?) WHERE id = ?", []any{"m", "cnv_1"}, nil, conv},
		{"UPDATE contacts SET name = ?1 WHERE id = ?2", []any{"Ada", "ctc_1"}, nil, ctc},
		{"INSERT INTO contacts (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name", []any{"ctc_1", "A"}, nil, ctc},
		{"WITH x AS (SELECT 1) UPDATE tickets SET status = 'open' WHERE id = ?", []any{"tkt_1"}, nil, allTables},
		{"UPDATE main.tickets SET status = 'open' WHERE id = ?", []any{"tkt_1"}, nil, allTables},
	} {
		var got changedRows
		links.read(c.query).note(&got, c.args)
		want := changedRows{whole: c.whole}
		for table, ids := range c.ids {
			want.ids[table] = ids
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s\n\tchanges %v, want %v", strings.Join(strings.Fields(c.query), " "), got, want)
		}
	}
}
