package web_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// TestReplicaInReadinessAndMetrics shows the replica's lag and last sync in
// /readyz and /metrics; a replica behind or failing keeps the server ready.
func TestReplicaInReadinessAndMetrics(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	last := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	status := web.ReplicaStatus{LastSync: last, Lag: 3 * time.Second, Err: "s3: connection refused"}
	srv := httptest.NewServer(web.HandlerWith(e.Svc, web.Options{Replica: func() web.ReplicaStatus { return status }}))
	defer srv.Close()
	code, body := get(t, srv.URL+"/readyz", "")
	for _, want := range []string{`"status": "ok"`, `"lag_seconds": 3`, `"last_sync": "2026-10-01T12:00:00Z"`, `"error": "s3: connection refused"`} {
		if code != 200 || !strings.Contains(body, want) {
			t.Fatalf("readyz lacks %s: %d %s", want, code, body)
		}
	}
	code, body = get(t, srv.URL+"/metrics", "")
	for _, want := range []string{"chatsvc_replica_lag_seconds 3", "chatsvc_replica_last_sync_timestamp_seconds 1.790856e+09", "chatsvc_replica_failing 1"} {
		if code != 200 || !strings.Contains(body, want) {
			t.Fatalf("metrics lack %s: %d", want, code)
		}
	}
	if _, body := get(t, e.Server.URL+"/readyz", ""); strings.Contains(body, "replica") {
		t.Fatalf("readyz without a replica names one: %s", body)
	}
}
