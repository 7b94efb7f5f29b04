package main

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"chatsvc/app"
)

// rawWrites measures single-row INSERT transactions/s on one connection
// to dsn (the project's pragmas) with a prepared statement: what SQLite
// itself allows on this machine, with no SQL parsing and no HTTP.
func rawWrites(name, dsn string, d time.Duration) (result, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return result{}, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at INTEGER NOT NULL)`); err != nil {
		return result{}, err
	}
	ins, err := db.Prepare(`INSERT INTO t (id, body, created_at) VALUES (?, ?, ?)`)
	if err != nil {
		return result{}, err
	}
	defer ins.Close()
	return loopFor(name, d, func(n int) error {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Stmt(ins).Exec(app.NewID("row_"), "payload", n); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
}

// loopFor runs one transaction after another for d (fn(n) runs the n-th,
// from 0) and measures them.
func loopFor(name string, d time.Duration, fn func(n int) error) (result, error) {
	n := 0
	cpu0 := machineCPU()
	start := time.Now()
	for time.Since(start) < d {
		if err := fn(n); err != nil {
			return result{}, err
		}
		n++
	}
	return result{name: name, n: n, elapsed: time.Since(start), cpu: cpuPer(cpu0, machineCPU(), n)}, nil
}

// trivialHandler answers every request with a small JSON object: the most
// an HTTP API can do on this machine.
var trivialHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "conv_trivial", "object": "conversation", "status": "open"})
})

// serveTrivial serves trivialHandler on a free loopback port and prints its
// URL on stdout; it runs until the process is stopped.
func serveTrivial() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("http://%s\n", ln.Addr())
	return http.Serve(ln, trivialHandler)
}

// trivialServer runs serveTrivial in a process of its own (this program,
// started again with -trivial-server), so that the ceiling, like the server
// under test, has its own runtime apart from the clients'.
func trivialServer() (url string, stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(self, "-trivial-server")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("trivial server: %w", err)
	}
	return strings.TrimSpace(line), stop, nil
}
