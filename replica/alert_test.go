package replica

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestAlertWhenBehind logs the replica's failure once when it falls more
// than AlertAfter behind, and again only after it has caught up; OnBehind
// (the owner's e-mail) is called with each log line.
func TestAlertWhenBehind(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(prev)
	var told []time.Duration
	rp := &Replicator{o: Options{URL: "sftp://backup:secret@host.example.com/chat"},
		OnBehind: func(st Status) { told = append(told, st.Lag) }}
	for _, lag := range []time.Duration{time.Minute, AlertAfter + time.Second, AlertAfter + time.Minute, 0, 2 * AlertAfter} {
		rp.alertWhenBehind(Status{Lag: lag, Err: "dial tcp: connection refused"})
	}
	if len(told) != 2 || told[0] != AlertAfter+time.Second || told[1] != 2*AlertAfter {
		t.Fatalf("OnBehind called for %v, want the first lag past AlertAfter each time", told)
	}
	out := logs.String()
	if n := strings.Count(out, "the replica has been failing"); n != 2 || strings.Count(out, "caught up") != 1 {
		t.Fatalf("want two alerts around one recovery, got:\n%s", out)
	}
	if strings.Contains(out, "secret") || !strings.Contains(out, "connection refused") {
		t.Fatalf("the alert must name the failure and not the password:\n%s", out)
	}
}
