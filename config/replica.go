package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"golang.org/x/crypto/ssh"
)

// Replica is where serve replicates the data folder to (replica.*); an
// empty URL turns replication off.
type Replica struct {
	URL             string        `koanf:"url"`
	Endpoint        string        `koanf:"endpoint"`
	Region          string        `koanf:"region"`
	AccessKeyID     string        `koanf:"access_key_id"`
	SecretAccessKey string        `koanf:"secret_access_key"`
	HostKey         string        `koanf:"host_key"` // sftp: the server's public key, "ssh-ed25519 AAAA…"
	KeyFile         string        `koanf:"key_file"` // sftp: a private key to sign in with
	SyncInterval    time.Duration `koanf:"sync_interval"`
	Retention       time.Duration `koanf:"retention"`
}

// Enabled tells whether a replica is configured.
func (r Replica) Enabled() bool { return r.URL != "" }

func (r Replica) check() []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("replica.%s", fmt.Sprintf(format, args...)))
	}
	if r.SyncInterval < 100*time.Millisecond || r.SyncInterval > time.Hour {
		bad("sync_interval: must be between 100ms and 1h, got %s", r.SyncInterval)
	}
	if r.Retention < time.Hour {
		bad("retention: must be at least 1h, got %s", r.Retention)
	}
	if r.Endpoint != "" {
		if u, err := url.Parse(r.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("endpoint: must be an http or https URL such as https://s3.example.com, got %q", r.Endpoint)
		}
	}
	if r.URL == "" {
		return errs
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		bad("url: %q is not a URL", r.URL)
		return errs
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" || !filepath.IsAbs(u.Path) {
			bad("url: a folder is file:///absolute/path (three slashes), got %q", r.URL)
		}
	case "s3":
		if u.Host == "" {
			bad("url: s3://bucket/prefix needs a bucket, got %q", r.URL)
		}
	case "sftp":
		if u.Host == "" || u.User == nil || u.User.Username() == "" {
			bad("url: sftp://user@host/path needs a user and a host, got %q", r.URL)
		}
	default:
		bad("url: must start with file://, s3:// or sftp://, got %q", r.URL)
	}
	if u.Scheme != "s3" && (r.Endpoint != "" || r.AccessKeyID != "" || r.SecretAccessKey != "") {
		bad("endpoint, access_key_id and secret_access_key are for s3:// replicas only")
	}
	if u.Scheme != "sftp" && (r.HostKey != "" || r.KeyFile != "") {
		bad("host_key and key_file are for sftp:// replicas only")
	}
	if r.HostKey != "" {
		if _, _, _, _, err := ssh.ParseAuthorizedKey([]byte(r.HostKey)); err != nil {
			bad("host_key: must be the server's public key as ssh-keyscan prints it after the host name (\"ssh-ed25519 AAAA…\")")
		}
	}
	return errs
}
