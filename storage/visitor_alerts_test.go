package storage

import (
	"context"
	"reflect"
	"testing"

	"chatsvc/chat"
)

// TestVisitorAlertsMoved: migration 0030 carries each alert of the old
// visitor_alerts table onto its conversation, and the alert functions read
// and write it there: owed once, due when its time comes, then cleared.
func TestVisitorAlertsMoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	execAll(t, db,
		`INSERT INTO sites (id, name, created_at) VALUES ('site_1', 'Site', 0)`,
		`INSERT INTO conversations (id, mode, site_id, status, last_message_at, created_at, updated_at) VALUES
			('conv_1', 'live', 'site_1', 'handed_off', 0, 0, 0), ('conv_2', 'live', 'site_1', 'handed_off', 0, 0, 0),
			('conv_3', 'live', 'site_1', 'handed_off', 0, 0, 0)`,
		`CREATE TABLE visitor_alerts (conversation_id TEXT PRIMARY KEY, mode TEXT NOT NULL, due_at INTEGER,
			mailed_until INTEGER NOT NULL DEFAULT 0)`,
		`INSERT INTO visitor_alerts VALUES ('conv_1', 'live', 50, 7), ('conv_2', 'live', NULL, 9)`,
		migrationStatement(t, "0030_visitor_alerts_on_conversations.sql", "UPDATE conversations SET (alert_due_at", ";"),
	)
	if got, want := columnByID(t, db, "alert_due_at"), map[string]any{"conv_1": int64(50), "conv_2": nil, "conv_3": nil}; !reflect.DeepEqual(got, want) {
		t.Fatalf("due after the migration %v, want %v", got, want)
	}
	if got, want := columnByID(t, db, "alert_mailed_until"), map[string]any{"conv_1": int64(7), "conv_2": int64(9), "conv_3": int64(0)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("mailed until after the migration %v, want %v", got, want)
	}

	owe := func(id string, due chat.Timestamp) {
		if err := db.Write(ctx, func(q *Q) error { return q.OweVisitorAlert(ctx, id, due) }); err != nil {
			t.Fatal(err)
		}
	}
	owe("conv_1", 80) // owed already at 50: kept
	owe("conv_3", 60)
	owe("conv_3", 70)
	due, err := db.Read().DueVisitorAlerts(ctx, 60, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 2 || due[0].ConversationID != "conv_1" || *due[0].DueAt != 50 || due[0].MailedUntil != 7 ||
		due[1].ConversationID != "conv_3" || *due[1].DueAt != 60 || due[1].Mode != "live" {
		t.Fatalf("due at 60: %+v", due)
	}
	due[0].DueAt, due[0].MailedUntil = nil, 55
	if err := db.Write(ctx, func(q *Q) error { return q.SetVisitorAlert(ctx, due[0]) }); err != nil {
		t.Fatal(err)
	}
	if due, _ := db.Read().DueVisitorAlerts(ctx, 1000, 10); len(due) != 1 || due[0].ConversationID != "conv_3" {
		t.Fatalf("after conv_1's alert was dealt with: %+v", due)
	}
}
