package app

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Two-factor sign-in: a time-based one-time password (TOTP, RFC 6238) from
// any authenticator app, the RFC's defaults that every app reads: HMAC-SHA1,
// 6 digits, 30-second steps.
const (
	totpStep   = 30 * time.Second
	totpDigits = 6
	// totpSkew is how many steps before or after now a code is still taken:
	// a phone's clock may be a little off.
	totpSkew = 1
	// RecoveryCodes is how many one-time recovery codes enrolment gives.
	RecoveryCodes = 10
	// CodeTwoFactorRequired asks for the second factor after a right password.
	CodeTwoFactorRequired = "two_factor_required"
	// settingTwoFactorRequired ("true") makes every member enrol.
	settingTwoFactorRequired = "dashboard.two_factor_required"
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// TOTPCode is the code of a base32 secret at time t, as an authenticator
// app shows it.
func TOTPCode(secret string, t time.Time) (string, error) {
	key, err := b32.DecodeString(strings.ToUpper(secret))
	if err != nil {
		return "", err
	}
	return totpAt(key, t.Unix()/int64(totpStep/time.Second)), nil
}

func totpAt(key []byte, step int64) string {
	mac := hmac.New(sha1.New, key)
	binary.Write(mac, binary.BigEndian, step)
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	n := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%0*d", totpDigits, n%1_000_000)
}

// matchTOTP returns the time step whose code is code, within totpSkew of
// now, or 0.
func matchTOTP(secret, code string, now time.Time) int64 {
	key, err := b32.DecodeString(secret)
	if err != nil || len(code) != totpDigits {
		return 0
	}
	cur := now.Unix() / int64(totpStep/time.Second)
	for step := cur - totpSkew; step <= cur+totpSkew; step++ {
		if hmac.Equal([]byte(totpAt(key, step)), []byte(code)) {
			return step
		}
	}
	return 0
}

// TwoFactorEnrolment is what a member's authenticator app is set up with.
type TwoFactorEnrolment struct {
	Secret string // base32, to type in
	URI    string // otpauth://, for the QR code
}

// BeginTwoFactor gives a member not yet enrolled a secret to set up, kept
// until confirmed: showing the page again shows the same one.
func (s *Service) BeginTwoFactor(ctx context.Context, memberID string) (*TwoFactorEnrolment, error) {
	m, err := writeResult(ctx, s, func(q *storage.Q) (*chat.Member, error) {
		m, err := q.Member(ctx, memberID)
		if err != nil || m.TOTPPending != nil || m.TwoFactor() {
			return m, err
		}
		raw := make([]byte, 20)
		rand.Read(raw)
		secret := b32.EncodeToString(raw)
		m.TOTPPending = &secret
		return m, q.SetMemberTOTP(ctx, m.ID, m.TOTPSecret, m.TOTPPending, m.TOTPLastStep)
	})
	if err != nil {
		return nil, err
	}
	if m.TwoFactor() {
		return nil, conflictErr("code", "Two-factor sign-in is already on for %s.", m.Email)
	}
	issuer := "chatsvc"
	if h := s.publicHost(); h != "" {
		issuer += " " + h
	}
	uri := "otpauth://totp/" + url.PathEscape(issuer+":"+m.Email) + "?" + url.Values{"secret": {*m.TOTPPending},
		"issuer": {issuer}, "algorithm": {"SHA1"}, "digits": {"6"}, "period": {"30"}}.Encode()
	return &TwoFactorEnrolment{Secret: *m.TOTPPending, URI: uri}, nil
}

// ConfirmTwoFactor turns two-factor sign-in on once the member proves
// their app shows the right code, and returns RecoveryCodes one-time
// recovery codes, shown this once and stored hashed.
func (s *Service) ConfirmTwoFactor(ctx context.Context, memberID, code string) ([]string, error) {
	code = strings.TrimSpace(code)
	if code == "" {
		return nil, missing("code")
	}
	codes := make([]string, RecoveryCodes)
	hashes := make([]string, RecoveryCodes)
	for i := range codes {
		raw := make([]byte, 8)
		rand.Read(raw)
		c := strings.ToLower(b32.EncodeToString(raw))[:10]
		codes[i] = c[:5] + "-" + c[5:]
		hashes[i] = recoveryHash(codes[i])
	}
	now := s.now()
	return codes, s.write(ctx, func(q *storage.Q) error {
		m, err := q.Member(ctx, memberID)
		if err != nil {
			return err
		}
		if m.TOTPPending == nil {
			return conflictErr("code", "Start the set-up again: no secret is waiting to be confirmed.")
		}
		step := matchTOTP(*m.TOTPPending, code, now)
		if step == 0 {
			return invalid("code", "The code is not right: enter the 6 digits the app shows now.")
		}
		if err := q.SetMemberTOTP(ctx, m.ID, m.TOTPPending, nil, step); err != nil {
			return err
		}
		return q.ReplaceRecoveryCodes(ctx, m.ID, hashes)
	})
}

// recoveryHash is what is stored of a recovery code: its SHA-256, the
// dash and case ignored.
func recoveryHash(code string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.ReplaceAll(strings.TrimSpace(code), "-", ""))))
	return hex.EncodeToString(sum[:])
}

