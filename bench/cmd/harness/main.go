// Command harness measures chatsvc end to end: it builds the binary, seeds
// a data dir through the storage layer, starts `chatsvc serve` on a free
// loopback port, drives it with concurrent clients, and prints one table
// with each figure beside the ceiling of this machine measured in the same
// run (raw SQLite write transactions/s, a trivial net/http JSON handler's
// requests/s), and ticket creates beside a ticket's rows written in raw
// SQLite, one ticket a transaction (ticket_rows.go).
//
//	go run ./bench/cmd/harness                 # 1,000,000 messages
//	go run ./bench/cmd/harness -scale 0.01     # a quick run
//	go run ./bench/cmd/harness -against ../old # paired runs against another build (paired.go)
//	go run ./bench/cmd/harness -against . -replica # the same build, B replicating to a folder
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"chatsvc/app"
	"chatsvc/bench/loadgen"
	"chatsvc/bench/seed"
	"chatsvc/chat"
	"chatsvc/storage"
)

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "harness: "+format+"\n", args...)
}

func main() {
	var o options
	flag.Float64Var(&o.scale, "scale", 1, "data size as a share of 1,000,000 messages, 100,000 conversations, 50,000 tickets and 100,000 contacts")
	flag.IntVar(&o.clients, "clients", 16, "concurrent clients")
	flag.DurationVar(&o.phase, "phase", 3*time.Second, "how long each load phase runs")
	flag.StringVar(&o.root, "root", ".", "the chatsvc module's root, built into the binary under test")
	flag.StringVar(&o.dir, "dir", "", "work dir (default: a new temp dir, removed afterwards)")
	flag.StringVar(&o.against, "against", "", "another chatsvc module's root: compare the two in paired runs instead")
	flag.BoolVar(&o.replica, "replica", false, "paired runs: B replicates its database to a folder of the work dir")
	flag.StringVar(&o.profile, "profile", "", "paired runs: B's server writes a CPU profile of its whole run to this file (go tool pprof reads it)")
	flag.IntVar(&o.slices, "slices", 30, "paired runs: slices of load, half on each build")
	flag.StringVar(&o.compare, "compare", strings.Join(pairedPhases, ";"), "paired runs: the phases to compare, separated by ;")
	trivial := flag.Bool("trivial-server", false, "only serve the trivial handler of the ceiling (the harness starts itself so)")
	flag.Parse()
	if *trivial {
		if err := serveTrivial(); err != nil {
			logf("%v", err)
			os.Exit(1)
		}
		return
	}
	if err := run(o); err != nil {
		logf("%v", err)
		os.Exit(1)
	}
}

type options struct {
	scale   float64
	clients int
	phase   time.Duration
	root    string
	dir     string
	against string
	slices  int
	compare string // paired runs: the phases, separated by ;
	replica bool   // paired runs: B replicates to a folder (replica.url)
	profile string // paired runs: B's server writes its CPU profile here
}

// fixture is what seeding leaves for the load phases.
type fixture struct {
	key    string
	member string
	*seed.Result
}

