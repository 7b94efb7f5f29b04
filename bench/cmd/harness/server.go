package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	smtpPort int    // 0: no SMTP server, e-mail waits in the outbox
	webhooks bool   // run the webhook workers
	replica  string // replica.url; "" replicates nothing
	profile  string // a file for the server's CPU profile; "" takes none
}

// server is a running chatsvc serve process.
type server struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// start runs `chatsvc serve` on dataDir and a loopback port the system
// picks, and returns once serve logs the address it listens on.
func start(bin, dataDir string, s settings) (*server, error) {
	smtpHost := "" // e-mail waits in the outbox
	if s.smtpPort != 0 {
		smtpHost = "127.0.0.1"
	}
	cfg := fmt.Sprintf(`addr: "127.0.0.1:0"
data_dir: %q
log:
  level: "info"
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
replica:
  url: %q
`, dataDir, s.webhooks, smtpHost, s.smtpPort, s.replica)
	path := filepath.Join(filepath.Dir(dataDir), "config.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	args := []string{"serve", "--config", path, "--data", dataDir}
	if s.profile != "" {
		args = append(args, "--cpu-profile", s.profile)
	}
	cmd := exec.Command(bin, args...)
	log := &serveLog{out: os.Stderr, addr: make(chan string, 1)}
	cmd.Stdout, cmd.Stderr = os.Stderr, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	srv := &server{cmd: cmd, done: make(chan error, 1)}
	go func() { srv.done <- cmd.Wait() }()
	select {
	case addr := <-log.addr:
		srv.url = "http://" + addr
		return srv, nil
	case err := <-srv.done:
		return nil, fmt.Errorf("serve exited: %v", err)
	case <-time.After(60 * time.Second):
		srv.stop()
		return nil, fmt.Errorf("serve did not start listening within 60s")
	}
}

// listening matches the line serve logs once it accepts connections.
var listening = regexp.MustCompile(`msg="chatsvc listening" addr=(\S+)`)

// serveLog passes serve's log on to the harness's stderr without its info
// lines, as at level warn, and sends the address serve listens on to addr.
type serveLog struct {
	out     io.Writer
	addr    chan string
	partial []byte // a line not yet ended
}

func (l *serveLog) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := l.partial[:i+1]
		if m := listening.FindSubmatch(line); m != nil {
			l.addr <- string(m[1])
		} else if !bytes.Contains(line, []byte(" level=INFO ")) {
			l.out.Write(line)
		}
		l.partial = l.partial[i+1:]
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
