package storage

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"chatsvc/chat"
)

// TestReportsBackfill runs migration 0014's backfill over an assistant's
// replies written before it: the visitor message before each reply is its
// question, the stock "could not find it" reply is an abstention and a
// greeting is not; the gaps list then holds the one abstention.
func TestReportsBackfill(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	const unknown = `I couldn't find the answer to that in our help pages. Would you like to talk to a person? Press "Talk to a person" or just ask for one.`
	execAll(t, db,
		`INSERT INTO sites (id, name, created_at) VALUES ('site_1', 'Site', 0)`,
		`INSERT INTO conversations (id, mode, site_id, status, last_message_at, created_at, updated_at)
			VALUES ('conv_1', 'live', 'site_1', 'open', 0, 0, 0)`,
		`INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at) VALUES
			('msg_1', 'live', 'conv_1', 'contact', 'Hello', 1),
			('msg_2', 'live', 'conv_1', 'bot', 'Hello! What can I help you with?', 2),
			('msg_3', 'live', 'conv_1', 'contact', 'Do you sell gift cards?', 3),
			('msg_4', 'live', 'conv_1', 'bot', '`+strings.ReplaceAll(unknown, "'", "''")+`', 4),
			('msg_5', 'live', 'conv_1', 'contact', 'Refunds?', 5),
			('msg_6', 'live', 'conv_1', 'bot', 'Within 5 days.', 6)`,
		`DELETE FROM assistant_replies`,
		"INSERT INTO assistant_replies"+backfill(t),
	)
	rows, err := db.Read().query(ctx, `SELECT message_id || ':' || question_id || ':' || abstained FROM assistant_replies ORDER BY message_id`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var v string
		return v, s.Scan(&v)
	})
	if want := []string{"msg_2:msg_1:0", "msg_4:msg_3:1", "msg_6:msg_5:0"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("backfilled %v (%v), want %v", got, err, want)
	}
	gaps, err := db.Read().UnansweredQuestions(ctx, "live", 0, 10)
	if err != nil || len(gaps) != 1 || gaps[0].Question != "Do you sell gift cards?" || gaps[0].ConversationID != "conv_1" {
		t.Fatalf("gaps %+v (%v)", gaps, err)
	}
}

// backfill is the backfill statement of migration 0014, after its INSERT INTO.
func backfill(t *testing.T) string {
	body, err := migrations.ReadFile("migrations/0014_reports.sql")
	if err != nil {
		t.Fatal(err)
	}
	_, stmt, _ := strings.Cut(string(body), "INSERT INTO assistant_replies")
	return stmt
}