func run(o options) error {
	began := time.Now()
	dir := o.dir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "chatsvc-harness-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	if o.against != "" {
		return paired(o, dir)
	}
	dataDir := filepath.Join(dir, "data")

	// Build while seeding: the two are independent.
	built := make(chan error, 1)
	var bin string
	go func() {
		var err error
		bin, err = build(o.root, dir)
		built <- err
	}()
	var hooks counter
	hookURL, stopHooks, err := webhookReceiver(&hooks)
	if err != nil {
		return err
	}
	defer stopHooks()
	sc := seed.Of(o.scale)
	t0 := time.Now()
	fx, err := seedDir(dataDir, sc, hookURL)
	if err != nil {
		return err
	}
	seedTime := time.Since(t0)
	logf("seeded %d messages in %d conversations, %d tickets, %d contacts in %v",
		sc.Messages, sc.Conversations, sc.Tickets, sc.Contacts, seedTime.Round(time.Millisecond))
	if err := <-built; err != nil {
		return fmt.Errorf("build: %w", err)
	}

	// Ceilings, on the same machine in the same run: measured before and
	// after the load and averaged, since other work on a shared machine
	// shifts them.
	first, err := ceilings(dir, o, 1)
	if err != nil {
		return err
	}

	// Run 1: the API and the widget; mail waits in the outbox and webhooks
	// are off, so their drains are measured alone afterwards.
	srv, err := start(bin, dataDir, settings{})
	if err != nil {
		return err
	}
	time.Sleep(time.Second) // a second at rest, so the idle figure is not start-up's
	idleRSS := srv.rss()
	peak := srv.peakRSS()
	rows, tickets, err := apiLoad(srv.url, fx, o, srv.rss)
	loadRSS := peak()
	if stopErr := srv.stop(); err == nil {
		err = stopErr
	}
	if err != nil {
		return err
	}

	// Run 2: the outbox drains to a local SMTP server.
	var mails counter
	smtpPort, stopSMTP, err := startSMTP(&mails)
	if err != nil {
		return err
	}
	defer stopSMTP()
	mail, err := drain(bin, dataDir, settings{smtpPort: smtpPort}, "mail outbox drain", &mails, tickets)
	if err != nil {
		return err
	}
	rows = append(rows, mail)

	// Run 3: the events of run 1 are delivered to the local receiver.
	hook, err := drain(bin, dataDir, settings{webhooks: true}, "webhook deliveries", &hooks, 1<<30)
	if err != nil {
		return err
	}
	rows = append(rows, hook)

	last, err := ceilings(dir, o, 2)
	if err != nil {
		return err
	}
	refs := first.mean(last)
	logf("ceilings before/after the load: raw SQLite %.0f/%.0f tx/s (without fsync %.0f/%.0f), a ticket's rows %.0f/%.0f tx/s (without fsync %.0f/%.0f), trivial handler %.0f/%.0f req/s",
		first.raw.rate(), last.raw.rate(), first.unsynced.rate(), last.unsynced.rate(),
		first.ticket.rate(), last.ticket.rate(), first.ticketUnsynced.rate(), last.ticketUnsynced.rate(),
		first.trivial.rate(), last.trivial.rate())
	for i := range rows {
		switch rows[i].ceiling {
		case "sqlite":
			rows[i].ratio = rows[i].rate() / refs.raw.rate()
		case "http":
			rows[i].ratio = rows[i].rate() / refs.trivial.rate()
		}
	}
	size := fileSize(filepath.Join(dataDir, storage.FileName)) + fileSize(filepath.Join(dataDir, storage.FileName+"-wal"))
	printTable(os.Stdout, o, sc, seedTime, append(refs.rows(), rows...), idleRSS, loadRSS, size, time.Since(began))
	// A figure taken with failing requests, or with none, measures nothing.
	for _, r := range rows {
		if r.errors > 0 || r.n == 0 {
			return fmt.Errorf("%s: %d done, %d failed", r.name, r.n, r.errors)
		}
	}
	return nil
}

// references are what this machine allows, measured in the same run as
// the load: the ceilings the table's ratios are to (raw single-row SQLite
// write transactions, a trivial handler), and the references the writes
// are also set against below the table (the same transactions without the
// fsync of each commit, and a ticket create's rows one ticket a
// transaction, with and without it: ticket_rows.go).
type references struct {
	raw, unsynced, ticket, ticketUnsynced, trivial result
}

// Which reference a row is, in result.ceiling.
const (
	refUnsynced       = "reference"
	refTicket         = "ticket rows"
	refTicketUnsynced = "ticket rows without fsync"
)

