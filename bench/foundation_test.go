// Package bench measures chatsvc end to end against the ceilings of the
// machine it runs on, so figures are compared within one run.
package bench

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/bench/loadgen"
	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/web"
)

// phase is how long each measurement runs.
const phase = 3 * time.Second

// clients is how many concurrent HTTP clients drive the API.
const clients = 16

// BenchmarkFoundation reports, in one run: raw SQLite single-row write
// transactions/s (one connection, the project's pragmas), ticket creates/s,
// agent message creates/s and conversation reads/s through the HTTP API,
// and the API figures as ratios to the raw write rate.
//
//	go test ./bench -run '^$' -bench Foundation -benchtime 1x
func BenchmarkFoundation(b *testing.B) {
	for b.Loop() {
		raw := rawWrites(b)
		api := newAPI(b)
		creates, createCPU := api.rate(b, func(c *http.Client, i int) error {
			return api.post(c, "/v1/tickets", fmt.Sprintf(`{"subject":"Bench %d","contact_id":%q,"tags":["bench"]}`, i, api.contact))
		})
		messages, messageCPU := api.rate(b, func(c *http.Client, i int) error {
			return api.post(c, "/v1/conversations/"+api.convs[i%len(api.convs)]+"/messages",
				fmt.Sprintf(`{"body":"Reply %d: the plan changes at the next invoice.","author_id":%q}`, i, api.member))
		})
		reads, _ := api.rate(b, func(c *http.Client, i int) error {
			return api.get(c, "/v1/conversations/"+api.convs[i%len(api.convs)])
		})
		b.ReportMetric(raw, "raw_tx/s")
		b.ReportMetric(creates, "ticket_creates/s")
		b.ReportMetric(messages, "agent_messages/s")
		b.ReportMetric(reads, "conversation_reads/s")
		b.ReportMetric(float64(createCPU.Microseconds()), "ticket_cpu_us/op")
		b.ReportMetric(float64(messageCPU.Microseconds()), "message_cpu_us/op")
		b.ReportMetric(creates/raw, "creates/raw")
		b.ReportMetric(messages/raw, "messages/raw")
		b.ReportMetric(reads/raw, "reads/raw")
		b.Logf("raw SQLite write tx/s %.0f; API ticket creates/s %.0f (%.0f%% of raw, %s CPU each); agent message creates/s %.0f (%.0f%% of raw, %s CPU each); API conversation reads/s %.0f (%.0f%% of raw)",
			raw, creates, 100*creates/raw, createCPU, messages, 100*messages/raw, messageCPU, reads, 100*reads/raw)
	}
}

// rawWrites measures single-row INSERT transactions/s on one connection.
func rawWrites(b *testing.B) float64 {
	db, err := sql.Open("sqlite", storage.WriterDSN(filepath.Join(b.TempDir(), "raw.db")))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at INTEGER NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	// A prepared statement: the ceiling is SQLite's, not the SQL parser's.
	ins, err := db.Prepare(`INSERT INTO t (id, body, created_at) VALUES (?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	defer ins.Close()
	n := 0
	start := time.Now()
	for time.Since(start) < phase {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Stmt(ins).Exec(app.NewID("row_"), "payload", n); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds()
}

type api struct {
	srv     *httptest.Server
	key     string
	contact string
	member  string // the author of agent messages
	convs   []string
}

// newAPI starts the service on a temp dir over real loopback HTTP, with the
// desk-search-index worker as serve runs it, and seeds a contact, a team member
// and 1000 conversations.
func newAPI(b *testing.B) *api {
	ctx := context.Background()
	db, err := storage.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	svc := app.New(db, app.Options{})
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); svc.SearchIndexWorker().Run(wctx) }()
	b.Cleanup(func() { stop(); <-done })
	a := &api{srv: httptest.NewServer(web.Handler(svc))}
	b.Cleanup(a.srv.Close)
	if a.key, _, err = svc.CreateKey(ctx, chat.Test, "bench"); err != nil {
		b.Fatal(err)
	}
	site, err := svc.CreateSite(ctx, "Bench", "")
	if err != nil {
		b.Fatal(err)
	}
	c, _, err := svc.UpsertContact(ctx, chat.Test, app.ContactInput{Email: app.Value("bench@example.com")})
	if err != nil {
		b.Fatal(err)
	}
	a.contact = c.ID
	m, err := svc.CreateMember(ctx, "agent@example.com", "Agent", "")
	if err != nil {
		b.Fatal(err)
	}
	a.member = m.ID
	for i := 0; i < 1000; i++ {
		conv, _, err := svc.StartConversation(ctx, chat.Test, app.VisitorStart{SiteID: site.ID,
			PageURL: "https://example.com/", Body: fmt.Sprintf("Question number %d about pricing.", i)})
		if err != nil {
			b.Fatal(err)
		}
		a.convs = append(a.convs, conv.ID)
	}
	return a
}

// rate runs op from concurrent clients for one phase and returns ops/s and
// the CPU time of this process (service, workers and clients) per op, which
// other work on a shared machine moves less than the rate.
func (a *api) rate(b *testing.B, op func(c *http.Client, i int) error) (float64, time.Duration) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	var n atomic.Int64
	cpu := processCPU(b)
	r := loadgen.Run(clients, phase, loadgen.Timed(func(int, int) error { return op(client, int(n.Add(1))) }))
	if r.FirstErr != nil {
		b.Fatal(r.FirstErr)
	}
	ops := int64(len(r.Latencies))
	return r.Rate(), (processCPU(b) - cpu) / time.Duration(max(ops, 1))
}

// processCPU is the CPU time this process has used, user and system.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (a *api) post(c *http.Client, path, body string) error {
	return a.send(c, "POST", path, body, http.StatusCreated)
}

func (a *api) get(c *http.Client, path string) error {
	return a.send(c, "GET", path, "", http.StatusOK)
}

func (a *api) send(c *http.Client, method, path, body string, want int) error {
	req, err := http.NewRequest(method, a.srv.URL+path, bytes.NewBufferString(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+a.key)
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, out)
	}
	return nil
}
