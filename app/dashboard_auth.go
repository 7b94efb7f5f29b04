package app

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Dashboard sign-in rules.
const (
	// DashboardSessionTTL is how long a dashboard session lasts after sign-in.
	DashboardSessionTTL = 12 * time.Hour
	// MaxSignInFailures failed sign-ins in a row lock an e-mail address out
	// for SignInLockout, which slows password guessing to a crawl.
	MaxSignInFailures = 5
	SignInLockout     = 15 * time.Minute
	MinPasswordLength = 8
	maxPasswordLength = 72 // bcrypt reads no further
)

// CodeSignInFailed and the others are the dashboard's own error codes.
const (
	CodeSignInFailed   = "sign_in_failed"
	CodeSignInLocked   = "sign_in_locked"
	CodeSessionInvalid = "session_invalid"
	CodeCSRFInvalid    = "csrf_token_invalid"
)

// DashboardSession is a signed-in team member, as the dashboard sees them.
type DashboardSession struct {
	Member *chat.Member
	Mode   chat.Mode
	CSRF   string
	// MustEnrol: the team requires two-factor sign-in and the member has
	// not set it up; the dashboard shows only the set-up until they do.
	MustEnrol bool
	hash      string
}

// SignedIn is a new session: Token goes in the cookie and is never stored.
type SignedIn struct {
	Token string
	*DashboardSession
}

// hashPassword checks a new password's length and returns its bcrypt hash.
func (s *Service) hashPassword(password string) (string, error) {
	if len(password) < MinPasswordLength {
		return "", invalid("password", "password must have at least %d characters.", MinPasswordLength)
	}
	if len(password) > maxPasswordLength {
		return "", invalid("password", "password can be at most %d bytes long.", maxPasswordLength)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), s.passwordCost)
	return string(h), err
}

// SetMemberPassword sets the dashboard password of the member with the
// e-mail address and ends their open sessions.
func (s *Service) SetMemberPassword(ctx context.Context, email, password string) (*chat.Member, error) {
	h, err := s.hashPassword(password)
	if err != nil {
		return nil, err
	}
	return writeResult(ctx, s, func(q *storage.Q) (*chat.Member, error) {
		m, err := q.MemberByEmail(ctx, lower(email))
		if err != nil {
			return nil, found(err, noSuchRef("email", "team member", email))
		}
		m.PasswordHash = &h
		if err := q.SetMemberPassword(ctx, m.ID, h); err != nil {
			return nil, err
		}
		return m, q.EndMemberSessions(ctx, m.ID, s.stamp())
	})
}

// dummyHash is compared against when the e-mail is unknown, so a sign-in
// takes as long whether or not the address belongs to a member.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("no such member, no such password"), bcrypt.DefaultCost)

// SignIn checks a member's e-mail and password and opens a session in
// test mode (the safe default; the dashboard switches modes). Each attempt
// is counted before the password is checked, so parallel attempts cannot
// slip past the count: the MaxSignInFailures-th failed attempt in a row
// locks the address for SignInLockout (it fails as any other, the next ones
// are refused), and only a right password in it lifts the lock.
// Returns a RateLimited error while the address is locked or the server is
// busy checking other passwords.
func (s *Service) SignIn(ctx context.Context, email, password string) (*SignedIn, error) {
	return s.SignInWithCode(ctx, email, password, "")
}

