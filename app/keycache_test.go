package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// TestKeyRevokedElsewhereIsRefusedWithinASecond: a revocation made through
// another database handle, as `chatsvc keys revoke` does beside serve,
// empties the cache of the serving Service once a second has passed since
// it last read the marker; the serving Service does not read the marker at
// every request.
func TestKeyRevokedElsewhereIsRefusedWithinASecond(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clock := testenv.NewClock(testenv.T0, 0)
	open := func() *Service {
		db, err := storage.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return New(db, Options{Now: clock.Now})
	}
	serving, cli := open(), open()
	secret, key, err := serving.CreateKey(ctx, chat.Live, "crm")
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := serving.CreateKey(ctx, chat.Test, "other")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if m, err := serving.Authenticate(ctx, secret); err != nil || m != chat.Live {
			t.Fatalf("authenticate %d: %v %v", i, m, err)
		}
	}
	if serving.keys.hits != 2 {
		t.Fatalf("%d cache hits after 3 checks of one key, want 2", serving.keys.hits)
	}
	if err := cli.RevokeKey(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := serving.Authenticate(ctx, secret); err != nil {
		t.Fatalf("the marker was read again before a second passed: %v", err)
	}
	clock.Advance(markerEvery)
	var ae *Error
	if _, err := serving.Authenticate(ctx, secret); !errors.As(err, &ae) || ae.Code != CodeAPIKeyInvalid {
		t.Fatalf("revoked key a second later: %v", err)
	}
	if m, err := serving.Authenticate(ctx, other); err != nil || m != chat.Test {
		t.Fatalf("a key not revoked: %v %v", m, err)
	}
}

// TestKeyRevokedHereIsRefusedAtOnce: a revocation by the serving process
// itself takes effect at the next request, without waiting for the marker.
func TestKeyRevokedHereIsRefusedAtOnce(t *testing.T) {
	ctx := context.Background()
	svc := New(testenv.OpenDB(t, ""), Options{Now: testenv.NewClock(testenv.T0, 0).Now})
	secret, key, err := svc.CreateKey(ctx, chat.Live, "crm")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := svc.Authenticate(ctx, secret); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.RevokeKey(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	var ae *Error
	if _, err := svc.Authenticate(ctx, secret); !errors.As(err, &ae) || ae.Code != CodeAPIKeyInvalid {
		t.Fatalf("revoked key: %v", err)
	}
}

func TestKeyCacheHoldsOnlyValidKeys(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	for i := 0; i < 3; i++ {
		if _, err := svc.Authenticate(ctx, "csk_live_notakey"); err == nil {
			t.Fatal("unknown key accepted")
		}
	}
	if len(svc.keys.modes) != 0 || svc.keys.hits != 0 {
		t.Fatalf("unknown key cached: %v, %d hits", svc.keys.modes, svc.keys.hits)
	}
}

// TestKeyCacheDropsAnswersOlderThanARevocation: a lookup that began before
// the cache was emptied is not stored, since it may have read the key
// before the revocation committed.
func TestKeyCacheDropsAnswersOlderThanARevocation(t *testing.T) {
	var c keyCache
	marker := func() (storage.RevocationStamp, error) { return storage.RevocationStamp{}, nil }
	before, err := c.begin(testenv.T0, marker)
	if err != nil {
		t.Fatal(err)
	}
	c.forget()
	c.put("h", chat.Live, before)
	if _, ok := c.get("h"); ok {
		t.Fatal("an answer read before the revocation was kept")
	}
	after, err := c.begin(testenv.T0, marker)
	if err != nil {
		t.Fatal(err)
	}
	c.put("h", chat.Live, after)
	if m, ok := c.get("h"); !ok || m != chat.Live {
		t.Fatalf("get after put: %v %v", m, ok)
	}
}

// BenchmarkAuthenticate compares, in one run, a check of a key already
// seen with the database lookup it replaces.
//
//	go test ./app -run '^$' -bench Authenticate
func BenchmarkAuthenticate(b *testing.B) {
	ctx := context.Background()
	svc, db := newTestService(b)
	secret, _, err := svc.CreateKey(ctx, chat.Live, "bench")
	if err != nil {
		b.Fatal(err)
	}
	hash := hashKey(secret)
	var cached, lookup time.Duration
	for b.Loop() {
		t := time.Now()
		if _, err := svc.Authenticate(ctx, secret); err != nil {
			b.Fatal(err)
		}
		cached += time.Since(t)
		t = time.Now()
		if _, err := db.Read().KeyByHash(ctx, hash); err != nil {
			b.Fatal(err)
		}
		lookup += time.Since(t)
	}
	b.ReportMetric(float64(cached.Nanoseconds())/float64(b.N), "cached_ns/op")
	b.ReportMetric(float64(lookup.Nanoseconds())/float64(b.N), "lookup_ns/op")
	b.ReportMetric(float64(lookup)/float64(cached), "speedup")
}
