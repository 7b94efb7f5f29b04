package storage

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrations embed.FS

// SchemaVersion is the number of the newest migration built into the binary.
func SchemaVersion() int {
	names, _ := migrationNames()
	if len(names) == 0 {
		return 0
	}
	n, _ := migrationNumber(names[len(names)-1])
	return n
}

func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	sort.Strings(names)
	return names, err
}

func migrationNumber(name string) (int, error) {
	base := strings.TrimPrefix(name, "migrations/")
	num, _, _ := strings.Cut(base, "_")
	return strconv.Atoi(num)
}

// migrate applies, in order and each in its own transaction, the embedded
// migrations not yet recorded in schema_migrations. Running it again is a no-op.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ')))`); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	names, err := migrationNames()
	if err != nil {
		return err
	}
	for _, name := range names {
		version, err := migrationNumber(name)
		if err != nil {
			return fmt.Errorf("migration %s: bad name", name)
		}
		if err := db.applyMigration(ctx, name, version); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

func (db *DB) applyMigration(ctx context.Context, name string, version int) error {
	body, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, version); err != nil {
		return err
	}
	return tx.Commit()
}

// AppliedVersion is the newest migration recorded in the database.
func (q *Q) AppliedVersion(ctx context.Context) (int, error) {
	var v int
	err := q.row(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}
