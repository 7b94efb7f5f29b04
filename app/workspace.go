package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"

	"chatsvc/chat"
	"chatsvc/storage"
)

// KeyPrefix starts every secret API key: csk_live_… or csk_test_….
const KeyPrefix = "csk_"

// CreateKey makes a new secret API key for mode. The secret is returned once
// and only its hash is stored.
func (s *Service) CreateKey(ctx context.Context, mode chat.Mode, name string) (secret string, key *chat.APIKey, err error) {
	if mode != chat.Live && mode != chat.Test {
		return "", nil, invalid("mode", "mode must be live or test (got '%s').", mode)
	}
	secret = KeyPrefix + string(mode) + "_" + RandomToken(32)
	key = &chat.APIKey{ID: NewID(PrefixKey), Mode: mode, Hash: hashKey(secret), Hint: secret[len(secret)-4:],
		CreatedAt: s.stamp()}
	if name != "" {
		key.Name = &name
	}
	return secret, key, s.write(ctx, func(q *storage.Q) error { return q.InsertKey(ctx, key) })
}

func hashKey(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Authenticate returns the mode of a secret API key; missing, unknown and
// revoked keys are Unauthorized errors.
// AuthorizationSchemeError is the answer to an Authorization header that is
// not of the form "Bearer <key>".
func AuthorizationSchemeError() error {
	return &Error{Kind: Unauthorized, Code: CodeAPIKeyInvalid,
		Message: "The Authorization header must read 'Bearer ' followed by the API key (Authorization: Bearer csk_…)."}
}

func (s *Service) Authenticate(ctx context.Context, secret string) (chat.Mode, error) {
	if secret == "" {
		return "", &Error{Kind: Unauthorized, Code: CodeAPIKeyMissing,
			Message: "No API key provided. Send it in the header 'Authorization: Bearer csk_…'."}
	}
	bad := &Error{Kind: Unauthorized, Code: CodeAPIKeyInvalid, Message: "Invalid API key provided."}
	if !strings.HasPrefix(secret, KeyPrefix+"live_") && !strings.HasPrefix(secret, KeyPrefix+"test_") {
		return "", bad
	}
	// The lookup is by a hash of the whole secret, so its timing reveals nothing
	// about the stored keys.
	hash := hashKey(secret)
	epoch, err := s.keys.begin(s.now(), s.db.RevocationStamp)
	if err != nil {
		return "", err
	}
	if m, ok := s.keys.get(hash); ok {
		return m, nil
	}
	k, err := s.db.Read().KeyByHash(ctx, hash)
	if errors.Is(err, storage.ErrNotFound) {
		return "", bad
	} else if err != nil {
		return "", err
	}
	if k.RevokedAt != nil {
		return "", &Error{Kind: Unauthorized, Code: CodeAPIKeyInvalid, Message: "This API key has been revoked."}
	}
	s.keys.put(hash, k.Mode, epoch)
	return k.Mode, nil
}

// Keys lists every API key (never their secrets).
func (s *Service) Keys(ctx context.Context) ([]*chat.APIKey, error) { return s.db.Read().Keys(ctx) }

// RevokeKey revokes a key by id; it is refused from then on, and within a
// second by servers running in other processes (see keyCache).
func (s *Service) RevokeKey(ctx context.Context, id string) error {
	err := s.write(ctx, func(q *storage.Q) error {
		return found(q.RevokeKey(ctx, id, s.stamp()), noSuch("API key", id))
	})
	if err != nil {
		return err
	}
	s.keys.forget()
	return s.db.MarkRevocation()
}

// CreateSite adds a website the widget can run on.
func (s *Service) CreateSite(ctx context.Context, name, domain string) (*chat.Site, error) {
	if err := checkLen("name", name, 200, true); err != nil {
		return nil, err
	}
	now := s.stamp()
	site := &chat.Site{ID: NewID(PrefixSite), Name: name, Domains: []string{}, CreatedAt: now, UpdatedAt: now}
	if domain != "" {
		d, err := checkDomain("domain", domain)
		if err != nil {
			return nil, err
		}
		site.Domains = []string{d}
	}
	return site, s.write(ctx, func(q *storage.Q) error { return q.InsertSite(ctx, site) })
}

// Sites lists every site.
func (s *Service) Sites(ctx context.Context) ([]*chat.Site, error) { return s.db.Read().Sites(ctx) }

// CreateMember adds a team member with the role CreateMemberAs decides;
// a password lets them sign in to the dashboard.
func (s *Service) CreateMember(ctx context.Context, email, name, password string) (*chat.Member, error) {
	return s.CreateMemberAs(ctx, "", email, name, password)
}

// Members lists every team member.
func (s *Service) Members(ctx context.Context) ([]*chat.Member, error) {
	return s.db.Read().Members(ctx)
}

// Bootstrap prepares an empty installation: when there is no site and no
// API key yet, it creates a default site and a test-mode key and returns
// them (the key's secret is shown this once). Otherwise it returns nils.
func (s *Service) Bootstrap(ctx context.Context) (*chat.Site, string, error) {
	q := s.db.Read()
	sites, err := q.Sites(ctx)
	if err != nil {
		return nil, "", err
	}
	keys, err := q.Keys(ctx)
	if err != nil || len(sites) > 0 || len(keys) > 0 {
		return nil, "", err
	}
	site, err := s.CreateSite(ctx, "Default site", "")
	if err != nil {
		return nil, "", err
	}
	secret, _, err := s.CreateKey(ctx, chat.Test, "default")
	return site, secret, err
}
