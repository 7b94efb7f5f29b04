package app

import (
	"context"
	"testing"

	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// Workers are woken by commits that queue their kind of work, and by
// nothing else: not by writes that queue none, and not by their own idle
// steps, or an idle server would spin.
func TestWakeupsFollowQueuedWork(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	all := storage.QueueEvents | storage.QueueMail | storage.QueueAssistant | storage.QueueKnowledge
	anyWork, events, mail := svc.Wakeup(all), svc.Wakeup(storage.QueueEvents), svc.Wakeup(storage.QueueMail)
	woken := func(c <-chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	steps := []struct {
		name string
		step func(context.Context) (bool, error)
	}{
		{"knowledge sync", svc.SyncStep},
		{"assistant", svc.answerDue},
		{"search index", svc.IndexSearchStep},
		{"webhook fan-out", func(ctx context.Context) (bool, error) {
			more, _, err := svc.FanOutWebhooks(ctx, 100)
			return more, err
		}},
		{"a write that queues nothing", func(ctx context.Context) (bool, error) {
			return false, svc.write(ctx, func(q *storage.Q) error { return q.InsertSite(ctx, &chat.Site{ID: "site_1", Name: "A"}) })
		}},
	}
	for _, st := range steps {
		if more, err := st.step(ctx); err != nil || more {
			t.Fatalf("%s: more %v, err %v", st.name, more, err)
		}
		if woken(anyWork) {
			t.Errorf("%s woke a worker", st.name)
		}
	}
	err := svc.write(ctx, func(q *storage.Q) error {
		return svc.emit(ctx, q, chat.Test, chat.EventConversationCreated, "conv_1", map[string]string{}, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !woken(anyWork) || !woken(events) || woken(mail) {
		t.Error("an event must wake the workers of events, and only them")
	}
}

// newTestService is a Service over a new database in a temp dir, closed
// when the test ends.
func newTestService(tb testing.TB) (*Service, *storage.DB) {
	tb.Helper()
	db := testenv.OpenDB(tb, "")
	return New(db, Options{}), db
}
