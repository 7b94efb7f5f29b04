package app

import (
	"context"
	"testing"

	"chatsvc/storage"
)

// TestIdleStepsDoNotWakeWorkers: a worker step that finds nothing to do
// must not commit, since every commit wakes every worker, itself included,
// and an idle server would then spin.
func TestIdleStepsDoNotWakeWorkers(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := New(db, Options{})
	woken := svc.Wakeup()
	steps := []struct {
		name string
		step func(context.Context) (bool, error)
	}{
		{"knowledge sync", svc.SyncStep},
		{"assistant", svc.answerDue},
		{"webhook fan-out", func(ctx context.Context) (bool, error) {
			more, _, err := svc.FanOutWebhooks(ctx, 100)
			return more, err
		}},
	}
	for _, st := range steps {
		if more, err := st.step(ctx); err != nil || more {
			t.Fatalf("%s: more %v, err %v", st.name, more, err)
		}
		select {
		case <-woken:
			t.Errorf("%s with nothing to do committed and woke the workers", st.name)
		default:
		}
	}
}
