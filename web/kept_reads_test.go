package web_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"chatsvc/chat"
	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

// reader is a second API client with connections of its own: what one
// client writes, another reads.
func reader(e *webenv.Env) func(path string) webenv.Resp {
	c := &http.Client{Transport: &http.Transport{}}
	e.T.Cleanup(c.CloseIdleConnections)
	return func(path string) webenv.Resp {
		e.T.Helper()
		return webenv.ToResp(testenv.Call(e.T, c, "GET", e.Server.URL+path, nil, "Authorization", "Bearer "+e.TestKey))
	}
}

// TestReadsByIDFollowWrites: conversations, tickets and contacts read by id
// are answered from memory, and a read by one client right after another
// client's write was acknowledged shows that write; after an erasure or a
// deletion it shows nothing.
func TestReadsByIDFollowWrites(t *testing.T) {
	e := webenv.New(t)
	get := reader(e)
	ctc := e.Contact("ada@example.com")
	conv := cvStart(t, e, chat.Test, e.Site, ctc, "Hello, my printer is on fire.")
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Printer of ada@example.com", "contact_id": ctc, "conversation_id": conv}).OK(t, 201)["id"].(string)
	number := fmt.Sprint(get("/v1/tickets/"+tkt).OK(t, 200)["number"])

	// Each object read twice: the second answer comes from memory.
	for _, path := range []string{cvPath(conv), "/v1/tickets/" + tkt, "/v1/contacts/" + ctc} {
		first, second := get(path), get(path)
		first.OK(t, 200)
		if string(first.Raw) != string(second.Raw) {
			t.Fatalf("%s: two reads differ:\n%s\n%s", path, first.Raw, second.Raw)
		}
	}
	if n := e.DB.KeptRows(); n != 3 {
		t.Fatalf("%d rows kept after reading three objects, want 3", n)
	}
	// A live-mode key does not see a test-mode object kept in memory.
	e.Live("GET", cvPath(conv), nil).Fails(t, 404, "resource_missing", "id")

	steps := []struct {
		name        string
		write       func()
		path, field string
		want        any
	}{
		{"conversation tags", func() {
			e.Test("PATCH", cvPath(conv), map[string]any{"tags": []string{"billing"}}).OK(t, 200)
		}, cvPath(conv), "tags", []any{"billing"}},
		{"agent message", func() { cvSay(t, e, conv, "On it.") }, cvPath(conv), "message_count", 2.0},
		{"close", func() { e.Test("POST", cvPath(conv, "/close"), map[string]any{}).OK(t, 200) }, cvPath(conv), "status", "closed"},
		{"ticket status", func() {
			e.Test("PATCH", "/v1/tickets/"+tkt, map[string]any{"status": "pending"}).OK(t, 200)
		}, "/v1/tickets/" + tkt, "status", "pending"},
		{"ticket by number", func() {
			e.Test("PATCH", "/v1/tickets/"+tkt, map[string]any{"priority": "high"}).OK(t, 200)
		}, "/v1/tickets/T-" + number, "priority", "high"},
		{"contact name", func() {
			e.Test("PATCH", "/v1/contacts/"+ctc, map[string]any{"name": "Ada L."}).OK(t, 200)
		}, "/v1/contacts/" + ctc, "name", "Ada L."},
		{"contact upsert", func() {
			e.Test("POST", "/v1/contacts", map[string]any{"email": "ada@example.com", "phone": "+1 555 0100"}).OK(t, 200)
		}, "/v1/contacts/" + ctc, "phone", "+1 555 0100"},
	}
	for _, s := range steps {
		get(s.path).OK(t, 200) // kept before the write
		s.write()
		if got := get(s.path).OK(t, 200)[s.field]; fmt.Sprint(got) != fmt.Sprint(s.want) {
			t.Fatalf("%s: %s is %v right after the write, want %v", s.name, s.field, got, s.want)
		}
	}

	other := e.Contact("grace@example.com")
	otherTkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Grace's", "contact_id": other}).OK(t, 201)["id"].(string)
	get("/v1/tickets/"+otherTkt).OK(t, 200)
	e.Test("DELETE", "/v1/tickets/"+otherTkt, nil).OK(t, 200)
	get("/v1/tickets/"+otherTkt).Fails(t, 404, "resource_missing", "id")

	// Erasure: the contact is gone, and what was kept of its conversation
	// and ticket is not shown again.
	for _, path := range []string{cvPath(conv), "/v1/tickets/" + tkt, "/v1/contacts/" + ctc} {
		get(path).OK(t, 200)
	}
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	get("/v1/contacts/"+ctc).Fails(t, 404, "resource_missing", "id")
	if c := get(cvPath(conv)).OK(t, 200); c["contact_id"] != nil {
		t.Fatalf("conversation after its contact's erasure: contact_id %v", c["contact_id"])
	}
	if tk := get("/v1/tickets/"+tkt).OK(t, 200); tk["subject"] != "Printer of [redacted]" {
		t.Fatalf("ticket after its contact's erasure: subject %v", tk["subject"])
	}
}

// TestReadsByIDFollowWritesUnderLoad: while readers read one conversation
// as fast as they can, a writer adds messages to it one at a time; no read
// that began after a message was acknowledged shows fewer messages. A read
// that a write overtakes must not put back what it read.
func TestReadsByIDFollowWritesUnderLoad(t *testing.T) {
	e := webenv.New(t)
	conv := e.Conversation(chat.Test, "Hello")
	var acked atomic.Int64
	acked.Store(1)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var stale atomic.Value
	var reads atomic.Int64
	for range 4 {
		get := reader(e)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				want := acked.Load()
				c := get(cvPath(conv))
				if c.Status != 200 {
					stale.Store(fmt.Sprintf("status %d: %s", c.Status, c.Raw))
					return
				}
				reads.Add(1)
				if got := int64(c.Body["message_count"].(float64)); got < want {
					stale.Store(fmt.Sprintf("message_count %d after %d were acknowledged", got, want))
					return
				}
			}
		}()
	}
	for i := range 150 {
		cvSay(t, e, conv, fmt.Sprintf("Reply %d", i))
		acked.Add(1)
	}
	close(done)
	wg.Wait()
	if s := stale.Load(); s != nil {
		t.Fatal(s)
	}
	if reads.Load() < 150 {
		t.Fatalf("only %d reads beside 150 writes", reads.Load())
	}
}
