package storage

import (
	"context"

	"chatsvc/chat"
)

// IdempotentResponse is what was stored for an Idempotency-Key.
type IdempotentResponse struct {
	Fingerprint string
	Status      *int // nil while the first request is still running
	Body        []byte
	Erased      bool // the response described an erased contact and is gone
	CreatedAt   chat.Timestamp
}

// IdempotencyKey returns the record of a key, or ErrNotFound.
func (q *Q) IdempotencyKey(ctx context.Context, mode chat.Mode, key string) (*IdempotentResponse, error) {
	r := &IdempotentResponse{}
	err := q.row(ctx, `SELECT fingerprint, status, body, erased, created_at FROM idempotency_keys
		WHERE mode = ? AND key = ?`, mode, key).Scan(&r.Fingerprint, &r.Status, &r.Body, &r.Erased, &r.CreatedAt)
	return r, notFound(err)
}

// ClaimIdempotencyKey records that a request with key is running, replacing
// any previous record of the key.
func (q *Q) ClaimIdempotencyKey(ctx context.Context, mode chat.Mode, key, fingerprint string, at chat.Timestamp) error {
	_, err := q.exec(ctx, `INSERT INTO idempotency_keys (mode, key, fingerprint, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (mode, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = NULL, body = NULL,
		erased = 0, created_at = excluded.created_at`, mode, key, fingerprint, at)
	return err
}

// StoreIdempotentResponse keeps the response of the request that claimed key.
func (q *Q) StoreIdempotentResponse(ctx context.Context, mode chat.Mode, key string, status int, body []byte) error {
	res, err := q.exec(ctx, `UPDATE idempotency_keys SET status = ?, body = ? WHERE mode = ? AND key = ?`,
		status, body, mode, key)
	return affected(res, err)
}

// ReleaseIdempotencyKey forgets a key, so that the request may be retried.
func (q *Q) ReleaseIdempotencyKey(ctx context.Context, mode chat.Mode, key string) error {
	_, err := q.exec(ctx, `DELETE FROM idempotency_keys WHERE mode = ? AND key = ?`, mode, key)
	return err
}

// PruneIdempotencyKeys drops the records created before cutoff.
func (q *Q) PruneIdempotencyKeys(ctx context.Context, cutoff chat.Timestamp) (int64, error) {
	res, err := q.exec(ctx, `DELETE FROM idempotency_keys WHERE created_at < ?`, cutoff)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// StoredResponse is the response kept for one Idempotency-Key.
type StoredResponse struct {
	Key  string
	Body []byte
}

// StoredResponses lists the responses kept in mode, for erasure to search.
func (q *Q) StoredResponses(ctx context.Context, mode chat.Mode) ([]StoredResponse, error) {
	rows, err := q.query(ctx, `SELECT key, body FROM idempotency_keys WHERE mode = ? AND body IS NOT NULL`, mode)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (StoredResponse, error) {
		var r StoredResponse
		return r, s.Scan(&r.Key, &r.Body)
	})
}

// EraseStoredResponse removes the response kept for key and marks the key
// erased, so that a replay is refused rather than run again.
func (q *Q) EraseStoredResponse(ctx context.Context, mode chat.Mode, key string) error {
	res, err := q.exec(ctx, `UPDATE idempotency_keys SET body = NULL, erased = 1 WHERE mode = ? AND key = ?`, mode, key)
	return affected(res, err)
}
