package storage

import "context"

// SetMemberTOTP writes a member's enrolled and pending TOTP secrets and the
// newest time step used; ErrNotFound if there is no such member.
func (q *Q) SetMemberTOTP(ctx context.Context, id string, secret, pending *string, lastStep int64) error {
	res, err := q.exec(ctx, `UPDATE members SET totp_secret = ?, totp_pending = ?, totp_last_step = ? WHERE id = ?`,
		secret, pending, lastStep, id)
	return affected(res, err)
}

// TakeTOTPStep records that a code of time step was used, and reports
// false when one of that step or a later one was used before: each code
// signs in once.
func (q *Q) TakeTOTPStep(ctx context.Context, id string, step int64) (bool, error) {
	res, err := q.exec(ctx, `UPDATE members SET totp_last_step = ? WHERE id = ? AND totp_last_step < ?`, step, id, step)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReplaceRecoveryCodes stores a member's recovery codes (their hashes),
// forgetting the previous ones.
func (q *Q) ReplaceRecoveryCodes(ctx context.Context, memberID string, hashes []string) error {
	if _, err := q.exec(ctx, `DELETE FROM recovery_codes WHERE member_id = ?`, memberID); err != nil {
		return err
	}
	for _, h := range hashes {
		if _, err := q.exec(ctx, `INSERT INTO recovery_codes (member_id, code_hash) VALUES (?, ?)`, memberID, h); err != nil {
			return err
		}
	}
	return nil
}

// TakeRecoveryCode deletes a member's recovery code by its hash, and
// reports whether it was there.
func (q *Q) TakeRecoveryCode(ctx context.Context, memberID, hash string) (bool, error) {
	res, err := q.exec(ctx, `DELETE FROM recovery_codes WHERE member_id = ? AND code_hash = ?`, memberID, hash)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// RecoveryCodesLeft counts a member's unused recovery codes.
func (q *Q) RecoveryCodesLeft(ctx context.Context, memberID string) (int, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM recovery_codes WHERE member_id = ?`, memberID).Scan(&n)
	return n, err
}
