package storage

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"chatsvc/chat"
)

// activityDB is a database with one site and n conversations conv_0…,
// each with a contact and metadata.
func activityDB(tb testing.TB, n int) *DB {
	tb.Helper()
	ctx := context.Background()
	db, err := Open(ctx, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	err = db.Write(ctx, func(q *Q) error {
		if err := q.InsertSite(ctx, &chat.Site{ID: "site_a", Name: "A", CreatedAt: 1}); err != nil {
			return err
		}
		email := "a@example.com"
		if err := q.InsertContact(ctx, &chat.Contact{ID: "ctc_a", Mode: chat.Test, Email: &email, CreatedAt: 1, UpdatedAt: 1}, &email); err != nil {
			return err
		}
		contact, subject := "ctc_a", "Pricing"
		for i := 0; i < n; i++ {
			if err := q.InsertConversation(ctx, &chat.Conversation{ID: fmt.Sprintf("conv_%d", i), Mode: chat.Test, SiteID: "site_a",
				Status: "waiting", Subject: &subject, ContactID: &contact, Metadata: map[string]string{"plan": "pro"},
				CreatedAt: chat.Timestamp(i), UpdatedAt: chat.Timestamp(i), LastMessageAt: chat.Timestamp(i)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return db
}

func TestUpdateConversationActivityWritesOnlyActivity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := activityDB(t, 1)
	c, err := db.Read().Conversation(ctx, chat.Test, "conv_0")
	if err != nil {
		t.Fatal(err)
	}
	c.Status, c.MessageCount, c.LastMessageAt, c.UpdatedAt = "handed_off", 3, 500, 600
	other := "Changed"
	c.Subject, c.ContactID, c.Metadata = &other, nil, map[string]string{}
	if err := db.Write(ctx, func(q *Q) error { return q.UpdateConversationActivity(ctx, c) }); err != nil {
		t.Fatal(err)
	}
	got, err := db.Read().Conversation(ctx, chat.Test, "conv_0")
	if err != nil {
		t.Fatal(err)
	}
	if got.MessageCount != 3 || got.LastMessageAt != 500 || got.UpdatedAt != 600 {
		t.Errorf("activity not written: %+v", got)
	}
	if got.Status != "waiting" || *got.Subject != "Pricing" || got.ContactID == nil || got.Metadata["plan"] != "pro" {
		t.Errorf("fields other than the activity were written: %+v", got)
	}
	c.ID = "conv_missing"
	err = db.Write(ctx, func(q *Q) error { return q.UpdateConversationActivity(ctx, c) })
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing conversation: %v, want ErrNotFound", err)
	}
}

func TestCountAgentMessageIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := activityDB(t, 3)
	count := func(id string, at chat.Timestamp) error {
		return db.Write(ctx, func(q *Q) error {
			return q.CountAgentMessageIn(ctx, chat.Test, id, at, []chat.Status{"handed_off"})
		})
	}
	// conv_0 is handed off with a first reply, conv_1 handed off without
	// one, conv_2 waiting with one: only conv_0 is counted.
	err := db.Write(ctx, func(q *Q) error {
		_, err := q.exec(ctx, `UPDATE conversations SET status = 'handed_off', first_agent_at = 5 WHERE id = 'conv_0';
			UPDATE conversations SET status = 'handed_off' WHERE id = 'conv_1';
			UPDATE conversations SET first_agent_at = 5 WHERE id = 'conv_2'`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []chat.Timestamp{700, 800} {
		if err := count("conv_0", at); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Read().Conversation(ctx, chat.Test, "conv_0")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != "handed_off" || got.MessageCount != 2 || got.LastMessageAt != 800 || got.UpdatedAt != 800 {
		t.Errorf("message not counted: %+v", got)
	}
	if *got.Subject != "Pricing" || got.ContactID == nil || got.Metadata["plan"] != "pro" {
		t.Errorf("fields other than the activity were written: %+v", got)
	}
	for _, id := range []string{"conv_1", "conv_2", "conv_missing"} {
		if err := count(id, 900); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", id, err)
		}
		if c, err := db.Read().Conversation(ctx, chat.Test, id); err == nil && c.MessageCount != 0 {
			t.Errorf("%s counted: %+v", id, c)
		}
	}
}

// TestSaveMove: a move writes the status and assignee, keeps the first
// hand-off and agent reply once set, and sets or forgets the close time.
func TestSaveMove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := activityDB(t, 1)
	at := func(t chat.Timestamp) *chat.Timestamp { return &t }
	member := "mem_a"
	err := db.Write(ctx, func(q *Q) error {
		return q.InsertMember(ctx, &chat.Member{ID: member, Name: "A", Email: "a@example.com", Role: "agent", CreatedAt: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	moves := []struct {
		status   chat.Status
		assignee *string
		move     Move
	}{
		{"handed_off", &member, Move{HandedOffAt: at(10), FirstAgentAt: at(10)}},
		{"waiting", nil, Move{HandedOffAt: at(20), FirstAgentAt: at(20)}},
		{"closed", nil, Move{ClosedAt: at(30)}},
	}
	for _, m := range moves {
		err := db.Write(ctx, func(q *Q) error {
			c, err := q.Conversation(ctx, chat.Test, "conv_0")
			if err != nil {
				return err
			}
			c.Status, c.AssigneeID = m.status, m.assignee
			return q.SaveMove(ctx, c, m.move)
		})
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := db.Read().Conversation(ctx, chat.Test, "conv_0"); c.Status != m.status || (c.AssigneeID == nil) != (m.assignee == nil) {
			t.Errorf("after the move to %s: %+v", m.status, c)
		}
	}
	for col, want := range map[string]int64{"handed_off_at": 10, "first_agent_at": 10, "closed_at": 30} {
		if got := columnByID(t, db, col)["conv_0"]; got != want {
			t.Errorf("%s = %v, want %d", col, got, want)
		}
	}
	err = db.Write(ctx, func(q *Q) error {
		c, err := q.Conversation(ctx, chat.Test, "conv_0")
		if err != nil {
			return err
		}
		c.Status = "waiting"
		return q.SaveMove(ctx, c, Move{Reopened: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := columnByID(t, db, "closed_at")["conv_0"]; got != nil {
		t.Errorf("reopened conversation keeps closed_at %v", got)
	}
	c := &chat.Conversation{ID: "conv_missing", Mode: chat.Test, Status: "open"}
	if err := db.Write(ctx, func(q *Q) error { return q.SaveMove(ctx, c, Move{}) }); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing conversation: %v, want ErrNotFound", err)
	}
}

// BenchmarkConversationUpdate compares, in one run, the full update with
// UpdateConversationActivity, each after the read a new message makes, in
// batches of 64 as the writer's group commits run them.
//
//	go test ./storage -run '^$' -bench ConversationUpdate
func BenchmarkConversationUpdate(b *testing.B) {
	const n, batch = 20000, 64
	ctx := context.Background()
	db := activityDB(b, n)
	var full, narrow time.Duration
	i := 0
	for b.Loop() {
		for _, activity := range []bool{false, true} {
			start := time.Now()
			err := db.Write(ctx, func(q *Q) error {
				for j := 0; j < batch; j++ {
					i++
					c, err := q.Conversation(ctx, chat.Test, fmt.Sprintf("conv_%d", (i*7919)%n))
					if err != nil {
						return err
					}
					c.MessageCount++
					c.UpdatedAt = chat.Timestamp(i)
					update := q.UpdateConversation
					if activity {
						update = q.UpdateConversationActivity
					}
					if err := update(ctx, c); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			if activity {
				narrow += time.Since(start)
			} else {
				full += time.Since(start)
			}
		}
	}
	b.ReportMetric(float64(full.Nanoseconds())/float64(b.N*batch), "full_ns/update")
	b.ReportMetric(float64(narrow.Nanoseconds())/float64(b.N*batch), "activity_ns/update")
	b.ReportMetric(float64(full)/float64(narrow), "speedup")
}

// BenchmarkTakeOver compares, in one run, SaveMove with the three writes it
// replaces (the full update, then the first hand-off and the first agent
// reply each set apart), on conversations taken over for the first time, in
// batches of 64 as the writer's group commits run them.
//
//	go test ./storage -run '^$' -bench TakeOver -benchtime 200x
func BenchmarkTakeOver(b *testing.B) {
	const batch = 64
	ctx := context.Background()
	db := activityDB(b, 20000) // a table of some size, for the index writes
	subject := "Pricing"
	var apart, one time.Duration
	i := 0
	for b.Loop() {
		for _, together := range []bool{false, true} {
			ids := make([]string, batch) // new conversations, written before the clock starts
			err := db.Write(ctx, func(q *Q) error {
				for j := range ids {
					ids[j] = fmt.Sprintf("conv_new_%d", i+j)
					err := q.InsertConversation(ctx, &chat.Conversation{ID: ids[j], Mode: chat.Test, SiteID: "site_a",
						Status: "open", Subject: &subject, Metadata: map[string]string{}, CreatedAt: 1e9, UpdatedAt: 1e9, LastMessageAt: 1e9})
					if err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			i += batch
			start := time.Now()
			err = db.Write(ctx, func(q *Q) error {
				for _, id := range ids {
					c, err := q.Conversation(ctx, chat.Test, id)
					if err != nil {
						return err
					}
					c.Status, c.MessageCount = "handed_off", c.MessageCount+1
					c.LastMessageAt, c.UpdatedAt = 2e9, 2e9
					if together {
						err = q.SaveMove(ctx, c, Move{HandedOffAt: &c.UpdatedAt, FirstAgentAt: &c.UpdatedAt})
					} else if err = q.UpdateConversation(ctx, c); err == nil {
						if _, err = q.exec(ctx, `UPDATE conversations SET status = ?, handed_off_at = ? WHERE id = ? AND handed_off_at IS NULL`,
							c.Status, c.UpdatedAt, c.ID); err == nil {
							err = q.FirstAgentReply(ctx, c.ID, c.UpdatedAt)
						}
					}
					if err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			if together {
				one += time.Since(start)
			} else {
				apart += time.Since(start)
			}
		}
	}
	b.ReportMetric(float64(apart.Nanoseconds())/float64(b.N*batch), "apart_ns/takeover")
	b.ReportMetric(float64(one.Nanoseconds())/float64(b.N*batch), "one_ns/takeover")
	b.ReportMetric(float64(apart)/float64(one), "speedup")
}
