package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"chatsvc/storage"
)

// ErrNotEmpty is returned when restoring over a data dir that holds data.
var ErrNotEmpty = errors.New("the data dir is not empty")

// RestoredConfig is the name, inside the restored data dir, of the
// configuration that was in use when the backup was made. It is kept for
// reference and not applied.
const RestoredConfig = "config.from-backup.yaml"

// Restore unpacks the archive at from into dataDir after checking every
// checksum, the schema version and the database's integrity. dataDir must be
// empty or missing; with force, an existing one is moved aside and removed
// only once the restore has succeeded.
func Restore(ctx context.Context, from, dataDir string, force bool) (*Manifest, error) {
	if _, err := os.Stat(dataDir); err == nil { // held for the whole restore: no serve starts on it meanwhile
		lock, err := storage.LockDir(dataDir)
		if err != nil {
			return nil, err
		}
		defer lock.Release()
	}
	if !force {
		if entries, err := os.ReadDir(dataDir); err == nil && slices.ContainsFunc(entries, notLock) {
			return nil, fmt.Errorf("%w: %s (pass --force to replace it)", ErrNotEmpty, dataDir)
		}
	}
	dataDir = filepath.Clean(dataDir)
	staging := fmt.Sprintf("%s.restoring-%d", dataDir, time.Now().UnixNano())
	if err := os.MkdirAll(staging, 0o750); err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging) // a no-op once moved into place
	m, err := unpack(from, staging)
	if err != nil {
		return nil, fmt.Errorf("%s is not a valid backup: %w", from, err)
	}
	if m.SchemaVersion > storage.SchemaVersion() {
		return nil, fmt.Errorf("the backup's schema version %d is newer than this binary's (%d): use a newer chatsvc", m.SchemaVersion, storage.SchemaVersion())
	}
	db := filepath.Join(staging, databaseName)
	if err := storage.CheckIntegrity(ctx, db); err != nil {
		return nil, err
	}
	if err := os.Rename(filepath.Join(staging, configName), filepath.Join(staging, RestoredConfig)); err != nil {
		return nil, err
	}
	if err := os.Rename(db, filepath.Join(staging, storage.FileName)); err != nil {
		return nil, err
	}
	return m, swapIn(staging, dataDir)
}

func notLock(e fs.DirEntry) bool { return e.Name() != storage.LockFileName }

// swapIn moves staging to dataDir, moving an existing dataDir aside first
// and back again if the move fails.
func swapIn(staging, dataDir string) error {
	old := ""
	if _, err := os.Stat(dataDir); err == nil {
		old = fmt.Sprintf("%s.old-%d", dataDir, time.Now().UnixNano())
		if err := os.Rename(dataDir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(staging, dataDir); err != nil {
		if old != "" {
			os.Rename(old, dataDir)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// unpack extracts the archive into dir, verifying each member's checksum
// against the manifest, which must come first.
func unpack(from, dir string) (*Manifest, error) {
	f, err := os.Open(from)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	hdr, err := tr.Next()
	if err != nil || hdr.Name != manifestName {
		return nil, errors.New("no manifest at the start of the archive")
	}
	var m Manifest
	if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(&m); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	if m.Format != 1 {
		return nil, fmt.Errorf("unknown archive format %d", m.Format)
	}
	seen := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		want, ok := m.Checksums[hdr.Name]
		if !ok || !safeName(hdr.Name) || hdr.Typeflag != tar.TypeReg || seen[hdr.Name] {
			return nil, fmt.Errorf("unexpected member %q", hdr.Name)
		}
		seen[hdr.Name] = true
		if err := extract(tr, filepath.Join(dir, filepath.FromSlash(hdr.Name)), want); err != nil {
			return nil, fmt.Errorf("%s: %w", hdr.Name, err)
		}
	}
	for _, name := range sortedKeys(m.Checksums) {
		if !seen[name] {
			return nil, fmt.Errorf("member %s is missing", name)
		}
	}
	if !seen[databaseName] || !seen[configName] {
		return nil, errors.New("the database or the configuration is missing")
	}
	return &m, nil
}

func safeName(name string) bool {
	clean := path.Clean(name)
	return clean == name && !path.IsAbs(name) && clean != ".." && !strings.HasPrefix(clean, "../")
}

func extract(r io.Reader, dest, wantSum string) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o750); err != nil {
		return err
	}
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), r); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != wantSum {
		return errors.New("checksum mismatch: the archive is damaged")
	}
	return f.Close()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