// secondFactor checks a signing-in member's code: a TOTP code not used
// before, or an unused recovery code, which is used up. It reports false
// for a wrong or repeated code.
func (s *Service) secondFactor(ctx context.Context, m *chat.Member, code string) (bool, error) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	now := s.now()
	return writeResult(ctx, s, func(q *storage.Q) (bool, error) {
		if step := matchTOTP(*m.TOTPSecret, code, now); step != 0 {
			return q.TakeTOTPStep(ctx, m.ID, step)
		}
		if len(code) < 10 {
			return false, nil
		}
		return q.TakeRecoveryCode(ctx, m.ID, recoveryHash(code))
	})
}

// ResetTwoFactor turns a member's two-factor sign-in off (a lost phone),
// forgetting their secret and recovery codes and ending their sessions.
// Only an owner may.
func (s *Service) ResetTwoFactor(ctx context.Context, by *chat.Member, memberID string) error {
	if err := requireOwner(by); err != nil {
		return err
	}
	return s.write(ctx, func(q *storage.Q) error {
		m, err := q.Member(ctx, memberID)
		if err != nil {
			return found(err, noSuch("team member", memberID))
		}
		if err := q.SetMemberTOTP(ctx, m.ID, nil, nil, m.TOTPLastStep); err != nil {
			return err
		}
		if err := q.ReplaceRecoveryCodes(ctx, m.ID, nil); err != nil {
			return err
		}
		return q.EndMemberSessions(ctx, m.ID, s.stamp())
	})
}

// RequireTwoFactor makes every member enrol in two-factor sign-in before
// using the dashboard (or lifts that). Only an owner may.
func (s *Service) RequireTwoFactor(ctx context.Context, by *chat.Member, required bool) error {
	if err := requireOwner(by); err != nil {
		return err
	}
	return s.write(ctx, func(q *storage.Q) error {
		return q.SetSetting(ctx, settingTwoFactorRequired, fmt.Sprint(required))
	})
}

// TwoFactorRequired tells whether the team requires two-factor sign-in.
func (s *Service) TwoFactorRequired(ctx context.Context) (bool, error) {
	v, err := s.db.Read().Setting(ctx, settingTwoFactorRequired)
	if isNotFound(err) {
		return false, nil
	}
	return v == "true", err
}

// RecoveryCodesLeft counts a member's unused recovery codes.
func (s *Service) RecoveryCodesLeft(ctx context.Context, memberID string) (int, error) {
	return s.db.Read().RecoveryCodesLeft(ctx, memberID)
}
