package main

import (
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"chatsvc/bench/loadgen"
	"chatsvc/storage"
)

// Paired runs compare two builds of chatsvc on this machine more closely
// than two harness runs in turn, which other work on a shared machine moves
// by up to a fifth: both servers run at once, each on its own data dir, and
// the clients load one, then the other, in short slices (A B B A …), so
// both see the same moments of the machine. The ratio of their rates is the
// figure; each server's own CPU per request is read from /proc.

// pairedSlice and pairedRest are the length of one slice and the pause
// after it, in which the loaded server finishes its background work.
const (
	pairedSlice = time.Second
	pairedRest  = 300 * time.Millisecond
)

// side is one build under comparison, ready to serve.
type side struct {
	root, bin, data string
	key, member     string
	open, contacts  []string
	srv             *server
	n               int           // requests done in its slices
	elapsed, cpu    time.Duration // its slices' time, its process's CPU time in them
}

// paired prepares each root's data dir with that root's own harness (its
// own schema and seed, then its load phases, briefly), starts both
// servers, and compares agent message and ticket creates, new searches and
// reads of a desk's conversations.
func paired(o options, dir string) error {
	phases := strings.Split(o.compare, ";")
	for _, what := range phases {
		if !slices.Contains(pairedPhases, what) {
			return fmt.Errorf("-compare: no phase %q (the phases: %s)", what, strings.Join(pairedPhases, ", "))
		}
	}
	a, err := prepare(o.against, filepath.Join(dir, "a"), o)
	if err != nil {
		return fmt.Errorf("%s: %w", o.against, err)
	}
	b, err := prepare(o.root, filepath.Join(dir, "b"), o)
	if err != nil {
		return fmt.Errorf("%s: %w", o.root, err)
	}
	var replica string
	if o.replica {
		replica = "file://" + filepath.ToSlash(filepath.Join(dir, "replica"))
	}
	for _, s := range []struct {
		*side
		settings
	}{{a, settings{webhooks: true}}, {b, settings{webhooks: true, replica: replica, profile: o.profile}}} {
		// Webhooks on, with no endpoint enabled (prepare disables the
		// seeded one): a server as a team that set none up runs it.
		if s.srv, err = start(s.bin, s.data, s.settings); err != nil {
			return err
		}
		defer s.srv.stop()
	}
	time.Sleep(2 * time.Second) // start-up's own work done
	fmt.Printf("paired: A = %s, B = %s; %d slices of %v each, %d clients\n", o.against, o.root, o.slices, pairedSlice, o.clients)
	if o.replica {
		fmt.Printf("paired: B replicates to %s\n", replica)
	}
	for _, what := range phases {
		if err := alternate(what, a, b, o); err != nil {
			return err
		}
	}
	return nil
}

// pairedPhases are the phases paired runs compare, in the order they run.
var pairedPhases = []string{"agent message create", "ticket create", "search, every query new", "get conversation, desk"}

