package main

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// counter counts arrivals, remembers when the last one came, and signals
// each one.
type counter struct {
	mu          sync.Mutex
	n           int
	first, last time.Time
	arrived     chan struct{} // made on first use, so the zero counter works
}

func (c *counter) hit() {
	c.mu.Lock()
	c.n++
	c.last = time.Now()
	if c.n == 1 {
		c.first = c.last
	}
	arrived := c.signal()
	c.mu.Unlock()
	select {
	case arrived <- struct{}{}:
	default: // a signal is already waiting
	}
}

// signal is the arrivals' channel; c.mu is held.
func (c *counter) signal() chan struct{} {
	if c.arrived == nil {
		c.arrived = make(chan struct{}, 1)
	}
	return c.arrived
}

func (c *counter) get() (n int, first, last time.Time, arrived <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.first, c.last, c.signal()
}

func (c *counter) reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// drainRate waits until c has want arrivals, nothing has arrived for
// quiet, or limit has passed since start, and returns the arrivals and the
// time from the first to the last of them (the server's start-up is not
// counted). It wakes on each arrival, or when the quiet or the limit ends.
func drainRate(c *counter, start time.Time, want int, quiet, limit time.Duration) (int, time.Duration) {
	for {
		n, first, last, arrived := c.get()
		end := start.Add(limit)
		if n == 0 {
			end = minTime(end, start.Add(5*quiet))
		} else {
			end = minTime(end, last.Add(quiet))
		}
		now := time.Now()
		if n >= want || now.After(end) {
			if n < 2 {
				return n, now.Sub(start)
			}
			return n - 1, last.Sub(first) // n-1 arrivals after the first
		}
		timer := time.NewTimer(end.Sub(now) + time.Millisecond)
		select {
		case <-arrived:
		case <-timer.C:
		}
		timer.Stop()
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// webhookReceiver is a local endpoint that accepts every delivery.
func webhookReceiver(c *counter) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		c.hit()
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/hook", func() { srv.Close() }, nil
}

// smtpSink is a local SMTP server that accepts every message.
type smtpSink struct{ c *counter }

func startSMTP(c *counter) (port int, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, nil, err
	}
	srv := smtp.NewServer(smtpSink{c})
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	go srv.Serve(ln)
	return ln.Addr().(*net.TCPAddr).Port, func() { srv.Close() }, nil
}

// NewSession implements smtp.Backend.
func (s smtpSink) NewSession(*smtp.Conn) (smtp.Session, error) { return sinkSession{s.c}, nil }

type sinkSession struct{ c *counter }

func (sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s sinkSession) Data(r io.Reader) error {
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	s.c.hit()
	return nil
}
func (sinkSession) Reset()        {}
func (sinkSession) Logout() error { return nil }
