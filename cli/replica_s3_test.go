package cli_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"chatsvc/storage"
	"chatsvc/testenv"
	"chatsvc/testenv/remote"
)

// TestServeReplicatesToS3 runs the serve command with an S3-compatible
// server as the replica: /readyz and /metrics report the replica caught
// up, and once serve has stopped and the data folder is gone, restore
// --from-replica brings every ticket back.
func TestServeReplicatesToS3(t *testing.T) {
	in := newInstall(t)
	in.writeReplicaConfig("  url: \"s3://replica/chat\"\n  endpoint: \"" + remote.S3(t, "replica") +
		"\"\n  region: \"us-east-1\"\n  access_key_id: \"test\"\n  secret_access_key: \"test\"\n  sync_interval: 200ms\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, done := in.serveCommand(ctx)
	api := regexp.MustCompile(`API:\s+http://(127\.0\.0\.1:\d+)/v1$`)
	key := regexp.MustCompile(`test key: (csk_test_\w+)`)
	var k string
	for sc := bufio.NewScanner(out); in.addr == "" && sc.Scan(); {
		if m := key.FindStringSubmatch(sc.Text()); m != nil {
			k = m[1]
		}
		if m := api.FindStringSubmatch(sc.Text()); m != nil {
			in.addr = m[1]
		}
	}
	go io.Copy(io.Discard, out)
	written := in.writeTickets(ctx, k, "s3", 4, 60)
	after := time.Now()
	testenv.Eventually(t, "the replica caught up in /readyz", func() bool {
		_, body := in.call("GET", "/readyz", "", "")
		m := regexp.MustCompile(`"last_sync": "([^"]+)"`).FindStringSubmatch(body)
		if m == nil || !strings.Contains(body, `"lag_seconds": 0`) || strings.Contains(body, `"error"`) {
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, m[1])
		return err == nil && t.After(after.Add(500*time.Millisecond))
	})
	if _, body := in.call("GET", "/metrics", "", ""); !strings.Contains(body, "chatsvc_replica_lag_seconds 0") ||
		!strings.Contains(body, "chatsvc_replica_failing 0") {
		t.Fatalf("metrics lack the replica's figures")
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d", code)
	}

	os.RemoveAll(in.data)
	code, stdout, errOut := in.run("restore", "--from-replica")
	if code != 0 || !strings.HasPrefix(last(stdout), "Restored as of ") {
		t.Fatalf("restore --from-replica: exit %d\n%s%s", code, stdout, errOut)
	}
	db := filepath.Join(in.data, storage.FileName)
	if err := storage.CheckIntegrity(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	st, err := storage.Stats(context.Background(), db)
	if err != nil || st.Rows["tickets"] != int64(len(written)) {
		t.Fatalf("restored %d tickets (%v), want %d", st.Rows["tickets"], err, len(written))
	}
}
