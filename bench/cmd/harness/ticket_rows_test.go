package main

import (
	"context"
	"database/sql"
	"maps"
	"testing"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
)

// The reference writes, table by table, the rows the API's ticket create
// writes for the harness's request: were a ticket create to write a row
// more (or less), the reference would no longer be one.
func TestTicketRowsAreATicketCreates(t *testing.T) {
	const creates = 3
	ctx := context.Background()

	refDir := t.TempDir()
	ref, err := openTicketRows(refDir, "")
	if err != nil {
		t.Fatal(err)
	}
	before := rowCounts(t, ref.db)
	for i := range creates {
		if err := ref.create(i); err != nil {
			t.Fatal(err)
		}
	}
	refAdded := added(before, rowCounts(t, ref.db))
	ref.close()

	db, err := storage.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := app.New(db, app.Options{})
	c, _, err := svc.UpsertContact(ctx, chat.Test, app.ContactInput{Email: app.Value("ada@example.com"), Name: app.Value("Ada")})
	if err != nil {
		t.Fatal(err)
	}
	// The first ticket of a mode creates its counter, as the reference's
	// database has it already.
	if _, err := svc.CreateTicket(ctx, chat.Test, app.TicketCreate{Subject: app.Value("First"), ContactID: app.Value(c.ID)}); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", storage.DSN(db.Path()))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	before = rowCounts(t, raw)
	for range creates {
		if _, err := svc.CreateTicket(ctx, chat.Test, app.TicketCreate{Subject: app.Value("Harness"),
			ContactID: app.Value(c.ID), Tags: app.Value([]string{"harness"})}); err != nil {
			t.Fatal(err)
		}
	}
	apiAdded := added(before, rowCounts(t, raw))

	if len(apiAdded) == 0 {
		t.Fatal("ticket creates added no rows")
	}
	if !maps.Equal(refAdded, apiAdded) {
		t.Errorf("rows added by %d creates, table by table:\nreference  %v\nticket API %v", creates, refAdded, apiAdded)
	}
}

// rowCounts counts the rows of every table of db.
func rowCounts(t *testing.T, db *sql.DB) map[string]int {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, name := range names {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM "` + name + `"`).Scan(&n); err != nil {
			t.Fatal(name, err)
		}
		counts[name] = n
	}
	return counts
}

// added is, for each table that grew from before to after, by how many rows.
func added(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for name, n := range after {
		if d := n - before[name]; d != 0 {
			out[name] = d
		}
	}
	return out
}

// BenchmarkTicketRows is the reference without fsync, one ticket create's
// rows per op, for a profile of what SQLite spends on them.
func BenchmarkTicketRows(b *testing.B) {
	r, err := openTicketRows(b.TempDir(), unsynced)
	if err != nil {
		b.Fatal(err)
	}
	defer r.close()
	for i := 0; b.Loop(); i++ {
		if err := r.create(i); err != nil {
			b.Fatal(err)
		}
	}
}
