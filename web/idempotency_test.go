package web_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// idem sends a POST with an Idempotency-Key.
func (e *env) idem(key, apiKey, path, body string) resp {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Idempotency-Key", key)
	return e.send(req)
}

func ticketCount(t *testing.T, e *env) int {
	t.Helper()
	return len(e.all(e.testKey, "/v1/tickets", 100))
}

func TestIdempotentPostReplaysTheFirstResponse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := `{"subject":"Refund","contact":{"email":"ada@example.com"}}`
	first := e.idem("k1", e.testKey, "/v1/tickets", body)
	id := first.ok(t, 201)["id"]
	again := e.idem("k1", e.testKey, "/v1/tickets", body)
	if again.ok(t, 201)["id"] != id || string(again.raw) != string(first.raw) {
		t.Fatalf("replay differs:\n%s\n%s", first.raw, again.raw)
	}
	if again.header.Get("Idempotent-Replayed") != "true" || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("Idempotent-Replayed: first %q, replay %q", first.header.Get("Idempotent-Replayed"), again.header.Get("Idempotent-Replayed"))
	}
	if n := ticketCount(t, e); n != 1 {
		t.Fatalf("%d tickets, want 1", n)
	}
	if got := e.events(id.(string)); len(got) != 1 {
		t.Fatalf("events %v, want one ticket.created", got)
	}

	// Other parameters with the same key are refused; another key is a new request.
	e.idem("k1", e.testKey, "/v1/tickets", `{"subject":"Other","contact":{"email":"ada@example.com"}}`).
		fails(t, 400, "idempotency_key_reused", "Idempotency-Key")
	e.idem("k1", e.testKey, "/v1/contacts", body).fails(t, 400, "idempotency_key_reused", "Idempotency-Key")
	e.idem("k2", e.testKey, "/v1/tickets", body).ok(t, 201)
	// Keys belong to a mode.
	e.idem("k1", e.liveKey, "/v1/tickets", body).ok(t, 201)
	if n := ticketCount(t, e); n != 2 {
		t.Fatalf("%d test tickets, want 2", n)
	}

	// After 24 hours the key starts afresh.
	e.clock.Advance(app.IdempotencyWindow + time.Second)
	if e.idem("k1", e.testKey, "/v1/tickets", body).ok(t, 201)["id"] == id {
		t.Fatal("an expired key replayed the old response")
	}
	if n, err := e.svc.PruneIdempotencyKeys(context.Background()); err != nil || n != 2 {
		t.Fatalf("prune: %d, %v; want the 2 keys older than 24 h", n, err)
	}
}

func TestIdempotentErrorsAndLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bad := `{"subject":""}`
	first := e.idem("k", e.testKey, "/v1/tickets", bad)
	first.fails(t, 400, "parameter_invalid", "subject")
	if again := e.idem("k", e.testKey, "/v1/tickets", bad); again.status != 400 || string(again.raw) != string(first.raw) {
		t.Fatalf("a validation error is replayed as it was: %s", again.raw)
	}
	e.idem(strings.Repeat("x", 256), e.testKey, "/v1/tickets", bad).fails(t, 400, "parameter_invalid", "Idempotency-Key")
	e.idem(strings.Repeat("x", 255), e.testKey, "/v1/contacts", `{"email":"a@example.com"}`).ok(t, 201)
	e.idem("", e.testKey, "/v1/contacts", `{"email":"b@example.com"}`).fails(t, 400, "parameter_invalid", "Idempotency-Key")
	// GET ignores the header.
	req, _ := http.NewRequest("GET", e.srv.URL+"/v1/tickets", nil)
	req.Header.Set("Authorization", "Bearer "+e.testKey)
	req.Header.Set("Idempotency-Key", "k")
	e.send(req).ok(t, 200)
}

func TestIdempotencyKeyInUse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	body := `{"email":"ann@example.com"}`
	// A request that claimed the key and has not finished (or died).
	if _, err := e.svc.BeginIdempotent(ctx, chat.Test, "busy", app.Fingerprint("POST", "/v1/contacts", []byte(body))); err != nil {
		t.Fatal(err)
	}
	e.idem("busy", e.testKey, "/v1/contacts", body).fails(t, 409, "idempotency_key_in_use", "Idempotency-Key")
	// Abandoned after a minute: the key can be used again.
	e.clock.Advance(2 * time.Minute)
	e.idem("busy", e.testKey, "/v1/contacts", body).ok(t, 201)
}

func TestConcurrentDuplicatesCreateOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := `{"subject":"Once","contact":{"email":"ada@example.com"}}`
	const n = 12
	var wg sync.WaitGroup
	results := make([]resp, n)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = e.idem("same", e.testKey, "/v1/tickets", body)
		}()
	}
	wg.Wait()
	var id any
	for _, r := range results {
		switch r.status {
		case 201:
			if id == nil {
				id = r.body["id"]
			} else if r.body["id"] != id {
				t.Fatalf("two different tickets: %v and %v", id, r.body["id"])
			}
		case 409:
			r.fails(t, 409, "idempotency_key_in_use", "Idempotency-Key")
		default:
			t.Fatalf("status %d: %s", r.status, r.raw)
		}
	}
	if cnt := ticketCount(t, e); id == nil || cnt != 1 {
		t.Fatalf("%d tickets (first id %v), want exactly 1", cnt, id)
	}
}
