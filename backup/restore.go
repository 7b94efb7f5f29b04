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
	var m *Manifest
	err := Replace(dataDir, force, func(staging string) error {
		var err error
		if m, err = unpack(from, staging); err != nil {
			return fmt.Errorf("%s is not a valid backup: %w", from, err)
		}
		if m.SchemaVersion > storage.SchemaVersion() {
			return fmt.Errorf("the backup's schema version %d is newer than this binary's (%d): use a newer chatsvc", m.SchemaVersion, storage.SchemaVersion())
		}
		db := filepath.Join(staging, databaseName)
		if err := storage.CheckIntegrity(ctx, db); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(staging, configName), filepath.Join(staging, RestoredConfig)); err != nil {
			return err
		}
		return os.Rename(db, filepath.Join(staging, storage.FileName))
	})
	return m, err
}

// Replace fills a new data folder with fill and puts it in place of
// dataDir, holding dataDir's lock throughout, so no serve starts on it
// meanwhile, and refusing it while a serve holds it (ErrDataDirInUse).
// dataDir must be empty or missing (ErrNotEmpty); with force, an existing
// one is moved aside and removed only once fill has succeeded. fill writes
// into staging, an empty folder beside dataDir.
func Replace(dataDir string, force bool, fill func(staging string) error) error {
	if _, err := os.Stat(dataDir); err == nil {
		lock, err := storage.LockDir(dataDir)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	if !force && !IsEmpty(dataDir) {
		return fmt.Errorf("%w: %s (pass --force to replace it)", ErrNotEmpty, dataDir)
	}
	dataDir = filepath.Clean(dataDir)
	staging := fmt.Sprintf("%s.restoring-%d", dataDir, time.Now().UnixNano())
	if err := os.MkdirAll(staging, 0o750); err != nil {
		return err
	}
	defer os.RemoveAll(staging) // a no-op once moved into place
	if err := fill(staging); err != nil {
		return err
	}
	return swapIn(staging, dataDir)
}

// IsEmpty tells whether dataDir is missing or holds nothing but its lock
// file.
func IsEmpty(dataDir string) bool {
	entries, err := os.ReadDir(dataDir)
	return err != nil || !slices.ContainsFunc(entries, notLock)
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
		if err := WriteChecked(tr, filepath.Join(dir, filepath.FromSlash(hdr.Name)), want); err != nil {
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

// ErrChecksum is returned by WriteChecked for bytes that are not the ones
// expected: the copy they came from is damaged.
var ErrChecksum = errors.New("checksum mismatch: the copy is damaged")

// WriteChecked writes r to dest, a new file (its folder is made when
// missing), and checks that what it wrote has the SHA-256 wantSum (hex).
func WriteChecked(r io.Reader, dest, wantSum string) error {
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
		return ErrChecksum
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
