package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"chatsvc/bench/loadgen"
)

// result is one row of the table.
type result struct {
	name     string
	n        int // operations completed without error
	errors   int
	elapsed  time.Duration
	p50, p99 time.Duration
	cpu      time.Duration // the whole machine's CPU time per operation: server, clients and kernel
	ceiling  string        // which ceiling the ratio is to
	ratio    float64       // rate / ceiling; 0 when not compared
}

func (r result) rate() float64 { return float64(r.n) / r.elapsed.Seconds() }

// op is one request of a load phase, by client c, numbered i overall.
type op func(c *http.Client, worker, i int) error

// drive runs op from clients goroutines for d and measures each call.
func drive(name string, clients int, d time.Duration, fn op) result {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxIdleConns: clients}}
	defer client.CloseIdleConnections()
	var seq atomic.Int64
	cpu0 := machineCPU()
	lr := loadgen.Run(clients, d, loadgen.Timed(func(w, _ int) error { return fn(client, w, int(seq.Add(1))) }))
	r := result{name: name, n: len(lr.Latencies), errors: lr.Errors, elapsed: lr.Elapsed,
		p50: lr.Quantile(0.5), p99: lr.Quantile(0.99)}
	r.cpu = cpuPer(cpu0, machineCPU(), r.n)
	if lr.FirstErr != nil {
		logf("%s: %d errors, first: %v", name, r.errors, lr.FirstErr)
	}
	return r
}

// call sends one request and checks its status; out, if not nil, receives
// the response body.
func call(c *http.Client, method, url string, headers map[string]string, body string, want int, out *[]byte) error {
	var rd io.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	if out != nil {
		*out = b
	}
	return nil
}
