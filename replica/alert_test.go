package replica

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestAlertWhenBehind logs the replica's failure once when it falls more
// than AlertAfter behind, and again only after it has caught up.
func TestAlertWhenBehind(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(prev)
	rp := &Replicator{o: Options{URL: "sftp://backup:secret@host.example.com/chat"}}
	for _, lag := range []time.Duration{time.Minute, AlertAfter + time.Second, AlertAfter + time.Minute, 0, 2 * AlertAfter} {
		rp.alertWhenBehind(Status{Lag: lag, Err: "dial tcp: connection refused"})
	}
	out := logs.String()
	if n := strings.Count(out, "the replica has been failing"); n != 2 || strings.Count(out, "caught up") != 1 {
		t.Fatalf("want two alerts around one recovery, got:\n%s", out)
	}
	if strings.Contains(out, "secret") || !strings.Contains(out, "connection refused") {
		t.Fatalf("the alert must name the failure and not the password:\n%s", out)
	}
}
