package app_test

import (
	"context"
	"testing"
	"time"

	"chatsvc/app"
)

func TestWorkerDrainsBeforeReturning(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	background := make(chan struct{})
	drained := false
	w := app.Worker{Name: "drain", Every: time.Hour,
		Step: func(context.Context) (bool, error) {
			go func() { <-background }() // work left running by the step
			close(started)
			return false, nil
		},
		Drain: func() { <-background; drained = true },
	}
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	<-started
	cancel()
	select {
	case <-done:
		t.Fatal("Run returned while background work was running")
	case <-time.After(50 * time.Millisecond): // Run must still be draining
	}
	close(background)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after the drain")
	}
	if !drained {
		t.Fatal("Drain not called")
	}
}
