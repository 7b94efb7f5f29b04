package storage_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"chatsvc/chat"
	"chatsvc/storage"
)

// TestMemberRolesMigration checks what the roles' migration does to an
// installation that had members before roles: the oldest becomes the owner,
// every other one an agent.
func TestMemberRolesMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	open(t, dir).Close()
	// Take the database back to before the migration, with members in it.
	raw, err := sql.Open("sqlite", filepath.Join(dir, storage.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`DROP TABLE member_links`,
		`ALTER TABLE members DROP COLUMN role`,
		`DELETE FROM schema_migrations WHERE version = 17`,
		`INSERT INTO members (id, email, name, created_at) VALUES ('mem_b', 'b@example.com', 'Second', 2000),
			('mem_a', 'a@example.com', 'First', 1000), ('mem_c', 'c@example.com', 'Third', 3000)`,
	} {
		if _, err := raw.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()

	db := open(t, dir)
	defer db.Close()
	members, err := db.Read().Members(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mem_a": chat.RoleOwner, "mem_b": chat.RoleAgent, "mem_c": chat.RoleAgent}
	for _, m := range members {
		if m.Role != want[m.ID] {
			t.Errorf("%s (%s): role %q, want %q", m.ID, m.Name, m.Role, want[m.ID])
		}
	}
	if len(members) != len(want) {
		t.Errorf("%d members after the migration, want %d", len(members), len(want))
	}
}