// TestFirstAgentReply: migration 0024's backfill sets a conversation's
// first agent reply from its messages; a take-over or a counted agent
// message sets it when there is none, and later ones keep the first.
func TestFirstAgentReply(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	execAll(t, db,
		`INSERT INTO sites (id, name, created_at) VALUES ('site_1', 'Site', 0)`,
		`INSERT INTO conversations (id, mode, site_id, status, last_message_at, created_at, updated_at) VALUES
			('conv_1', 'live', 'site_1', 'handed_off', 0, 0, 0), ('conv_2', 'live', 'site_1', 'open', 0, 0, 0)`,
		`INSERT INTO messages (id, mode, conversation_id, author_type, body, created_at) VALUES
			('msg_1', 'live', 'conv_1', 'contact', 'Hello', 1), ('msg_2', 'live', 'conv_1', 'agent', 'Hi', 7),
			('msg_3', 'live', 'conv_1', 'agent', 'Anything else?', 9), ('msg_4', 'live', 'conv_2', 'bot', 'Hello!', 3)`,
		migrationStatement(t, "0024_first_agent_reply.sql", "UPDATE conversations SET first_agent_at", ";"),
	)
	first := func() map[string]any { return columnByID(t, db, "first_agent_at") }
	if got, want := first(), map[string]any{"conv_1": int64(7), "conv_2": nil}; !reflect.DeepEqual(got, want) {
		t.Fatalf("backfilled %v, want %v", got, want)
	}
	writes := []func(q *Q) error{
		func(q *Q) error {
			return q.CountAgentMessageIn(ctx, "live", "conv_1", 11, []chat.Status{"handed_off"})
		},
		func(q *Q) error {
			at := chat.Timestamp(14)
			return q.SaveMove(ctx, &chat.Conversation{ID: "conv_2", Mode: "live", Status: "handed_off", MessageCount: 2,
				LastMessageAt: at, UpdatedAt: at}, Move{HandedOffAt: &at, FirstAgentAt: &at})
		},
		func(q *Q) error {
			return q.CountAgentMessageIn(ctx, "live", "conv_2", 15, []chat.Status{"handed_off"})
		},
	}
	for _, write := range writes {
		if err := db.Write(ctx, write); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := first(), map[string]any{"conv_1": int64(7), "conv_2": int64(14)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after new messages %v, want %v", got, want)
	}
}

// TestFirstHandOff: migration 0025's backfill sets a conversation's first
// hand-off from its events, and a later hand-off keeps the first one.
func TestFirstHandOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	event := func(seq int, typ, object string, at int) string {
		return fmt.Sprintf(`(%d, 'evt_%d', 'live', '%s', '%s', '{}', %d)`, seq, seq, typ, object, at)
	}
	execAll(t, db,
		`INSERT INTO sites (id, name, created_at) VALUES ('site_1', 'Site', 0)`,
		`INSERT INTO conversations (id, mode, site_id, status, last_message_at, created_at, updated_at) VALUES
			('conv_1', 'live', 'site_1', 'handed_off', 0, 0, 0), ('conv_2', 'live', 'site_1', 'open', 0, 0, 0)`,
		`INSERT INTO events (seq, id, mode, type, object_id, data, created_at) VALUES `+strings.Join([]string{
			event(1, "conversation.created", "conv_1", 1), event(2, "conversation.handed_off", "conv_1", 5),
			event(3, "conversation.handed_off", "conv_1", 8), event(4, "conversation.created", "conv_2", 2)}, ", "),
		migrationStatement(t, "0025_first_handoff.sql", "UPDATE conversations SET handed_off_at", ";"),
	)
	if got, want := columnByID(t, db, "handed_off_at"), map[string]any{"conv_1": int64(5), "conv_2": nil}; !reflect.DeepEqual(got, want) {
		t.Fatalf("backfilled %v, want %v", got, want)
	}
	for _, h := range []struct {
		conv string
		at   chat.Timestamp
	}{{"conv_1", 11}, {"conv_2", 12}, {"conv_2", 13}} {
		err := db.Write(ctx, func(q *Q) error {
			c, err := q.Conversation(ctx, "live", h.conv)
			if err != nil {
				return err
			}
			return q.SaveMove(ctx, c, Move{HandedOffAt: &h.at})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if got, want := columnByID(t, db, "handed_off_at"), map[string]any{"conv_1": int64(5), "conv_2": int64(12)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after new hand-offs %v, want %v", got, want)
	}
}

// migrationStatement is the statement of a migration file that starts with
// start, through end.
func migrationStatement(t *testing.T, file, start, end string) string {
	t.Helper()
	body, err := migrations.ReadFile("migrations/" + file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(body), start)
	stmt, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("%s holds no %q…%q", file, start, end)
	}
	return start + stmt + end
}

// openDB opens a database on the latest schema in a temp dir.
func openDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// execAll runs statements on db in turn, each in a write of its own: rows
// written by hand, as before a migration, and the migration's statement.
func execAll(t *testing.T, db *DB, stmts ...string) {
	t.Helper()
	for _, stmt := range stmts {
		if err := db.Write(context.Background(), func(q *Q) error { _, err := q.exec(context.Background(), stmt); return err }); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// columnByID reads one integer column of every conversation, by id (nil
// for NULL).
func columnByID(t *testing.T, db *DB, column string) map[string]any {
	t.Helper()
	rows, err := db.Read().query(context.Background(), `SELECT id, `+column+` FROM conversations ORDER BY id`)
	out := map[string]any{}
	_, err = collect(rows, err, func(s interface{ Scan(...any) error }) (bool, error) {
		var id string
		var at *int64
		err := s.Scan(&id, &at)
		out[id] = nil
		if at != nil {
			out[id] = *at
		}
		return true, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
