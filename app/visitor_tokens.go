package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// settingTokenKey is the settings row holding the key that signs visitor
// tokens. It is made on first use and kept in the database, so tokens stay
// valid across restarts and in restored backups.
const settingTokenKey = "widget.visitor_token_key"

// visitorClaims is what a visitor token says: who, on which site, in which
// mode, since when (Unix seconds).
type visitorClaims struct {
	Mode      chat.Mode
	SiteID    string
	VisitorID string
	IssuedAt  int64
}

// VisitorTokenTTL is how long a visitor token is accepted after it was
// issued. Every session start issues a fresh one, so only a visitor away for
// longer starts afresh, as their anonymous visitor may be pruned by then.
const VisitorTokenTTL = 30 * 24 * time.Hour

const tokenPrefix = "vt_"

// signToken makes the opaque token "vt_<payload>.<mac>", both base64url,
// issued now unless c says when.
func (s *Service) signToken(ctx context.Context, c visitorClaims) (string, error) {
	key, err := s.tokenKey(ctx)
	if err != nil {
		return "", err
	}
	if c.IssuedAt == 0 {
		c.IssuedAt = s.now().Unix()
	}
	claims := strings.Join([]string{string(c.Mode), c.SiteID, c.VisitorID, strconv.FormatInt(c.IssuedAt, 10)}, "|")
	payload := base64.RawURLEncoding.EncodeToString([]byte(claims))
	return tokenPrefix + payload + "." + base64.RawURLEncoding.EncodeToString(mac(key, payload)), nil
}

// verifyToken checks a token's signature and returns its claims.
func (s *Service) verifyToken(ctx context.Context, token string) (visitorClaims, error) {
	if token == "" {
		return visitorClaims{}, &Error{Kind: Unauthorized, Code: CodeVisitorTokenMissing,
			Message: "No visitor token provided. Start a session (POST /widget/v1/sessions) and send its visitor_token in the X-Visitor-Token header."}
	}
	bad := &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid,
		Message: "Invalid visitor token. Start a new session without it."}
	payload, sig, ok := strings.Cut(strings.TrimPrefix(token, tokenPrefix), ".")
	if !ok || !strings.HasPrefix(token, tokenPrefix) {
		return visitorClaims{}, bad
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig) // one encoding per signature
	if err != nil {
		return visitorClaims{}, bad
	}
	key, err := s.tokenKey(ctx)
	if err != nil {
		return visitorClaims{}, err
	}
	if !hmac.Equal(got, mac(key, payload)) {
		return visitorClaims{}, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	parts := strings.Split(string(raw), "|")
	if err != nil || len(parts) != 4 {
		return visitorClaims{}, bad
	}
	iat, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil || strconv.FormatInt(iat, 10) != parts[3] {
		return visitorClaims{}, bad
	}
	if s.now().Sub(time.Unix(iat, 0)) > VisitorTokenTTL {
		return visitorClaims{}, &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid,
			Message: "This visitor token has expired. Start a new session without it."}
	}
	return visitorClaims{Mode: chat.Mode(parts[0]), SiteID: parts[1], VisitorID: parts[2], IssuedAt: iat}, nil
}

func mac(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

// tokenKeys holds the key that signs visitor tokens once it is loaded.
type tokenKeys struct {
	mu  sync.Mutex
	key []byte
}

// tokenKey returns the signing key, creating it on first use.
func (s *Service) tokenKey(ctx context.Context) ([]byte, error) {
	st := &s.tokens
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.key != nil {
		return st.key, nil
	}
	v, err := s.db.Read().Setting(ctx, settingTokenKey)
	if errors.Is(err, storage.ErrNotFound) {
		// Two processes may race to create it: the write keeps the first.
		v, err = writeResult(ctx, s, func(q *storage.Q) (string, error) {
			return q.EnsureSetting(ctx, settingTokenKey, RandomToken(43)) // about 256 bits
		})
	}
	if err != nil {
		return nil, err
	}
	st.key = []byte(v)
	return st.key, nil
}