// SignInWithCode is SignIn for a member who may have two-factor sign-in:
// after a right password, such a member also needs a code (their app's,
// or a recovery code), else an Unauthorized two_factor_required error. A
// wrong code fails and counts as a wrong password does, so the same
// lock-out bounds code guessing.
func (s *Service) SignInWithCode(ctx context.Context, email, password, code string) (*SignedIn, error) {
	key := lower(email)
	if key == "" {
		return nil, missing("email")
	}
	if password == "" {
		return nil, missing("password")
	}
	release, err := s.passwordChecks.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	a, err := s.countSignInAttempt(ctx, key)
	if err != nil {
		return nil, err
	}
	if a.lockedFor > 0 {
		return nil, locked(a.lockedFor)
	}
	m, err := orNil(s.db.Read().MemberByEmail(ctx, key))
	if err != nil {
		return nil, err
	}
	if !passwordMatches(m, password) {
		return nil, signInFailed(a, "The e-mail address or the password is not right.")
	}
	if m.TwoFactor() {
		if strings.TrimSpace(code) == "" {
			return nil, &Error{Kind: Unauthorized, Code: CodeTwoFactorRequired, Param: "code",
				Message: "Enter the code your authenticator app shows (or one of your recovery codes)."}
		}
		ok, err := s.secondFactor(ctx, m, code)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, signInFailed(a, "The code is not right, or was used already.")
		}
	}
	return s.openDashboardSession(ctx, key, m)
}

// signInFailed is the error of a failed attempt, saying so when it locks
// the address (the next attempts are refused).
func signInFailed(a signInAttempt, msg string) *Error {
	if a.locks {
		msg += fmt.Sprintf(" After %d failed attempts in a row, sign-in with this address is locked for %d minutes.",
			MaxSignInFailures, int(SignInLockout.Minutes()))
	}
	return &Error{Kind: Unauthorized, Code: CodeSignInFailed, Message: msg}
}

// passwordMatches checks the password against the member's hash, or
// against dummyHash for an unknown address, so both take as long.
func passwordMatches(m *chat.Member, password string) bool {
	hash := dummyHash
	if m != nil && m.PasswordHash != nil {
		hash = []byte(*m.PasswordHash)
	}
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil && m != nil && m.PasswordHash != nil
}

// openDashboardSession forgets the address's failures and stores a new session.
func (s *Service) openDashboardSession(ctx context.Context, key string, m *chat.Member) (*SignedIn, error) {
	now := s.now()
	token := RandomToken(43)
	sess := &storage.DashboardSession{TokenHash: tokenHash(token), MemberID: m.ID, Mode: chat.Test,
		CSRF: RandomToken(32), CreatedAt: chat.At(now), ExpiresAt: chat.At(now.Add(DashboardSessionTTL))}
	err := s.write(ctx, func(q *storage.Q) error {
		if err := q.ClearSignInFailures(ctx, key); err != nil {
			return err
		}
		return q.InsertDashboardSession(ctx, sess)
	})
	if err != nil {
		return nil, err
	}
	return &SignedIn{Token: token, DashboardSession: &DashboardSession{Member: m, Mode: sess.Mode, CSRF: sess.CSRF,
		hash: sess.TokenHash}}, nil
}

// signInAttempt is what counting a sign-in attempt decided.
type signInAttempt struct {
	lockedFor time.Duration // > 0: refused, the address is locked this much longer
	locks     bool          // this attempt is the last allowed: unless it succeeds, the address is locked
}

// countSignInAttempt counts an attempt as a failure before its password is
// checked (a success clears the count), in one transaction, so that every
// attempt sees the ones before it.
func (s *Service) countSignInAttempt(ctx context.Context, key string) (signInAttempt, error) {
	return writeResult(ctx, s, func(q *storage.Q) (signInAttempt, error) {
		f, err := q.SignInFailures(ctx, key)
		if err != nil {
			return signInAttempt{}, err
		}
		a, next := nextSignInAttempt(f, s.now())
		if next != nil {
			err = q.SetSignInFailures(ctx, next)
		}
		return a, err
	})
}

