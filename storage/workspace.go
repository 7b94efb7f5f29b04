package storage

import (
	"context"

	"chatsvc/support"
)

const keyCols = `id, mode, name, hash, hint, created_at, revoked_at`

func scanKey(s interface{ Scan(...any) error }) (*support.APIKey, error) {
	k := &support.APIKey{}
	err := s.Scan(&k.ID, &k.Mode, &k.Name, &k.Hash, &k.Hint, &k.CreatedAt, &k.RevokedAt)
	return k, notFound(err)
}

// InsertKey stores a new API key.
func (q *Q) InsertKey(ctx context.Context, k *support.APIKey) error {
	_, err := q.exec(ctx, `INSERT INTO api_keys (`+keyCols+`) VALUES (?,?,?,?,?,?,?)`,
		k.ID, k.Mode, k.Name, k.Hash, k.Hint, k.CreatedAt, k.RevokedAt)
	return err
}

// KeyByHash finds a key by the hash of its secret, or ErrNotFound.
func (q *Q) KeyByHash(ctx context.Context, hash string) (*support.APIKey, error) {
	return scanKey(q.row(ctx, `SELECT `+keyCols+` FROM api_keys WHERE hash = ?`, hash))
}

// Keys lists every key, oldest first.
func (q *Q) Keys(ctx context.Context) ([]*support.APIKey, error) {
	rows, err := q.query(ctx, `SELECT `+keyCols+` FROM api_keys ORDER BY created_at, id`)
	return collect(rows, err, scanKey)
}

// RevokeKey marks a key revoked; ErrNotFound if there is no such key.
func (q *Q) RevokeKey(ctx context.Context, id string, at support.Timestamp) error {
	res, err := q.exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`, at, id)
	return affected(res, err)
}

const siteCols = `id, name, domain, identity_secret, created_at`

func scanSite(s interface{ Scan(...any) error }) (*support.Site, error) {
	v := &support.Site{}
	err := s.Scan(&v.ID, &v.Name, &v.Domain, &v.IdentitySecret, &v.CreatedAt)
	return v, notFound(err)
}

// InsertSite stores a new site.
func (q *Q) InsertSite(ctx context.Context, s *support.Site) error {
	_, err := q.exec(ctx, `INSERT INTO sites (`+siteCols+`) VALUES (?,?,?,?,?)`,
		s.ID, s.Name, s.Domain, s.IdentitySecret, s.CreatedAt)
	return err
}

// Site returns the site with id, or ErrNotFound.
func (q *Q) Site(ctx context.Context, id string) (*support.Site, error) {
	return scanSite(q.row(ctx, `SELECT `+siteCols+` FROM sites WHERE id = ?`, id))
}

// Sites lists every site, oldest first.
func (q *Q) Sites(ctx context.Context) ([]*support.Site, error) {
	rows, err := q.query(ctx, `SELECT `+siteCols+` FROM sites ORDER BY created_at, id`)
	return collect(rows, err, scanSite)
}

const memberCols = `id, email, name, password_hash, created_at`

func scanMember(s interface{ Scan(...any) error }) (*support.Member, error) {
	m := &support.Member{}
	err := s.Scan(&m.ID, &m.Email, &m.Name, &m.PasswordHash, &m.CreatedAt)
	return m, notFound(err)
}

// InsertMember stores a new member; ErrConflict if the e-mail is taken.
func (q *Q) InsertMember(ctx context.Context, m *support.Member) error {
	_, err := q.exec(ctx, `INSERT INTO members (`+memberCols+`) VALUES (?,?,?,?,?)`,
		m.ID, m.Email, m.Name, m.PasswordHash, m.CreatedAt)
	return conflict(err)
}

// Member returns the member with id, or ErrNotFound.
func (q *Q) Member(ctx context.Context, id string) (*support.Member, error) {
	return scanMember(q.row(ctx, `SELECT `+memberCols+` FROM members WHERE id = ?`, id))
}

// Members lists every member, oldest first.
func (q *Q) Members(ctx context.Context) ([]*support.Member, error) {
	rows, err := q.query(ctx, `SELECT `+memberCols+` FROM members ORDER BY created_at, id`)
	return collect(rows, err, scanMember)
}

// Setting returns a stored setting, or ErrNotFound.
func (q *Q) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := q.row(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	return v, notFound(err)
}

// SetSetting stores a setting.
func (q *Q) SetSetting(ctx context.Context, key, value string) error {
	_, err := q.exec(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}
