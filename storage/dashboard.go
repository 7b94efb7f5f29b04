package storage

import (
	"context"

	"chatsvc/chat"
)

// DashboardSession is a team member's signed-in dashboard session.
type DashboardSession struct {
	TokenHash string
	MemberID  string
	Mode      chat.Mode
	CSRF      string
	CreatedAt chat.Timestamp
	ExpiresAt chat.Timestamp
	EndedAt   *chat.Timestamp
}

const dashSessionCols = `token_hash, member_id, mode, csrf, created_at, expires_at, ended_at`

// InsertDashboardSession stores a new session.
func (q *Q) InsertDashboardSession(ctx context.Context, s *DashboardSession) error {
	_, err := q.exec(ctx, `INSERT INTO dashboard_sessions (`+dashSessionCols+`) VALUES (?,?,?,?,?,?,?)`,
		s.TokenHash, s.MemberID, s.Mode, s.CSRF, s.CreatedAt, s.ExpiresAt, s.EndedAt)
	return err
}

// DashboardSession returns the session with the token hash, or ErrNotFound.
func (q *Q) DashboardSession(ctx context.Context, tokenHash string) (*DashboardSession, error) {
	s := &DashboardSession{}
	err := q.row(ctx, `SELECT `+dashSessionCols+` FROM dashboard_sessions WHERE token_hash = ?`, tokenHash).
		Scan(&s.TokenHash, &s.MemberID, &s.Mode, &s.CSRF, &s.CreatedAt, &s.ExpiresAt, &s.EndedAt)
	return s, notFound(err)
}

// EndDashboardSession marks a session ended; ErrNotFound if there is none.
func (q *Q) EndDashboardSession(ctx context.Context, tokenHash string, at chat.Timestamp) error {
	res, err := q.exec(ctx, `UPDATE dashboard_sessions SET ended_at = COALESCE(ended_at, ?) WHERE token_hash = ?`,
		at, tokenHash)
	return affected(res, err)
}

// SetDashboardMode switches the mode a session shows.
func (q *Q) SetDashboardMode(ctx context.Context, tokenHash string, mode chat.Mode) error {
	res, err := q.exec(ctx, `UPDATE dashboard_sessions SET mode = ? WHERE token_hash = ?`, mode, tokenHash)
	return affected(res, err)
}

// EndMemberSessions ends every open session of a member (after a password change).
func (q *Q) EndMemberSessions(ctx context.Context, memberID string, at chat.Timestamp) error {
	_, err := q.exec(ctx, `UPDATE dashboard_sessions SET ended_at = ? WHERE member_id = ? AND ended_at IS NULL`,
		at, memberID)
	return err
}

// DeleteExpiredDashboardSessions removes sessions that expired or ended before at.
func (q *Q) DeleteExpiredDashboardSessions(ctx context.Context, at chat.Timestamp) (int64, error) {
	res, err := q.exec(ctx, `DELETE FROM dashboard_sessions WHERE expires_at < ? OR ended_at < ?`, at, at)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// MemberByEmail returns the member with the e-mail (any case), or ErrNotFound.
func (q *Q) MemberByEmail(ctx context.Context, email string) (*chat.Member, error) {
	return scanMember(q.row(ctx, `SELECT `+memberCols+` FROM members WHERE email = ?`, email))
}

// SetMemberPassword stores a member's new password hash; ErrNotFound if there is no such member.
func (q *Q) SetMemberPassword(ctx context.Context, id, hash string) error {
	res, err := q.exec(ctx, `UPDATE members SET password_hash = ? WHERE id = ?`, hash, id)
	return affected(res, err)
}

// SignInFailures counts the failed sign-ins in a row of one e-mail address
// (lower-cased) and its lock-out.
type SignInFailures struct {
	Email       string
	Count       int
	LockedUntil *chat.Timestamp // no sign-in before this instant
	LastAt      chat.Timestamp  // when the latest attempt was counted
}

// SignInFailures returns the failures recorded for an e-mail: zero counts
// (not ErrNotFound) when there are none.
func (q *Q) SignInFailures(ctx context.Context, email string) (*SignInFailures, error) {
	f := &SignInFailures{Email: email}
	err := q.row(ctx, `SELECT failures, locked_until, last_at FROM sign_in_failures WHERE email = ?`, email).
		Scan(&f.Count, &f.LockedUntil, &f.LastAt)
	if err = notFound(err); err == ErrNotFound {
		return &SignInFailures{Email: email}, nil
	}
	return f, err
}

// SetSignInFailures records the failures of an e-mail and its lock-out.
func (q *Q) SetSignInFailures(ctx context.Context, f *SignInFailures) error {
	_, err := q.exec(ctx, `INSERT INTO sign_in_failures (email, failures, locked_until, last_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (email) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until,
		last_at = excluded.last_at`, f.Email, f.Count, f.LockedUntil, f.LastAt)
	return err
}

// DeleteSignInFailures removes the rows whose latest attempt was counted
// before lastBefore and whose lock-out, if any, is over at now.
func (q *Q) DeleteSignInFailures(ctx context.Context, lastBefore, now chat.Timestamp) (int64, error) {
	res, err := q.exec(ctx, `DELETE FROM sign_in_failures
		WHERE last_at < ? AND (locked_until IS NULL OR locked_until <= ?)`, lastBefore, now)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ClearSignInFailures forgets the failures of an e-mail after a successful sign-in.
func (q *Q) ClearSignInFailures(ctx context.Context, email string) error {
	_, err := q.exec(ctx, `DELETE FROM sign_in_failures WHERE email = ?`, email)
	return err
}

// MarkConversationRead records that a member has seen count messages of a conversation.
func (q *Q) MarkConversationRead(ctx context.Context, memberID, conversationID string, count int) error {
	_, err := q.exec(ctx, `INSERT INTO conversation_reads (member_id, conversation_id, seen_count) VALUES (?, ?, ?)
		ON CONFLICT (member_id, conversation_id) DO UPDATE SET seen_count = MAX(seen_count, excluded.seen_count)`,
		memberID, conversationID, count)
	return err
}

// SeenCounts returns, for each of the conversations, how many messages the
// member has seen (absent: none). The ids go in as one JSON array, so the
// statement is the same whatever their number.
func (q *Q) SeenCounts(ctx context.Context, memberID string, conversationIDs []string) (map[string]int, error) {
	out := make(map[string]int, len(conversationIDs))
	if len(conversationIDs) == 0 {
		return out, nil
	}
	rows, err := q.query(ctx, `SELECT conversation_id, seen_count FROM conversation_reads
		WHERE member_id = ? AND conversation_id IN (SELECT value FROM json_each(?))`, memberID, toJSON(conversationIDs))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}
