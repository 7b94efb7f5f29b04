// Package files keeps the bytes of message attachments in the data dir,
// each under its SHA-256, and downloads them from the URLs team members
// give, through the SSRF-guarded client of package outbound.
package files

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"chatsvc/outbound"
)

// Options configure a Store.
type Options struct {
	Dir          string        // where the bytes go (data_dir/files)
	MaxBytes     int64         // attachments.max_bytes
	Timeout      time.Duration // attachments.timeout: one whole download
	AllowPrivate bool          // network.allow_private: private addresses and http:// (development)
}

// Store keeps attachment bytes by content hash.
type Store struct {
	dir       string
	max       int64
	allowHTTP bool
	timeout   time.Duration
	client    *http.Client
}

// New returns a store writing under o.Dir.
func New(o Options) *Store {
	return &Store{dir: o.Dir, max: o.MaxBytes, allowHTTP: o.AllowPrivate, timeout: o.Timeout,
		client: outbound.New(outbound.Options{AllowPrivate: o.AllowPrivate, Timeout: o.Timeout, MaxRedirects: 5})}
}

// AllowsHTTP reports whether plain http:// URLs may be fetched (development only).
func (s *Store) AllowsHTTP() bool { return s.allowHTTP }

// MaxBytes is the largest file the store accepts.
func (s *Store) MaxBytes() int64 { return s.max }

// path is where the bytes of hash live: two levels keep folders small.
func (s *Store) path(hash string) (string, error) {
	if len(hash) != sha256.Size*2 {
		return "", fmt.Errorf("files: bad hash %q", hash)
	}
	if _, err := hex.DecodeString(hash); err != nil {
		return "", fmt.Errorf("files: bad hash %q", hash)
	}
	return filepath.Join(s.dir, hash[:2], hash), nil
}

// Open opens the bytes stored under hash.
func (s *Store) Open(hash string) (*os.File, error) {
	p, err := s.path(hash)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}

// Remove deletes the bytes stored under hash; bytes already gone are no error.
func (s *Store) Remove(hash string) error {
	p, err := s.path(hash)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// ErrTooLarge is returned for content beyond the store's limit.
var ErrTooLarge = errors.New("file is larger than the limit")

// put copies r into the store, refusing more than the limit, and returns the
// hash, size and first bytes (for sniffing). A file already stored is kept
// as it is: same hash, same bytes.
func (s *Store) put(r io.Reader) (hash string, size int64, head []byte, err error) {
	tmpDir := filepath.Join(s.dir, "tmp")
	if err := os.MkdirAll(tmpDir, 0o750); err != nil {
		return "", 0, nil, err
	}
	tmp, err := os.CreateTemp(tmpDir, "upload-*")
	if err != nil {
		return "", 0, nil, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	defer tmp.Close()
	h := sha256.New()
	sn := &sniffer{}
	src := &readErr{r: io.LimitReader(r, s.max+1)}
	size, err = io.Copy(io.MultiWriter(tmp, h, sn), src)
	if src.err != nil {
		return "", 0, nil, fmt.Errorf("%w: %w", errRead, src.err)
	} else if err != nil {
		return "", 0, nil, err
	}
	if size > s.max {
		return "", 0, nil, ErrTooLarge
	}
	if err := tmp.Sync(); err != nil {
		return "", 0, nil, err
	}
	hash = hex.EncodeToString(h.Sum(nil))
	dst, _ := s.path(hash)
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return "", 0, nil, err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", 0, nil, err
	}
	return hash, size, sn.b, nil
}

// errRead marks a failure to read the source, as opposed to a disk failure.
var errRead = errors.New("reading the source")

type readErr struct {
	r   io.Reader
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// sniffer keeps the first 512 bytes written, what http.DetectContentType reads.
type sniffer struct{ b []byte }

func (s *sniffer) Write(p []byte) (int, error) {
	if n := 512 - len(s.b); n > 0 {
		s.b = append(s.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}
