package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"chatsvc/app"
)

func TestWorkerRunsWhenWokenAndWhileWorkRemains(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	wake := make(chan struct{}, 1)
	calls := make(chan int, 100)
	n := 0
	w := app.Worker{Name: "test", Every: time.Hour, Wake: wake, Step: func(context.Context) (bool, error) {
		n++
		calls <- n
		switch n {
		case 2:
			return true, nil // more work: step 3 follows at once
		case 4:
			return false, errors.New("transient") // logged, then wait
		}
		return false, nil
	}}
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	expect := func(want int) {
		t.Helper()
		select {
		case got := <-calls:
			if got != want {
				t.Fatalf("step %d, want %d", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("step %d did not run", want)
		}
	}
	expect(1) // at start
	wake <- struct{}{}
	expect(2)
	expect(3) // without a wake-up: step 2 said more
	wake <- struct{}{}
	expect(4)
	wake <- struct{}{}
	expect(5) // an error does not stop the worker
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("worker did not stop with its context")
	}
	if len(calls) != 0 {
		t.Fatalf("unexpected extra steps: %d", len(calls))
	}
}
