package web

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ReplicaStatus is how far the replica of the data folder is behind.
type ReplicaStatus struct {
	LastSync time.Time     // when the replica last held every write; zero before the first
	Lag      time.Duration // how old the newest write the replica lacks may be; 0 when it has them all
	Files    time.Time     // when the stored files were last all copied
	Err      string        // the latest failure; "" when the last attempt worked
}

// details is the replica's part of /readyz.
func (s ReplicaStatus) details() map[string]any {
	d := map[string]any{"lag_seconds": s.Lag.Seconds(), "last_sync": nil, "files_synced_at": nil}
	if !s.LastSync.IsZero() {
		d["last_sync"] = s.LastSync.UTC().Format(time.RFC3339Nano)
	}
	if !s.Files.IsZero() {
		d["files_synced_at"] = s.Files.UTC().Format(time.RFC3339Nano)
	}
	if s.Err != "" {
		d["error"] = s.Err
	}
	return d
}

var (
	descReplicaLag  = prometheus.NewDesc("chatsvc_replica_lag_seconds", "How old the newest write the replica lacks may be; 0 when it holds every write.", nil, nil)
	descReplicaSync = prometheus.NewDesc("chatsvc_replica_last_sync_timestamp_seconds", "When the replica last held every write (Unix time); 0 before the first.", nil, nil)
	descReplicaErr  = prometheus.NewDesc("chatsvc_replica_failing", "1 while the latest attempt to replicate failed, else 0.", nil, nil)
)

// replicaCollector reads the replication's state at scrape time.
type replicaCollector func() ReplicaStatus

func (replicaCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descReplicaLag
	ch <- descReplicaSync
	ch <- descReplicaErr
}

func (c replicaCollector) Collect(ch chan<- prometheus.Metric) {
	s := c()
	last, failing := 0.0, 0.0
	if !s.LastSync.IsZero() {
		last = float64(s.LastSync.UnixNano()) / 1e9
	}
	if s.Err != "" {
		failing = 1
	}
	ch <- prometheus.MustNewConstMetric(descReplicaLag, prometheus.GaugeValue, s.Lag.Seconds())
	ch <- prometheus.MustNewConstMetric(descReplicaSync, prometheus.GaugeValue, last)
	ch <- prometheus.MustNewConstMetric(descReplicaErr, prometheus.GaugeValue, failing)
}
