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
	"chatsvc/testenv/webenv"
)

// idem sends a POST with an Idempotency-Key.
func idem(e *webenv.Env, key, apiKey, path, body string) webenv.Resp {
	e.T.Helper()
	req, err := http.NewRequest("POST", e.Server.URL+path, strings.NewReader(body))
	if err != nil {
		e.T.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Idempotency-Key", key)
	return e.Send(req)
}

func ticketCount(t *testing.T, e *webenv.Env) int {
	t.Helper()
	return len(e.All(e.TestKey, "/v1/tickets", 100))
}

func TestIdempotentPostReplaysTheFirstResponse(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	body := `{"subject":"Refund","contact":{"email":"ada@example.com"}}`
	first := idem(e, "k1", e.TestKey, "/v1/tickets", body)
	id := first.OK(t, 201)["id"]
	again := idem(e, "k1", e.TestKey, "/v1/tickets", body)
	if again.OK(t, 201)["id"] != id || string(again.Raw) != string(first.Raw) {
		t.Fatalf("replay differs:\n%s\n%s", first.Raw, again.Raw)
	}
	if again.Header.Get("Idempotent-Replayed") != "true" || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("Idempotent-Replayed: first %q, replay %q", first.Header.Get("Idempotent-Replayed"), again.Header.Get("Idempotent-Replayed"))
	}
	if n := ticketCount(t, e); n != 1 {
		t.Fatalf("%d tickets, want 1", n)
	}
	if got := e.Events(id.(string)); len(got) != 1 {
		t.Fatalf("events %v, want one ticket.created", got)
	}

	// Other parameters with the same key are refused; another key is a new request.
	idem(e, "k1", e.TestKey, "/v1/tickets", `{"subject":"Other","contact":{"email":"ada@example.com"}}`).
		Fails(t, 400, "idempotency_key_reused", "Idempotency-Key")
	idem(e, "k1", e.TestKey, "/v1/contacts", body).Fails(t, 400, "idempotency_key_reused", "Idempotency-Key")
	idem(e, "k2", e.TestKey, "/v1/tickets", body).OK(t, 201)
	// Keys belong to a mode.
	idem(e, "k1", e.LiveKey, "/v1/tickets", body).OK(t, 201)
	if n := ticketCount(t, e); n != 2 {
		t.Fatalf("%d test tickets, want 2", n)
	}

	// After 24 hours the key starts afresh.
	e.Clock.Advance(app.IdempotencyWindow + time.Second)
	if idem(e, "k1", e.TestKey, "/v1/tickets", body).OK(t, 201)["id"] == id {
		t.Fatal("an expired key replayed the old response")
	}
	if n, err := e.Svc.PruneIdempotencyKeys(context.Background()); err != nil || n != 2 {
		t.Fatalf("prune: %d, %v; want the 2 keys older than 24 h", n, err)
	}
}

func TestIdempotentErrorsAndLimits(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	bad := `{"subject":""}`
	first := idem(e, "k", e.TestKey, "/v1/tickets", bad)
	first.Fails(t, 400, "parameter_invalid", "subject")
	if again := idem(e, "k", e.TestKey, "/v1/tickets", bad); again.Status != 400 || string(again.Raw) != string(first.Raw) {
		t.Fatalf("a validation error is replayed as it was: %s", again.Raw)
	}
	idem(e, strings.Repeat("x", 256), e.TestKey, "/v1/tickets", bad).Fails(t, 400, "parameter_invalid", "Idempotency-Key")
	idem(e, strings.Repeat("x", 255), e.TestKey, "/v1/contacts", `{"email":"a@example.com"}`).OK(t, 201)
	idem(e, "", e.TestKey, "/v1/contacts", `{"email":"b@example.com"}`).Fails(t, 400, "parameter_invalid", "Idempotency-Key")
	// GET ignores the header.
	req, _ := http.NewRequest("GET", e.Server.URL+"/v1/tickets", nil)
	req.Header.Set("Authorization", "Bearer "+e.TestKey)
	req.Header.Set("Idempotency-Key", "k")
	e.Send(req).OK(t, 200)
}

func TestIdempotencyKeyInUse(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctx := context.Background()
	body := `{"email":"ann@example.com"}`
	// A request that claimed the key and has not finished (or died).
	if _, err := e.Svc.BeginIdempotent(ctx, chat.Test, "busy", app.Fingerprint("POST", "/v1/contacts", []byte(body))); err != nil {
		t.Fatal(err)
	}
	idem(e, "busy", e.TestKey, "/v1/contacts", body).Fails(t, 409, "idempotency_key_in_use", "Idempotency-Key")
	// Abandoned after a minute: the key can be used again.
	e.Clock.Advance(2 * time.Minute)
	idem(e, "busy", e.TestKey, "/v1/contacts", body).OK(t, 201)
}

func TestConcurrentDuplicatesCreateOnce(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	body := `{"subject":"Once","contact":{"email":"ada@example.com"}}`
	const n = 12
	var wg sync.WaitGroup
	results := make([]webenv.Resp, n)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = idem(e, "same", e.TestKey, "/v1/tickets", body)
		}()
	}
	wg.Wait()
	var id any
	for _, r := range results {
		switch r.Status {
		case 201:
			if id == nil {
				id = r.Body["id"]
			} else if r.Body["id"] != id {
				t.Fatalf("two different tickets: %v and %v", id, r.Body["id"])
			}
		case 409:
			r.Fails(t, 409, "idempotency_key_in_use", "Idempotency-Key")
		default:
			t.Fatalf("status %d: %s", r.Status, r.Raw)
		}
	}
	if cnt := ticketCount(t, e); id == nil || cnt != 1 {
		t.Fatalf("%d tickets (first id %v), want exactly 1", cnt, id)
	}
}
