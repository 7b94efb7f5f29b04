package storage

import (
	"context"
	"encoding/json"

	"chatsvc/chat"
)

const keyCols = `id, mode, name, hash, hint, created_at, revoked_at`

func scanKey(s interface{ Scan(...any) error }) (*chat.APIKey, error) {
	k := &chat.APIKey{}
	err := s.Scan(&k.ID, &k.Mode, &k.Name, &k.Hash, &k.Hint, &k.CreatedAt, &k.RevokedAt)
	return k, notFound(err)
}

// InsertKey stores a new API key.
func (q *Q) InsertKey(ctx context.Context, k *chat.APIKey) error {
	_, err := q.exec(ctx, `INSERT INTO api_keys (`+keyCols+`) VALUES (?,?,?,?,?,?,?)`,
		k.ID, k.Mode, k.Name, k.Hash, k.Hint, k.CreatedAt, k.RevokedAt)
	return err
}

// KeyByHash finds a key by the hash of its secret, or ErrNotFound.
func (q *Q) KeyByHash(ctx context.Context, hash string) (*chat.APIKey, error) {
	return scanKey(q.rowByKey(ctx, `SELECT `+keyCols+` FROM api_keys WHERE hash = ?`, hash))
}

// Keys lists every key, oldest first.
func (q *Q) Keys(ctx context.Context) ([]*chat.APIKey, error) {
	rows, err := q.query(ctx, `SELECT `+keyCols+` FROM api_keys ORDER BY created_at, id`)
	return collect(rows, err, scanKey)
}

// RevokeKey marks a key revoked; ErrNotFound if there is no such key.
func (q *Q) RevokeKey(ctx context.Context, id string, at chat.Timestamp) error {
	res, err := q.exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`, at, id)
	return affected(res, err)
}

const siteCols = `id, name, domains, business_hours, widget, identity_secret, created_at, updated_at`

func scanSite(s interface{ Scan(...any) error }) (*chat.Site, error) {
	v := &chat.Site{}
	var domains string
	err := s.Scan(&v.ID, &v.Name, &domains, &v.BusinessHours, &v.Widget, &v.IdentitySecret, &v.CreatedAt, &v.UpdatedAt)
	if err == nil {
		err = json.Unmarshal([]byte(domains), &v.Domains)
	}
	return v, notFound(err)
}

func siteArgs(s *chat.Site) []any {
	if s.Domains == nil {
		s.Domains = []string{}
	}
	domains, _ := json.Marshal(s.Domains)
	widget := s.Widget
	if widget == nil {
		widget = []byte("{}")
	}
	var hours any // NULL: always open
	if s.BusinessHours != nil {
		hours = string(s.BusinessHours)
	}
	return []any{s.ID, s.Name, string(domains), hours, string(widget), s.IdentitySecret, s.CreatedAt, s.UpdatedAt}
}

// InsertSite stores a new site.
func (q *Q) InsertSite(ctx context.Context, s *chat.Site) error {
	_, err := q.exec(ctx, `INSERT INTO sites (`+siteCols+`) VALUES (?,?,?,?,?,?,?,?)`, siteArgs(s)...)
	return err
}

// UpdateSite saves a site's name, domains, business hours and widget settings.
func (q *Q) UpdateSite(ctx context.Context, s *chat.Site) error {
	a := siteArgs(s)
	res, err := q.exec(ctx, `UPDATE sites SET name = ?, domains = ?, business_hours = ?, widget = ?, updated_at = ?
		WHERE id = ?`, a[1], a[2], a[3], a[4], a[7], s.ID)
	return affected(res, err)
}

// Site returns the site with id, or ErrNotFound.
func (q *Q) Site(ctx context.Context, id string) (*chat.Site, error) {
	return scanSite(q.row(ctx, `SELECT `+siteCols+` FROM sites WHERE id = ?`, id))
}

// SitePage lists sites newest first.
func (q *Q) SitePage(ctx context.Context, p Page) ([]*chat.Site, error) {
	where, tail, args := keyset("created_at", true, p, nil, nil)
	rows, err := q.query(ctx, `SELECT `+siteCols+` FROM sites`+where+tail, args...)
	return collect(rows, err, scanSite)
}

// Sites lists every site, oldest first.
func (q *Q) Sites(ctx context.Context) ([]*chat.Site, error) {
	rows, err := q.query(ctx, `SELECT `+siteCols+` FROM sites ORDER BY created_at, id`)
	return collect(rows, err, scanSite)
}

const memberCols = `id, email, name, role, password_hash, created_at, totp_secret, totp_pending, totp_last_step`

func scanMember(s interface{ Scan(...any) error }) (*chat.Member, error) {
	m := &chat.Member{}
	err := s.Scan(&m.ID, &m.Email, &m.Name, &m.Role, &m.PasswordHash, &m.CreatedAt, &m.TOTPSecret, &m.TOTPPending, &m.TOTPLastStep)
	return m, notFound(err)
}

// InsertMember stores a new member; ErrConflict if the e-mail is taken.
func (q *Q) InsertMember(ctx context.Context, m *chat.Member) error {
	_, err := q.exec(ctx, `INSERT INTO members (`+memberCols+`) VALUES (?,?,?,?,?,?,?,?,?)`,
		m.ID, m.Email, m.Name, m.Role, m.PasswordHash, m.CreatedAt, m.TOTPSecret, m.TOTPPending, m.TOTPLastStep)
	return conflict(err)
}

// Member returns the member with id, or ErrNotFound.
func (q *Q) Member(ctx context.Context, id string) (*chat.Member, error) {
	return scanMember(q.row(ctx, `SELECT `+memberCols+` FROM members WHERE id = ?`, id))
}

// Members lists every member, oldest first.
func (q *Q) Members(ctx context.Context) ([]*chat.Member, error) {
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
