package storage

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Snapshot writes a consistent copy of the database in dataDir to dest with
// VACUUM INTO, which reads one snapshot while writers go on, then checks the
// copy with PRAGMA integrity_check. It works while another process serves.
// The copy keeps no dashboard sessions: a restore must not bring back a
// session that was signed out since.
func Snapshot(ctx context.Context, dataDir, dest string) error {
	src := filepath.Join(dataDir, FileName)
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("no database in %s: %w", dataDir, err)
	}
	db, err := sql.Open("sqlite", DSN(src))
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if err := ForgetSessions(ctx, dest); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return CheckIntegrity(ctx, dest)
}

// ForgetSessions deletes the dashboard sessions of the database at path,
// if its schema has them: a restored database must not bring back a session
// that was signed out since.
func ForgetSessions(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", DSN(path))
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'dashboard_sessions'`).Scan(&n)
	if err != nil || n == 0 {
		return err
	}
	_, err = db.ExecContext(ctx, `DELETE FROM dashboard_sessions`)
	return err
}

// FileHashes lists the stored files the database at path refers to, by
// their SHA-256.
func FileHashes(ctx context.Context, path string) ([]string, error) {
	db, err := sql.Open("sqlite", DSN(path)+"&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT hash FROM attachments ORDER BY hash`)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var h string
		return h, s.Scan(&h)
	})
}

// CheckIntegrity runs PRAGMA integrity_check on the database file at path.
func CheckIntegrity(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", DSN(path)+"&_pragma=query_only(1)")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("integrity check failed: %s", strings.Join(problems, "; "))
	}
	return nil
}

// FileStats describes a database file: its schema version and row counts.
type FileStats struct {
	SchemaVersion int
	Rows          map[string]int64
}

// Stats reads the schema version and the row count of every table of the
// database file at path.
func Stats(ctx context.Context, path string) (*FileStats, error) {
	db, err := sql.Open("sqlite", DSN(path)+"&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	st := &FileStats{Rows: map[string]int64{}}
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&st.SchemaVersion); err != nil {
		return nil, fmt.Errorf("schema version: %w", err)
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, err
		}
		tables = append(tables, name)
	}
	rows.Close()
	for _, t := range tables {
		var n int64
		// Table names come from sqlite_master, quoted: no user input here.
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+strings.ReplaceAll(t, `"`, `""`)+`"`).Scan(&n); err != nil {
			return nil, err
		}
		st.Rows[t] = n
	}
	return st, nil
}
