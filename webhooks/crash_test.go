package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"chatsvc/cli"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// serveEnv names the config file with which the test binary, started again
// as a child process, runs `chatsvc serve` instead of the tests.
const serveEnv = "WEBHOOKS_TEST_SERVE_CONFIG" // not CHATSVC_: that prefix is configuration

func TestMain(m *testing.M) {
	if cfg := os.Getenv(serveEnv); cfg != "" {
		defaults, err := os.ReadFile("../config.example.yaml")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(cli.Execute(context.Background(), defaults, "test", []string{"serve", "--config", cfg}, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestCrashResumesAndRepeatsNothingAcknowledged kills a serving process
// (SIGKILL) while deliveries are in flight, starts it again, and checks
// that every event reaches the receiver and that none whose success was
// recorded before the crash is sent again.
func TestCrashResumesAndRepeatsNothingAcknowledged(t *testing.T) {
	t.Parallel()
	const tickets = 300
	// The receiver holds every request until the tickets are written, so
	// the kill lands mid-stream; the configured timeout outlasts that wait
	// on a slow machine (under the race detector 300 creates can take more
	// than 5 s), else the first sends fail and wait a minute to be retried.
	gate := make(chan struct{})
	var gateOnce sync.Once
	open := func() { gateOnce.Do(func() { close(gate) }) }
	var mu sync.Mutex
	counts := map[string]int{}
	var after map[string]int // received since the restart; nil before it
	var answered atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p struct{ ID string }
		json.Unmarshal(body, &p)
		<-gate
		mu.Lock()
		counts[p.ID]++
		if after != nil {
			after[p.ID]++
		}
		mu.Unlock()
		time.Sleep(time.Millisecond) // a receiver's own work, so the kill lands mid-stream
		w.WriteHeader(200)
		answered.Add(1)
	}))
	t.Cleanup(recv.Close)
	t.Cleanup(open) // runs first: no handler stays blocked

	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	data := filepath.Join(dir, "data")
	err := os.WriteFile(cfg, []byte(fmt.Sprintf(`addr: "127.0.0.1:0"
data_dir: %q
network:
  allow_private: true
webhooks:
  allow_http: true
  timeout: "60s"
`, data)), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defaults, _ := os.ReadFile("../config.example.yaml")
	var out bytes.Buffer
	if code := cli.Execute(context.Background(), defaults, "test", []string{"keys", "create", "--mode", "test", "--config", cfg}, &out, io.Discard); code != 0 {
		t.Fatalf("keys create: %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	key := lines[len(lines)-1]

	child, addr := startServe(t, cfg)
	call := func(method, path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		json.NewDecoder(res.Body).Decode(&m)
		if res.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v", method, path, res.StatusCode, m)
		}
		return m
	}
	call("POST", "/v1/webhook-endpoints", fmt.Sprintf(`{"url":%q,"events":["ticket.created"]}`, recv.URL))
	contact := call("POST", "/v1/contacts", `{"email":"ada@example.com"}`)["id"].(string)
	for i := 0; i < tickets; i++ {
		call("POST", "/v1/tickets", fmt.Sprintf(`{"subject":"T%d","contact_id":%q,"notify_contact":false}`, i, contact))
	}
	open()
	testenv.Eventually(t, "a third of the deliveries answered", func() bool { return answered.Load() >= tickets/3 })
	if err := child.Process.Kill(); err != nil { // no shutdown, no flush: a crash
		t.Fatal(err)
	}
	child.Wait()

	acked := deliveredEvents(t, data)
	if len(acked) == 0 || len(acked) >= tickets {
		t.Fatalf("%d deliveries recorded before the crash; the test needs some, not all", len(acked))
	}
	mu.Lock()
	for id := range acked {
		if counts[id] != 1 {
			t.Fatalf("event %s recorded as delivered but received %d times", id, counts[id])
		}
	}
	mu.Unlock()

	mu.Lock()
	after = map[string]int{}
	mu.Unlock()
	child, _ = startServe(t, cfg)
	// Every event not acknowledged before the crash is sent after it, those
	// the receiver had when the process died too: waiting only for every
	// event to have arrived once would stop before those were sent again.
	testenv.Eventually(t, "every unacknowledged event delivered after the restart", func() bool {
		mu.Lock()
		defer mu.Unlock()
		if len(counts) < tickets {
			return false
		}
		for id := range counts {
			if !acked[id] && after[id] == 0 {
				return false
			}
		}
		return true
	})
	child.Process.Signal(syscall.SIGTERM)
	if err := child.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v", err)
	}

	mu.Lock()
	defer mu.Unlock()
	again := 0
	for id, n := range counts {
		if acked[id] && n != 1 {
			t.Errorf("event %s was acknowledged before the crash and sent %d times", id, n)
		}
		if n > 1 {
			again++ // in flight when the process died: sent again, as promised
		}
	}
	db, err := storage.Open(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := db.Read().QueuedWebhooks(context.Background()); err != nil || n != 0 {
		t.Fatalf("%d deliveries still queued (%v)", n, err)
	}
	t.Logf("%d of %d acknowledged before the crash; %d in flight at the crash were sent again", len(acked), tickets, again)
}

// startServe runs `chatsvc serve` in a child process on a port the system
// picks, and returns once the child logs the address it listens on.
func startServe(t *testing.T, cfg string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"="+cfg)
	cmd.Stdout = io.Discard
	return cmd, testenv.StartServe(t, cmd)
}

// deliveredEvents reads, from the database a crashed process left, the
// events whose delivery was recorded as successful.
func deliveredEvents(t *testing.T, dataDir string) map[string]bool {
	t.Helper()
	db, err := storage.Open(context.Background(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids, err := db.Read().DeliveredEventIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, id := range ids {
		out[id] = true
	}
	return out
}
