package cli_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"chatsvc/storage"
	"chatsvc/testenv"
)

// TestKillDuringWritesLosesNothingAcknowledged runs the real binary, kills it
// with SIGKILL in the middle of a burst of writes, restarts it, and checks
// that every write answered 2xx is there and the database is intact.
func TestKillDuringWritesLosesNothingAcknowledged(t *testing.T) {
	t.Parallel()
	in := newInstall(t)
	bin := buildChatsvc(t)
	start := func(firstStart bool) (*exec.Cmd, string) { return in.startBinary(bin, firstStart) }
	cmd, key := start(true)
	if key == "" {
		t.Fatal("no key printed at first start")
	}

	var mu sync.Mutex
	var acked []int
	ackedEnough := make(chan struct{}) // closed at the 300th acknowledged write
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				n := w*1_000_000 + i
				body := fmt.Sprintf(`{"subject":"crash %d","contact":{"email":"c%d@example.com"}}`, n, w)
				req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+in.addr+"/v1/tickets", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+key)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					return // the server is gone
				}
				res.Body.Close()
				if res.StatusCode == 201 {
					mu.Lock()
					if acked = append(acked, n); len(acked) == 300 {
						close(ackedEnough)
					}
					mu.Unlock()
				}
			}
		}()
	}
	select {
	case <-ackedEnough:
	case <-time.After(testenv.Patience):
		t.Fatal("the server acknowledged fewer than 300 writes")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	cancel()
	wg.Wait()

	if err := storage.CheckIntegrity(context.Background(), filepath.Join(filepath.Dir(in.config), "data", storage.FileName)); err != nil {
		t.Fatalf("after SIGKILL: %v", err)
	}
	cmd, _ = start(false)
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	subjects := in.ticketSubjects(key)
	for _, n := range acked {
		if !subjects[fmt.Sprintf("crash %d", n)] {
			t.Fatalf("ticket %d was acknowledged with 201 but is gone after the crash (%d acknowledged, %d found)", n, len(acked), len(subjects))
		}
	}
	t.Logf("%d writes acknowledged before SIGKILL, all present after restart", len(acked))
}

// built is the binary the tests run, built once for the package: linking
// it takes seconds. TestMain removes its folder.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildChatsvc returns the path of the binary, waiting for its build
// (buildOnce) to end.
func buildChatsvc(t *testing.T) string {
	t.Helper()
	built.once.Do(buildOnce)
	if built.err != nil {
		t.Fatalf("build: %v", built.err)
	}
	return built.bin
}

// buildOnce builds the binary, as deployed (CGO_ENABLED=0), into a
// temporary folder. Like the binaries go test links, it has no symbol
// table and no debug information: a second or two less of linking.
func buildOnce() {
	if built.dir, built.err = os.MkdirTemp("", "chatsvc-cli-"); built.err != nil {
		return
	}
	built.bin = filepath.Join(built.dir, "chatsvc")
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", built.bin, "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		built.err = fmt.Errorf("%v\n%s", err, out)
	}
}

// binaryTests are the tests that run the built binary.
var binaryTests = []string{"TestKillDuringWritesLosesNothingAcknowledged", "TestReplicaBringsBackAKilledServer"}

// TestMain starts building the binary, when a test that runs it is to run,
// while the tests that run the commands in process go first (they are not
// parallel, and the build takes seconds); at the end it removes the binary.
func TestMain(m *testing.M) {
	flag.Parse()
	if runs(binaryTests) {
		go built.once.Do(buildOnce)
	}
	code := m.Run()
	built.once.Do(func() {}) // wait for a build still going, so its folder is known
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// startBinary runs the binary's serve on a port the system picks; it
// learns the port from the log line serve writes once it listens, and, at
// a first start, the test key from the banner.
func (in *install) startBinary(bin string, firstStart bool, args ...string) (*exec.Cmd, string) {
	in.t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--config", in.config}, args...)...)
	stdout, _ := cmd.StdoutPipe()
	keys := testenv.Scan(stdout, regexp.MustCompile(`csk_test_\w+`))
	in.addr = testenv.StartServe(in.t, cmd)
	if !firstStart {
		return cmd, ""
	}
	select {
	case k := <-keys:
		return cmd, k
	case <-time.After(testenv.Patience):
		in.t.Fatal("no key printed at first start")
		return cmd, ""
	}
}

// ticketSubjects lists the subjects of every ticket the running server
// has, page by page.
func (in *install) ticketSubjects(key string) map[string]bool {
	in.t.Helper()
	subjects := map[string]bool{}
	for cursor := ""; ; {
		code, body := in.call("GET", "/v1/tickets?limit=100"+cursor, key, "")
		if code != 200 {
			in.t.Fatalf("list tickets: %d %s", code, body)
		}
		for _, m := range regexp.MustCompile(`"subject": "([^"]+)"`).FindAllStringSubmatch(body, -1) {
			subjects[m[1]] = true
		}
		next := regexp.MustCompile(`"next_cursor": "([^"]+)"`).FindStringSubmatch(body)
		if next == nil {
			return subjects
		}
		cursor = "&cursor=" + next[1]
	}
}

// runs tells whether -run and -skip leave any of the top-level tests named.
func runs(names []string) bool {
	match := func(flagName, name string, empty bool) bool {
		pattern := flag.Lookup(flagName).Value.String()
		if pattern == "" {
			return empty
		}
		top, _, _ := strings.Cut(pattern, "/")
		ok, err := regexp.MatchString(top, name)
		return err != nil || ok // a pattern go test refuses ends the run anyway
	}
	for _, name := range names {
		if match("test.run", name, true) && !match("test.skip", name, false) {
			return true
		}
	}
	return false
}
