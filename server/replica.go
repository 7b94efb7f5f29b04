package server

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"chatsvc/app"
	"chatsvc/backup"
	"chatsvc/config"
	"chatsvc/replica"
	"chatsvc/storage"
	"chatsvc/web"
)

// ReplicaOptions are the replica settings of cfg.
func ReplicaOptions(cfg *config.Config) replica.Options {
	r := cfg.Replica
	return replica.Options{URL: r.URL, Endpoint: r.Endpoint, Region: r.Region, AccessKeyID: r.AccessKeyID,
		SecretAccessKey: r.SecretAccessKey, HostKey: r.HostKey, KeyFile: r.KeyFile, SyncInterval: r.SyncInterval, Retention: r.Retention}
}

// startReplica starts replicating cfg's data folder when a replica is
// configured; the replica worker connects to the store.
func startReplica(cfg *config.Config) (*replica.Replicator, error) {
	if !cfg.Replica.Enabled() {
		return nil, nil
	}
	return replica.Start(cfg.DataDir, storage.FileName, ReplicaOptions(cfg))
}

// refuseToForkReplica refuses to start a new database in an empty data
// folder whose replica holds one: the new database's writes would become
// the replica's newest state, and a restore would then bring back an empty
// desk. A store that cannot be reached is logged and not held against the
// start.
func refuseToForkReplica(ctx context.Context, cfg *config.Config) error {
	if !cfg.Replica.Enabled() {
		return nil
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, storage.FileName)); err == nil {
		return nil
	}
	holds, err := replica.Holds(ctx, ReplicaOptions(cfg))
	if err != nil {
		slog.Warn("could not tell whether the replica holds a database", "err", err)
		return nil
	}
	if holds {
		return fmt.Errorf("the data dir %s is empty but the replica %s holds a database: restore it first "+
			"(chatsvc restore --from-replica, or serve --restore-if-empty), or point replica.url elsewhere to start anew",
			cfg.DataDir, replica.Redacted(cfg.Replica.URL))
	}
	return nil
}

func (s *Server) replicaStatus() func() web.ReplicaStatus {
	if s.replica == nil {
		return nil
	}
	return func() web.ReplicaStatus {
		st := s.replica.Status()
		return web.ReplicaStatus{LastSync: st.LastSync, Lag: st.Lag, Files: st.Files, Err: st.Err}
	}
}

// mailReplicaBehind tells owner_email that the replica fell behind.
func (s *Server) mailReplicaBehind(st replica.Status) {
	err := s.svc.MailReplicaFailing(context.Background(), s.cfg.OwnerEmail, app.ReplicaBehind{
		Replica: replica.Redacted(s.cfg.Replica.URL), Lag: st.Lag, LastSync: st.LastSync, Reason: st.Err})
	if err != nil {
		slog.Error("e-mail about the replica", "err", err)
	}
}

// RestoreFromReplica puts the configured replica's data folder, as it was
// at at (the newest state when at is zero), in place of cfg's data folder,
// which must be empty unless force, and never held by a running serve. The
// database's integrity is checked before it takes the folder's place.
// Dashboard sessions are not brought back: team members sign in again.
func RestoreFromReplica(ctx context.Context, cfg *config.Config, at time.Time, force bool) (*replica.Restored, error) {
	if !cfg.Replica.Enabled() {
		return nil, fmt.Errorf("no replica.url in the configuration: nothing to restore from")
	}
	var res *replica.Restored
	err := backup.Replace(cfg.DataDir, force, func(staging string) error {
		var err error
		res, err = replica.Restore(ctx, ReplicaOptions(cfg), staging, storage.FileName, at, storage.FileHashes)
		if err != nil {
			return err
		}
		db := filepath.Join(staging, storage.FileName)
		st, err := storage.Stats(ctx, db)
		if err != nil {
			return fmt.Errorf("the restored database: %w", err)
		}
		if st.SchemaVersion > storage.SchemaVersion() {
			return fmt.Errorf("the replica's schema version %d is newer than this binary's (%d): use a newer chatsvc", st.SchemaVersion, storage.SchemaVersion())
		}
		if err := storage.ForgetSessions(ctx, db); err != nil {
			return err
		}
		return storage.CheckIntegrity(ctx, db)
	})
	return res, err
}
