// Package backup writes and restores chatsvc's backup archives: one .tar.gz
// holding a consistent snapshot of the database, the stored files, the
// configuration in use and a manifest with checksums. The search index is
// not included: it is rebuilt from the database after a restore.
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
	"path/filepath"
	"time"

	"chatsvc/storage"
)

// Archive member names.
const (
	manifestName = "manifest.json"
	databaseName = "chatsvc.db"
	configName   = "config.yaml"
	filesDir     = "files" // stored files (attachments), kept under data_dir/files
)

// Manifest describes an archive.
type Manifest struct {
	Format         int               `json:"format"`
	Version        string            `json:"version"`
	SchemaVersion  int               `json:"schema_version"`
	CreatedAt      string            `json:"created_at"`
	Counts         map[string]int64  `json:"counts"`
	Checksums      map[string]string `json:"checksums"` // member name -> hex SHA-256
	ConfigSecrets  bool              `json:"config_includes_secrets"`
	IndexIncluded  bool              `json:"index_included"`
	RestoreCommand string            `json:"restore_command"`
}

// Options for Create.
type Options struct {
	DataDir       string
	Out           string // the archive to write
	Version       string // the binary's version
	Config        []byte // the configuration in use, as YAML
	ConfigSecrets bool   // whether Config includes secrets
	Now           time.Time
}

// Create writes a backup archive of the data dir to o.Out while the service
// may be running. The archive appears only once complete.
func Create(ctx context.Context, o Options) (*Manifest, error) {
	tmp, err := os.MkdirTemp(filepath.Dir(o.Out), ".backup-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	db := filepath.Join(tmp, databaseName)
	if err := storage.Snapshot(ctx, o.DataDir, db); err != nil {
		return nil, err
	}
	st, err := storage.Stats(ctx, db)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, configName), o.Config, 0o600); err != nil {
		return nil, err
	}
	members := map[string]string{databaseName: db, configName: filepath.Join(tmp, configName)}
	if err := addTree(members, filepath.Join(o.DataDir, filesDir), filesDir); err != nil {
		return nil, err
	}
	m := &Manifest{Format: 1, Version: o.Version, SchemaVersion: st.SchemaVersion, Counts: st.Rows,
		CreatedAt: o.Now.UTC().Format(time.RFC3339), Checksums: map[string]string{}, ConfigSecrets: o.ConfigSecrets,
		RestoreCommand: "chatsvc restore --from " + filepath.Base(o.Out)}
	for name, path := range members {
		if m.Checksums[name], err = checksum(path); err != nil {
			return nil, err
		}
	}
	partial := o.Out + ".partial"
	if err := writeArchive(partial, m, members); err != nil {
		os.Remove(partial)
		return nil, err
	}
	return m, os.Rename(partial, o.Out)
}

// addTree adds every regular file below dir to members, named under prefix,
// but for dir/tmp: the downloads in progress, which come and go while the
// service runs and are no stored file yet.
func addTree(members map[string]string, dir, prefix string) error {
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path != dir {
			return nil // gone since its folder was read
		}
		if err != nil {
			return err
		}
		if d.IsDir() && path == filepath.Join(dir, "tmp") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		members[filepath.ToSlash(filepath.Join(prefix, rel))] = path
		return nil
	})
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

func checksum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeArchive writes the manifest first, then every member.
func writeArchive(path string, m *Manifest, members map[string]string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: manifestName, Mode: 0o600, Size: int64(len(manifest)), ModTime: time.Now()}); err != nil {
		return err
	}
	if _, err := tw.Write(manifest); err != nil {
		return err
	}
	for _, name := range sortedKeys(members) {
		if err := addFile(tw, name, members[name]); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

func addFile(tw *tar.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: info.Size(), ModTime: info.ModTime()}); err != nil {
		return err
	}
	_, err = io.Copy(tw, f)
	return err
}