// prepare runs root's harness with its work dir in dir, then makes an API
// key and reads the ids the requests need from the data dir it leaves.
func prepare(root, dir string, o options) (*side, error) {
	logf("preparing %s in %s", root, dir)
	cmd := exec.Command("go", "run", "./bench/cmd/harness", "-dir", dir, "-phase", "200ms",
		"-scale", strconv.FormatFloat(o.scale, 'g', -1, 64))
	cmd.Dir, cmd.Stderr = root, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	s := &side{root: root, bin: filepath.Join(dir, "chatsvc"), data: filepath.Join(dir, "data")}
	out, err := exec.Command(s.bin, "--data", s.data, "keys", "create", "--mode", "test", "--name", "paired").Output()
	if err != nil {
		return nil, fmt.Errorf("keys create: %w", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return nil, fmt.Errorf("keys create printed nothing")
	}
	s.key = lines[len(lines)-1]
	db, err := sql.Open("sqlite", storage.DSN(filepath.Join(s.data, storage.FileName)))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT id FROM members LIMIT 1`).Scan(&s.member); err != nil {
		return nil, fmt.Errorf("a member: %w", err)
	}
	if s.open, err = ids(db, `SELECT id FROM conversations WHERE mode = 'test' AND status != 'closed'`); err != nil {
		return nil, err
	}
	if s.contacts, err = ids(db, `SELECT id FROM contacts WHERE mode = 'test'`); err != nil {
		return nil, err
	}
	if len(s.open) == 0 || len(s.contacts) == 0 {
		return nil, fmt.Errorf("no open conversations or no contacts in %s", s.data)
	}
	if _, err := db.Exec(`UPDATE webhook_endpoints SET enabled = 0`); err != nil {
		return nil, err
	}
	return s, nil
}

func ids(db *sql.DB, query string) ([]string, error) {
	rows, err := db.Query(query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// alternate loads a and b in turn, o.slices slices in all, and prints
// their rates, their ratio and each one's CPU per request.
func alternate(what string, a, b *side, o options) error {
	for _, s := range []*side{a, b} {
		s.n, s.elapsed, s.cpu = 0, 0, 0
	}
	for i := range o.slices {
		s := []*side{a, b}[(i+i/2)%2] // A B B A A B B A …
		cpu0 := processCPU(s.srv.cmd.Process.Pid)
		r := drive(what, o.clients, pairedSlice, s.op(what))
		time.Sleep(pairedRest)
		if r.errors > 0 {
			return fmt.Errorf("%s on %s: %d requests failed", what, s.root, r.errors)
		}
		s.n += r.n
		s.elapsed += r.elapsed
		s.cpu += processCPU(s.srv.cmd.Process.Pid) - cpu0
	}
	rate := func(s *side) float64 { return float64(s.n) / s.elapsed.Seconds() }
	per := func(s *side) float64 { return float64(s.cpu.Microseconds()) / float64(max(s.n, 1)) }
	fmt.Printf("%-22s A %6.0f/s (%5.0f µs CPU each)  B %6.0f/s (%5.0f µs CPU each)  B/A %.3f\n",
		what, rate(a), per(a), rate(b), per(b), rate(b)/rate(a))
	return nil
}

// op is the request of what on s, as the harness's load phases send it.
func (s *side) op(what string) op {
	auth := map[string]string{"Authorization": "Bearer " + s.key}
	switch what {
	case "ticket create":
		return ticketCreate(s.srv.url, auth, s.contacts)
	case "get conversation, desk":
		desk := s.open[:min(deskConversations, len(s.open))]
		return func(c *http.Client, _, i int) error {
			return call(c, "GET", s.srv.url+"/v1/conversations/"+pick(desk), auth, "", 200, nil)
		}
	case "search, every query new":
		return func(c *http.Client, _, i int) error {
			return call(c, "GET", s.srv.url+"/v1/search?limit=20&q="+loadgen.RandomCase(searchQueries[i%len(searchQueries)]), auth, "", 200, nil)
		}
	}
	return agentMessage(s.srv.url, auth, s.open, s.member)
}

// ticketCreate and agentMessage are two load phases' requests.
func ticketCreate(base string, auth map[string]string, contacts []string) op {
	return func(c *http.Client, _, i int) error {
		return call(c, "POST", base+"/v1/tickets", auth, fmt.Sprintf(`{"subject":"Harness %d","contact_id":%q,"tags":["harness"]}`,
			i, pick(contacts)), 201, nil)
	}
}

func agentMessage(base string, auth map[string]string, open []string, member string) op {
	return func(c *http.Client, _, i int) error {
		return call(c, "POST", base+"/v1/conversations/"+pick(open)+"/messages", auth,
			fmt.Sprintf(`{"body":"Reply %d: the plan changes at the next invoice.","author_id":%q}`, i, member), 201, nil)
	}
}
