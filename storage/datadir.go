package storage

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// LockFileName is the file of the data folder that a running serve holds
// locked.
const LockFileName = "chatsvc.lock"

// ErrDataDirInUse is returned by LockDir when another holder (a running
// serve) has the data folder.
var ErrDataDirInUse = errors.New("the data folder is in use by a running chatsvc serve")

// DirLock is an exclusive hold on a data folder: serve keeps one while it
// runs, and restore, which replaces the folder's database, takes it first.
// SQLite alone cannot tell: a server keeps writing to a database file that
// was replaced under it, and what it writes then is lost. The lock is an
// flock, so the system releases it when its process ends, however it ends.
type DirLock struct{ f *os.File }

// LockDir takes the data folder dir, creating it when missing, or returns
// ErrDataDirInUse without waiting.
func LockDir(dir string) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, LockFileName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrDataDirInUse
		}
		return nil, err
	}
	return &DirLock{f: f}, nil
}

// Release lets the folder go.
func (l *DirLock) Release() error { return l.f.Close() }

// FreeBytes is the space left to unprivileged writers on the disk of the
// database.
func (db *DB) FreeBytes() (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(db.path), &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}
