package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
	"unicode/utf8"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Idempotency rules, as Stripe has them.
const (
	IdempotencyWindow = 24 * time.Hour // how long a response is replayed
	MaxIdempotencyKey = 255
	// A request that claimed a key but never finished (the process died) is
	// given up on after this long, so the key can be used again.
	idempotencyAbandoned = time.Minute
)

// CodeIdempotencyKeyErased refuses the replay of a response removed by a
// contact's erasure.
const CodeIdempotencyKeyErased = "idempotency_key_erased"

// Replay is a stored response to send again.
type Replay struct {
	Status int
	Body   []byte
}

// Fingerprint identifies a request's parameters: the same key must come
// with the same method, path and body.
func Fingerprint(method, path string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(method + " " + path + "\n"))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// BeginIdempotent claims key for a request. It returns a Replay when the key
// was used with the same parameters within 24 hours, an Invalid error when
// it was used with other parameters, and a Conflict error while the first
// request with the key is still running or when its response was erased
// with the contact it described. (nil, nil) means: go on, then call
// FinishIdempotent.
func (s *Service) BeginIdempotent(ctx context.Context, mode chat.Mode, key, fingerprint string) (*Replay, error) {
	if key == "" || utf8.RuneCountInString(key) > MaxIdempotencyKey {
		return nil, invalid("Idempotency-Key", "The Idempotency-Key header must have 1 to %d characters.", MaxIdempotencyKey)
	}
	return writeResult(ctx, s, func(q *storage.Q) (*Replay, error) {
		now := s.now()
		prev, err := q.IdempotencyKey(ctx, mode, key)
		switch {
		case errors.Is(err, storage.ErrNotFound):
		case err != nil:
			return nil, err
		case prev.CreatedAt.Time().Add(IdempotencyWindow).Before(now):
			// Expired: the key starts afresh.
		case prev.Erased:
			return nil, &Error{Kind: Conflict, Code: CodeIdempotencyKeyErased, Param: "Idempotency-Key",
				Message: "The response to this Idempotency-Key described a contact who has since been erased, so it is not kept; use a new key to send the request again."}
		case prev.Fingerprint != fingerprint:
			return nil, &Error{Kind: Invalid, Code: "idempotency_key_reused", Param: "Idempotency-Key",
				Message: "This Idempotency-Key was already used with other parameters; use a new key for a new request."}
		case prev.Status != nil:
			return &Replay{Status: *prev.Status, Body: prev.Body}, nil
		case prev.CreatedAt.Time().Add(idempotencyAbandoned).After(now):
			return nil, &Error{Kind: Conflict, Code: "idempotency_key_in_use", Param: "Idempotency-Key",
				Message: "A request with this Idempotency-Key is still being processed; retry shortly."}
		}
		return nil, q.ClaimIdempotencyKey(ctx, mode, key, fingerprint, chat.At(now))
	})
}

// FinishIdempotent stores the response of a request that claimed key.
// Responses that a retry could change (server errors, rate limits) are not
// kept: the key is released instead.
func (s *Service) FinishIdempotent(ctx context.Context, mode chat.Mode, key string, status int, body []byte) error {
	return s.write(ctx, func(q *storage.Q) error {
		if status >= 500 || status == 429 {
			return q.ReleaseIdempotencyKey(ctx, mode, key)
		}
		return q.StoreIdempotentResponse(ctx, mode, key, status, body)
	})
}

// PruneIdempotencyKeys forgets keys older than the replay window.
func (s *Service) PruneIdempotencyKeys(ctx context.Context) (int64, error) {
	return writeResult(ctx, s, func(q *storage.Q) (int64, error) {
		return q.PruneIdempotencyKeys(ctx, chat.At(s.now().Add(-IdempotencyWindow)))
	})
}