// ceilings measures the references, each for o.phase.
func ceilings(dir string, o options, round int) (references, error) {
	var refs references
	path := filepath.Join(dir, fmt.Sprintf("raw%d.db", round))
	var err error
	if refs.raw, err = rawWrites("ceiling: raw SQLite write tx (1 conn)", storage.WriterDSN(path), o.phase); err != nil {
		return refs, err
	}
	if refs.unsynced, err = rawWrites("reference: the same without fsync", storage.WriterDSN(path+"-nosync")+unsynced, o.phase); err != nil {
		return refs, err
	}
	tickets := filepath.Join(dir, fmt.Sprintf("tickets%d", round))
	if refs.ticket, err = rawTicketWrites("reference: a ticket's rows per tx", tickets, "", o.phase); err != nil {
		return refs, err
	}
	if refs.ticketUnsynced, err = rawTicketWrites("reference: a ticket's rows, no fsync", tickets+"-nosync", unsynced, o.phase); err != nil {
		return refs, err
	}
	trivialURL, stopTrivial, err := trivialServer()
	if err != nil {
		return refs, err
	}
	defer stopTrivial()
	refs.trivial = drive("ceiling: trivial net/http JSON handler", o.clients, o.phase, func(c *http.Client, _, _ int) error {
		return call(c, "GET", trivialURL+"/v1/conversations/conv_trivial", nil, "", 200, nil)
	})
	return refs, nil
}

// unsynced is what the references without fsync add to the writer's
// connection string: commits that leave the log to the OS.
const unsynced = "&_pragma=synchronous(NORMAL)"

// mean averages two rounds of the references, and marks which is which.
func (a references) mean(b references) references {
	m := references{raw: mean(a.raw, b.raw), unsynced: mean(a.unsynced, b.unsynced), ticket: mean(a.ticket, b.ticket),
		ticketUnsynced: mean(a.ticketUnsynced, b.ticketUnsynced), trivial: mean(a.trivial, b.trivial)}
	m.unsynced.ceiling, m.ticket.ceiling, m.ticketUnsynced.ceiling = refUnsynced, refTicket, refTicketUnsynced
	return m
}

// rows are the references as the table's first rows.
func (r references) rows() []result {
	return []result{r.raw, r.unsynced, r.ticket, r.ticketUnsynced, r.trivial}
}

// mean is the average of two measurements of the same thing.
func mean(a, b result) result {
	a.n += b.n
	a.errors += b.errors
	a.elapsed += b.elapsed
	a.p50, a.p99, a.cpu = (a.p50+b.p50)/2, (a.p99+b.p99)/2, (a.cpu+b.cpu)/2
	return a
}

