package main

import (
	"database/sql"
	"encoding/json"
	"net"
	"net/http"
	"time"

	"chatsvc/app"
	"chatsvc/storage"
)

// rawWrites measures single-row INSERT transactions/s on one connection
// with the project's pragmas and a prepared statement: what SQLite itself
// allows on this machine, with no SQL parsing and no HTTP.
func rawWrites(path string, d time.Duration) (result, error) {
	db, err := sql.Open("sqlite", storage.DSN(path)+"&_txlock=immediate")
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
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		tx, err := db.Begin()
		if err != nil {
			return result{}, err
		}
		if _, err := tx.Stmt(ins).Exec(app.NewID("row_"), "payload", n); err != nil {
			tx.Rollback()
			return result{}, err
		}
		if err := tx.Commit(); err != nil {
			return result{}, err
		}
		n++
	}
	return result{name: "ceiling: raw SQLite write tx (1 conn)", n: n, elapsed: time.Since(start)}, nil
}

// trivialServer is a net/http server answering every request with a small
// JSON object: the most an HTTP API can do on this machine.
func trivialServer() (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "conv_trivial", "object": "conversation", "status": "open"})
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}
