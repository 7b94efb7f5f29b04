package storage

import (
	"context"
	"database/sql"

	"chatsvc/chat"
)

// MemberLink is a one-time link e-mailed to a member: an invitation or a
// password reset. Only the hash of its token is stored.
type MemberLink struct {
	TokenHash string
	MemberID  string
	Purpose   string // "invitation" or "reset"
	CreatedAt chat.Timestamp
	ExpiresAt chat.Timestamp
	UsedAt    *chat.Timestamp
}

const memberLinkCols = `token_hash, member_id, purpose, created_at, expires_at, used_at`

// InsertMemberLink stores a new link.
func (q *Q) InsertMemberLink(ctx context.Context, l *MemberLink) error {
	_, err := q.exec(ctx, `INSERT INTO member_links (`+memberLinkCols+`) VALUES (?,?,?,?,?,?)`,
		l.TokenHash, l.MemberID, l.Purpose, l.CreatedAt, l.ExpiresAt, l.UsedAt)
	return err
}

// MemberLink returns the link with the token hash, or ErrNotFound.
func (q *Q) MemberLink(ctx context.Context, tokenHash string) (*MemberLink, error) {
	l := &MemberLink{}
	err := q.row(ctx, `SELECT `+memberLinkCols+` FROM member_links WHERE token_hash = ?`, tokenHash).
		Scan(&l.TokenHash, &l.MemberID, &l.Purpose, &l.CreatedAt, &l.ExpiresAt, &l.UsedAt)
	return l, notFound(err)
}

// UseMemberLinks marks every unused link of a member as used at `at`, so a
// password once set leaves no other link that could set it again.
func (q *Q) UseMemberLinks(ctx context.Context, memberID string, at chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE member_links SET used_at = ? WHERE member_id = ? AND used_at IS NULL`, at, memberID)
	return err
}

// DeleteMemberLinks removes the links that expired or were used before at.
func (q *Q) DeleteMemberLinks(ctx context.Context, at chat.Timestamp) (int64, error) {
	return rowCount(q.exec(ctx, `DELETE FROM member_links WHERE expires_at < ? OR used_at < ?`, at, at))
}

// rowCount is the number of rows a statement changed.
func rowCount(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// SetMemberRole changes a member's role; ErrNotFound if there is no such member.
func (q *Q) SetMemberRole(ctx context.Context, id, role string) error {
	res, err := q.exec(ctx, `UPDATE members SET role = ? WHERE id = ?`, role, id)
	return affected(res, err)
}

// CountOwners counts the members with the owner role.
func (q *Q) CountOwners(ctx context.Context) (int, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM members WHERE role = 'owner'`).Scan(&n)
	return n, err
}
