package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// build compiles the chatsvc binary from the module at root into dir.
func build(root, dir string) (string, error) {
	bin := filepath.Join(dir, "chatsvc")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return bin, cmd.Run()
}

// settings are the parts of the configuration the harness varies.
type settings struct {
	smtpPort int  // 0: no SMTP server, e-mail waits in the outbox
	webhooks bool // run the webhook workers
}

// server is a running chatsvc serve process.
type server struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// start runs `chatsvc serve` on dataDir and a free loopback port, and
// waits until it answers /healthz.
func start(bin, dataDir string, s settings) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	smtpHost := "" // e-mail waits in the outbox
	if s.smtpPort != 0 {
		smtpHost = "127.0.0.1"
	}
	cfg := fmt.Sprintf(`addr: %q
data_dir: %q
public_url: "http://%s"
log:
  level: "warn"
rate_limit:
  api_per_second: 0
  widget_per_second: 0
network:
  allow_private: true
webhooks:
  enabled: %t
  allow_http: true
smtp:
  host: %q
  port: %d
  tls: "none"
`, addr, dataDir, addr, s.webhooks, smtpHost, s.smtpPort)
	path := filepath.Join(filepath.Dir(dataDir), "config.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "--config", path, "--data", dataDir, "--addr", addr)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	srv := &server{cmd: cmd, url: "http://" + addr, done: make(chan error, 1)}
	go func() { srv.done <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(srv.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return srv, nil
			}
		}
		select {
		case err := <-srv.done:
			return nil, fmt.Errorf("serve exited: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			srv.stop()
			return nil, fmt.Errorf("serve did not become healthy: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop asks the server to shut down gracefully and waits for it.
func (s *server) stop() error {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		return err
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		return fmt.Errorf("serve did not stop within 30s")
	}
}

// rss is the server's resident memory in bytes (VmRSS).
func (s *server) rss() int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// peakRSS samples the server's resident memory every 50ms until stop is
// called, and returns the highest value seen.
func (s *server) peakRSS() (stop func() int64) {
	quit, out := make(chan struct{}), make(chan int64)
	go func() {
		var peak int64
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, s.rss())
			select {
			case <-quit:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 { close(quit); return <-out }
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}
