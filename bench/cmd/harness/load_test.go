package main

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestDriveCountsSuccessesAndErrors(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1)%4 == 0 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	r := drive("test", 4, 200*time.Millisecond, func(c *http.Client, _, _ int) error {
		return call(c, "GET", srv.URL, nil, "", 200, nil)
	})
	if total := int64(r.n + r.errors); total != hits.Load() {
		t.Fatalf("%d ok + %d errors, server saw %d", r.n, r.errors, hits.Load())
	}
	if r.errors == 0 || r.n < 3*r.errors-4 || r.n == 0 {
		t.Fatalf("%d ok, %d errors: want about one error in four", r.n, r.errors)
	}
	if r.p50 <= 0 || r.p99 < r.p50 {
		t.Fatalf("p50 %v, p99 %v", r.p50, r.p99)
	}
}

func TestDrainRateStopsWhenAllArrived(t *testing.T) {
	var c counter
	start := time.Now()
	go func() {
		for i := 0; i < 5; i++ {
			time.Sleep(5 * time.Millisecond) // arrivals spread over time, as deliveries are
			c.hit()
		}
	}()
	n, took := drainRate(&c, start, 5, 10*time.Second, 20*time.Second)
	if n != 4 { // arrivals after the first, over the time since the first
		t.Fatalf("n = %d, want 4", n)
	}
	if took <= 0 || took > 5*time.Second {
		t.Fatalf("took %v", took)
	}
}

func TestDrainRateStopsWhenQuiet(t *testing.T) {
	var c counter
	c.hit()
	c.hit()
	start := time.Now()
	n, _ := drainRate(&c, start, 5, 50*time.Millisecond, 20*time.Second)
	if n != 1 {
		t.Fatalf("n = %d, want 1", n)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("waited %v after the arrivals stopped, quiet is 50ms", took)
	}
}
