// Package replica keeps a copy of the data folder in a replica store while
// serve runs, and brings it back: Litestream streams the database's
// write-ahead log (and restores it to any point in its retention), and the
// stored files are copied beside it under their content hash, once each.
//
// In the store, under the URL's path, db/ holds Litestream's files and
// files/ the attachments.
package replica

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"time"

	"github.com/benbjohnson/litestream"
	lsfile "github.com/benbjohnson/litestream/file"
	lss3 "github.com/benbjohnson/litestream/s3"
	lssftp "github.com/benbjohnson/litestream/sftp"
)

// Options say where the replica is and how it is kept.
type Options struct {
	URL             string // file:///path, s3://bucket/prefix or sftp://user@host/path
	Endpoint        string // an S3-compatible store's URL; "" is AWS
	Region          string
	AccessKeyID     string // "" takes the usual AWS_* sources
	SecretAccessKey string
	HostKey         string        // sftp: the server's public key in authorized_keys form; "" checks none
	KeyFile         string        // sftp: a private key file to sign in with, besides or instead of a password
	SyncInterval    time.Duration // how often new writes are shipped
	Retention       time.Duration // how far back a restore can go
}

// location is a store's URL taken apart.
type location struct {
	scheme, host, root string
	user               *url.Userinfo
}

func parse(raw string) (location, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return location{}, fmt.Errorf("replica url: %w", err)
	}
	l := location{scheme: u.Scheme, host: u.Host, root: u.Path, user: u.User}
	switch l.scheme {
	case "file":
		l.root = filepath.FromSlash(u.Path)
	case "s3":
		l.root = path.Clean("/" + u.Path)[1:]
	case "sftp":
	default:
		return location{}, fmt.Errorf("replica url %q: unknown scheme %q", raw, u.Scheme)
	}
	return l, nil
}

// dbClient is the Litestream client that reads and writes the database's
// files, under db/.
func dbClient(o Options) (litestream.ReplicaClient, error) {
	l, err := parse(o.URL)
	if err != nil {
		return nil, err
	}
	switch l.scheme {
	case "file":
		return lsfile.NewReplicaClient(filepath.Join(l.root, "db")), nil
	case "s3":
		c := lss3.NewReplicaClient()
		c.Bucket, c.Path, c.Region = l.host, path.Join(l.root, "db"), o.Region
		c.Endpoint, c.ForcePathStyle = o.Endpoint, o.Endpoint != ""
		c.AccessKeyID, c.SecretAccessKey = o.AccessKeyID, o.SecretAccessKey
		return c, nil
	default:
		c := lssftp.NewReplicaClient()
		c.Host, c.User, c.Path = l.host, l.user.Username(), path.Join(l.root, "db")
		c.Password, _ = l.user.Password()
		c.HostKey, c.KeyPath = o.HostKey, o.KeyFile
		return c, nil
	}
}

// blobs keeps the stored files in the replica store, by name.
type blobs interface {
	// List returns the names stored under files/.
	List(ctx context.Context) (map[string]bool, error)
	// Put stores r under files/name; a crash midway leaves no partial file.
	Put(ctx context.Context, name string, r io.Reader, size int64) error
	// Open reads files/name.
	Open(ctx context.Context, name string) (io.ReadCloser, error)
	// Delete removes files/name; one already gone is no error.
	Delete(ctx context.Context, name string) error
}

// fileBlobs opens the store of the stored files.
func fileBlobs(ctx context.Context, o Options) (blobs, error) {
	l, err := parse(o.URL)
	if err != nil {
		return nil, err
	}
	switch l.scheme {
	case "file":
		return dirBlobs(filepath.Join(l.root, "files")), nil
	case "s3":
		return newS3Blobs(ctx, o, l)
	default:
		return newSFTPBlobs(o, l)
	}
}

// Redacted is the URL raw without its password, for logs and messages.
func Redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a malformed URL)"
	}
	return u.Redacted()
}