// seedDir creates the workspace (two sites, a team member, a test key, a
// webhook endpoint for every event) and seeds sc through the storage layer.
func seedDir(dataDir string, sc seed.Scale, hookURL string) (*fixture, error) {
	ctx := context.Background()
	db, err := storage.Open(ctx, dataDir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	svc := app.New(db, app.Options{Webhooks: app.WebhookOptions{AllowHTTP: true, AllowPrivate: true}})
	var sites []string
	for _, name := range []string{"Shop", "Docs"} {
		s, err := svc.CreateSite(ctx, name, "")
		if err != nil {
			return nil, err
		}
		sites = append(sites, s.ID)
	}
	m, err := svc.CreateMember(ctx, "agent@example.com", "Agent", "")
	if err != nil {
		return nil, err
	}
	key, _, err := svc.CreateKey(ctx, chat.Test, "harness")
	if err != nil {
		return nil, err
	}
	if _, err := svc.CreateWebhookEndpoint(ctx, chat.Test, app.WebhookEndpointInput{
		URL: app.Value(hookURL), Events: app.Value([]string{"*"})}); err != nil {
		return nil, err
	}
	res, err := seed.Run(ctx, db, chat.Test, sites, m.ID, sc, time.Now())
	if err != nil {
		return nil, err
	}
	return &fixture{key: key, member: m.ID, Result: res}, nil
}

// apiLoad runs the API and widget phases against a running server and
// returns their rows and how many tickets were created (each owes an e-mail).
// searchQueries are the searches of the search phases: a word in every
// seeded message, two such words, a rare number, a ticket word, a
// contact's name.
var searchQueries = []string{"plan", "team+grows", "conversation+4242", "follow", "visitor+777"}

// pick is one of ids, at random.
func pick(ids []string) string { return ids[rand.IntN(len(ids))] }

// rss, the server's resident memory, is logged after each phase: which
// load grows it.
func apiLoad(base string, fx *fixture, o options, rss func() int64) ([]result, int, error) {
	auth := map[string]string{"Authorization": "Bearer " + fx.key}
	if err := waitKnowledge(base, auth); err != nil {
		return nil, 0, err
	}
	phase := func(name, ceiling string, fn op) result {
		r := drive(name, o.clients, o.phase, fn)
		r.ceiling = ceiling
		logf("%s: %.0f/s, p50 %v, p99 %v, %d errors; resident memory %.1f MB", name, r.rate(), r.p50, r.p99, r.errors, float64(rss())/1e6)
		return r
	}
	var rows []result
	rows = append(rows, phase(ticketCreatePhase, "sqlite", ticketCreate(base, auth, fx.Contacts)))
	tickets := rows[0].n
	rows = append(rows, phase("contact upsert", "sqlite", func(c *http.Client, _, i int) error {
		// Half create a contact, half update one made before.
		email := fmt.Sprintf("upsert%d@example.com", i)
		if i%2 == 1 {
			email = fmt.Sprintf("upsert%d@example.com", i-1)
		}
		err := call(c, "POST", base+"/v1/contacts", auth, fmt.Sprintf(`{"email":%q,"name":"Harness","attributes":{"plan":"pro"}}`, email), 201, nil)
		if err != nil && strings.Contains(err.Error(), ": 200 ") {
			return nil
		}
		return err
	}))
	message := agentMessage(base, auth, fx.Open, fx.member)
	rows = append(rows, phase("agent message create", "sqlite", message))
	// The same route refused before it writes (no author_id): what HTTP, the
	// key check and the JSON cost without the writer.
	rows = append(rows, phase("agent message refused (400), no write", "sqlite", func(c *http.Client, _, i int) error {
		return call(c, "POST", base+"/v1/conversations/"+pick(fx.Open)+"/messages", auth,
			fmt.Sprintf(`{"body":"Reply %d: the plan changes at the next invoice."}`, i), 400, nil)
	}))
	// Visitors with the widget open hold event streams: they must not
	// make every write cost a read per visitor.
	closeWidgets, err := openWidgets(base, fx.Sites[0], widgetsOpen)
	if err != nil {
		return nil, 0, err
	}
	rows = append(rows, phase(fmt.Sprintf("agent message create, %d widgets open", widgetsOpen), "sqlite", message))
	closeWidgets()
	rows = append(rows, phase("get conversation", "http", func(c *http.Client, _, i int) error {
		return call(c, "GET", base+"/v1/conversations/"+pick(fx.Conversations), auth, "", 200, nil)
	}))
	// A desk reads the same open conversations again and again: 500 of them.
	desk := fx.Conversations[:min(deskConversations, len(fx.Conversations))]
	rows = append(rows, phase(fmt.Sprintf("get conversation, %d on the desk", deskConversations), "http", func(c *http.Client, _, i int) error {
		return call(c, "GET", base+"/v1/conversations/"+pick(desk), auth, "", 200, nil)
	}))
	rows = append(rows, phase("list conversations (limit 20, filters)", "http", func(c *http.Client, _, i int) error {
		var q string
		switch i % 3 {
		case 0:
			q = "status=" + string(seed.Statuses[i%len(seed.Statuses)])
		case 1:
			q = "status=" + string(seed.Statuses[i%len(seed.Statuses)]) + "&site_id=" + fx.Sites[i%len(fx.Sites)]
		case 2:
			q = "contact_id=" + pick(fx.Contacts)
		}
		return call(c, "GET", base+"/v1/conversations?limit=20&"+q, auth, "", 200, nil)
	}))
	rows = append(rows, phase("list messages (limit 20)", "http", func(c *http.Client, _, i int) error {
		return call(c, "GET", base+"/v1/conversations/"+pick(fx.Conversations)+"/messages?limit=20", auth, "", 200, nil)
	}))
	rows = append(rows, phase("search (FTS5)", "http", func(c *http.Client, _, i int) error {
		return call(c, "GET", base+"/v1/search?limit=20&q="+searchQueries[i%len(searchQueries)], auth, "", 200, nil)
	}))
	// The same searches, none asked before (the server keeps answers until
	// the next write): each is a case variant at random, see RandomCase.
	rows = append(rows, phase("search (FTS5), every query new", "http", func(c *http.Client, _, i int) error {
		return call(c, "GET", base+"/v1/search?limit=20&q="+loadgen.RandomCase(searchQueries[i%len(searchQueries)]), auth, "", 200, nil)
	}))
	rows = append(rows, phase("reports summary (30 days)", "http", func(c *http.Client, _, i int) error {
		return call(c, "GET", base+"/v1/reports/summary", auth, "", 200, nil)
	}))
	// Each visitor writes visitorMessages messages, then a new one comes:
	// the widget allows one visitor 30 messages a minute.
	tokens, sent := make([]string, o.clients), make([]int, o.clients)
	rows = append(rows, phase("widget message + assistant reply", "sqlite", func(c *http.Client, w, i int) error {
		if sent[w]%visitorMessages == 0 {
			token, err := newVisitor(c, base, fx.Sites[0])
			if err != nil {
				return err
			}
			tokens[w] = token
		}
		sent[w]++
		var b []byte
		q := questions[i%len(questions)]
		if err := call(c, "POST", base+"/widget/v1/messages", map[string]string{"X-Visitor-Token": tokens[w]},
			fmt.Sprintf(`{"body":%q}`, q), 201, &b); err != nil {
			return err
		}
		var ex struct {
			Reply *struct {
				Body string `json:"body"`
			} `json:"reply"`
		}
		if err := json.Unmarshal(b, &ex); err != nil {
			return err
		}
		if ex.Reply == nil {
			return fmt.Errorf("no assistant reply in the response")
		}
		return nil
	}))
	// The team's own site read as fast as the machine allows, and the
	// same site read politely, as every other site is by default.
	siteURL, stopSite, err := serveCrawlSite()
	if err != nil {
		return nil, 0, err
	}
	defer stopSite()
	for _, politeness := range []string{"own", "polite"} {
		r, err := crawlRow(base, auth, siteURL, politeness)
		if err != nil {
			return nil, 0, err
		}
		rows = append(rows, r)
	}
	return rows, tickets, nil
}

// ticketCreatePhase is the phase the ticket-rows references are for.
const ticketCreatePhase = "ticket create"

// deskConversations is how many conversations the desk's read phase
// reads, at random: the working set of a team at work.
const deskConversations = 500

// visitorMessages is how many messages each simulated visitor writes; the
// session that starts each visitor is part of the first round trip.
const visitorMessages = 10

// drain starts the server with s and measures how fast the work of run 1
// arrives at c (at most want items; it stops after a quiet second or 30s).
func drain(bin, dataDir string, s settings, name string, c *counter, want int) (result, error) {
	before, _, _, _ := c.get()
	c.reset()
	begin := time.Now()
	srv, err := start(bin, dataDir, s)
	if err != nil {
		return result{}, err
	}
	n, took := drainRate(c, begin, want, time.Second, 30*time.Second)
	err = srv.stop()
	logf("%s: %d in %v (%d arrived before)", name, n, took.Round(time.Millisecond), before)
	return result{name: name, n: n, elapsed: max(took, time.Millisecond), ceiling: "sqlite"}, err
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
