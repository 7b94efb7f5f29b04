package app

import (
	"context"
	"testing"
	"time"

	"chatsvc/chat"
	"chatsvc/testenv"
)

// While no webhook endpoint is enabled, the fan-out leaves the database
// alone for a second at a time; an endpoint written ends that at once, and
// receives the events written after it.
func TestFanOutSkipsTheDatabaseWithoutEndpoints(t *testing.T) {
	ctx := context.Background()
	clock := testenv.NewClock(testenv.T0, 0)
	db := testenv.OpenDB(t, "")
	svc := New(db, Options{Now: clock.Now, Webhooks: WebhookOptions{AllowHTTP: true, AllowPrivate: true}})
	event := func() {
		t.Helper()
		if _, _, err := svc.UpsertContact(ctx, chat.Test, ContactInput{Email: Value(NewID("x") + "@example.com")}); err != nil {
			t.Fatal(err)
		}
	}
	fanOut := func() int {
		t.Helper()
		more, queued, err := svc.FanOutWebhooks(ctx, 100)
		if err != nil || more {
			t.Fatalf("fan-out: more %v, err %v", more, err)
		}
		return queued
	}
	position := func() int64 {
		t.Helper()
		p, err := fanoutPosition(ctx, db.Read())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	last := func() int64 {
		t.Helper()
		l, err := db.Read().LastEventSeq(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}

	event()
	fanOut()
	if position() != last() {
		t.Fatalf("position %d with no endpoint, want the last event %d", position(), last())
	}
	event()
	fanOut()
	if position() == last() {
		t.Fatal("the fan-out read the database again within a second of finding no endpoint")
	}
	clock.Advance(time.Second)
	fanOut()
	if position() != last() {
		t.Fatalf("a second later: position %d, want %d", position(), last())
	}

	event()
	if _, err := svc.CreateWebhookEndpoint(ctx, chat.Test, WebhookEndpointInput{URL: Value("http://127.0.0.1:9/hook"),
		Events: Value([]string{"*"})}); err != nil {
		t.Fatal(err)
	}
	event()
	if n := fanOut(); n != 1 {
		t.Fatalf("%d deliveries queued for the new endpoint, want 1 (the event after it)", n)
	}
	if position() != last() {
		t.Fatalf("position %d, want %d", position(), last())
	}
}