// nextSignInAttempt decides an attempt from the address's failures so far
// and returns the failures to record (nil: refused, nothing changes).
// Failures are counted afresh once a lock-out is over, or SignInLockout
// after the latest one.
func nextSignInAttempt(f *storage.SignInFailures, now time.Time) (signInAttempt, *storage.SignInFailures) {
	if f.LockedUntil != nil && now.Before(f.LockedUntil.Time()) {
		return signInAttempt{lockedFor: f.LockedUntil.Time().Sub(now)}, nil
	}
	n := f.Count
	if f.LockedUntil != nil || !now.Before(f.LastAt.Time().Add(SignInLockout)) {
		n = 0
	}
	next := &storage.SignInFailures{Email: f.Email, Count: n + 1, LastAt: chat.At(now)}
	if next.Count < MaxSignInFailures {
		return signInAttempt{}, next
	}
	until := chat.At(now.Add(SignInLockout))
	next.LockedUntil = &until
	return signInAttempt{locks: true}, next
}

// PruneSignInFailures deletes the failures of addresses whose latest
// attempt and lock-out ended more than SignInLockout ago: they no longer
// count towards a lock-out.
func (s *Service) PruneSignInFailures(ctx context.Context) (int64, error) {
	now := s.now()
	w, err := storage.Write(ctx, s.db, func(q *storage.Q) (int64, error) {
		return q.DeleteSignInFailures(ctx, chat.At(now.Add(-SignInLockout)), chat.At(now))
	})
	return w.Result, err
}

func locked(d time.Duration) *Error {
	return &Error{Kind: RateLimited, Code: CodeSignInLocked, RetryAfter: d,
		Message: "Too many failed sign-ins for this address. Try again in a few minutes."}
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// DashboardSessionOf returns the open session of a cookie token; a missing,
// unknown, expired or ended one is an Unauthorized error.
func (s *Service) DashboardSessionOf(ctx context.Context, token string) (*DashboardSession, error) {
	bad := &Error{Kind: Unauthorized, Code: CodeSessionInvalid, Message: "Sign in to use the dashboard."}
	if token == "" {
		return nil, bad
	}
	q := s.db.Read()
	sess, err := q.DashboardSession(ctx, tokenHash(token))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, bad
	} else if err != nil {
		return nil, err
	}
	if sess.EndedAt != nil || !s.now().Before(sess.ExpiresAt.Time()) {
		return nil, bad
	}
	m, err := q.Member(ctx, sess.MemberID)
	if err != nil {
		return nil, err
	}
	required, err := s.TwoFactorRequired(ctx)
	if err != nil {
		return nil, err
	}
	return &DashboardSession{Member: m, Mode: sess.Mode, CSRF: sess.CSRF, MustEnrol: required && !m.TwoFactor(),
		hash: sess.TokenHash}, nil
}

// CheckCSRF refuses a state-changing request whose token is not the session's.
func (d *DashboardSession) CheckCSRF(token string) error {
	if token == "" || subtle.ConstantTimeCompare([]byte(token), []byte(d.CSRF)) != 1 {
		return &Error{Kind: Forbidden, Code: CodeCSRFInvalid,
			Message: "This form has expired or did not come from the dashboard. Reload the page and try again."}
	}
	return nil
}

// SignOut ends a session on the server, so its cookie is refused from then on.
func (s *Service) SignOut(ctx context.Context, d *DashboardSession) error {
	return s.write(ctx, func(q *storage.Q) error { return q.EndDashboardSession(ctx, d.hash, s.stamp()) })
}

// SetDashboardMode switches the session between live and test data.
func (s *Service) SetDashboardMode(ctx context.Context, d *DashboardSession, mode string) error {
	if err := oneOf("mode", mode, string(chat.Live), string(chat.Test)); err != nil {
		return err
	}
	d.Mode = chat.Mode(mode)
	return s.write(ctx, func(q *storage.Q) error { return q.SetDashboardMode(ctx, d.hash, d.Mode) })
}

// PruneDashboardSessions deletes sessions that expired or ended, which
// nothing can use any more.
func (s *Service) PruneDashboardSessions(ctx context.Context) (int64, error) {
	w, err := storage.Write(ctx, s.db, func(q *storage.Q) (int64, error) {
		return q.DeleteExpiredDashboardSessions(ctx, s.stamp())
	})
	return w.Result, err
}
