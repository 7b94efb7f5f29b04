package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// The revocation marker is a file beside the database that every key
// revocation grows after it commits, also one made by `chatsvc keys revoke`
// in another process. Servers that remember valid keys in memory compare
// its state before trusting what they remember (package app, keyCache).

// RevocationStamp identifies one state of the revocation marker.
type RevocationStamp struct {
	Size    int64
	ModTime time.Time
	Exists  bool
}

// revocationMarker is the marker file of the database at dbPath.
func revocationMarker(dbPath string) string { return dbPath + "-revocations" }

// RevocationStamp reads the marker's state: a stat, far cheaper than the
// key lookup it lets a cache skip.
func (db *DB) RevocationStamp() (RevocationStamp, error) {
	fi, err := os.Stat(revocationMarker(db.path))
	if errors.Is(err, fs.ErrNotExist) {
		return RevocationStamp{}, nil
	}
	if err != nil {
		return RevocationStamp{}, fmt.Errorf("read the revocation marker: %w", err)
	}
	return RevocationStamp{Size: fi.Size(), ModTime: fi.ModTime(), Exists: true}, nil
}

// MarkRevocation grows the marker, which every process's key cache checks
// before trusting what it holds. Call it after the revocation committed.
func (db *DB) MarkRevocation() error {
	f, err := os.OpenFile(revocationMarker(db.path), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("key revoked, but running servers may accept it until restarted: %w", err)
	}
	_, err = f.Write([]byte{'\n'})
	return errors.Join(err, f.Close())
}
