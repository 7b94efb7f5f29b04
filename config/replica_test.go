package config_test

import (
	"strings"
	"testing"
	"time"

	"chatsvc/config"
)

func TestReplicaDefaultsAndChecks(t *testing.T) {
	c, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, "{}\n")})
	if err != nil {
		t.Fatal(err)
	}
	if c.Replica.Enabled() || c.Replica.SyncInterval != time.Second || c.Replica.Retention != 72*time.Hour {
		t.Fatalf("replica defaults: %+v", c.Replica)
	}
	for _, tc := range []struct{ yaml, wantErr string }{
		{"replica: {url: \"file:///srv/replica\"}", ""},
		{"replica: {url: \"s3://bucket/chat\", endpoint: \"http://127.0.0.1:9000\", region: \"eu-1\"}", ""},
		{"replica: {url: \"sftp://backup@host.example.com/chat\"}", ""},
		{"replica: {url: \"file://relative/path\"}", "replica.url: a folder is file:///absolute/path"},
		{"replica: {url: \"s3:///prefix\"}", "needs a bucket"},
		{"replica: {url: \"sftp://host.example.com/chat\"}", "needs a user and a host"},
		{"replica: {url: \"sftp://backup@host.example.com/chat\", host_key: \"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\", key_file: /etc/chatsvc/replica_key}", ""},
		{"replica: {url: \"sftp://backup@host.example.com/chat\", host_key: \"host.example.com\"}", "host_key: must be the server's public key"},
		{"replica: {url: \"file:///srv/replica\", key_file: /etc/key}", "host_key and key_file are for sftp:// replicas only"},
		{"replica: {url: \"gs://bucket/chat\"}", "must start with file://, s3:// or sftp://"},
		{"replica: {url: \"file:///srv/r\", access_key_id: \"AK\"}", "for s3:// replicas only"},
		{"replica: {url: \"s3://b/p\", endpoint: \"minio:9000\"}", "replica.endpoint"},
		{"replica: {sync_interval: \"10ms\"}", "replica.sync_interval"},
		{"replica: {retention: \"10m\"}", "replica.retention"},
	} {
		_, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, tc.yaml+"\n")})
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: got %v, want %q", tc.yaml, err, tc.wantErr)
		}
	}
}

func TestReplicaSecretStaysOutOfBackups(t *testing.T) {
	c, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t,
		"replica: {url: \"s3://b/p\", access_key_id: \"AKID\", secret_access_key: \"s3cr3t\"}\n")})
	if err != nil {
		t.Fatal(err)
	}
	y, err := c.YAML(false)
	if err != nil || strings.Contains(string(y), "s3cr3t") || !strings.Contains(string(y), "AKID") {
		t.Fatalf("backup configuration (err %v):\n%s", err, y)
	}
}
