package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"chatsvc/testenv"
)

// The RFC 6238 test vector for SHA-1 (the secret "12345678901234567890"),
// cut to six digits as authenticator apps show it.
func TestTOTPMatchesTheRFC(t *testing.T) {
	secret := b32.EncodeToString([]byte("12345678901234567890"))
	for unix, want := range map[int64]string{59: "287082", 1111111109: "081804", 1234567890: "005924", 2000000000: "279037"} {
		if got, err := TOTPCode(secret, time.Unix(unix, 0)); err != nil || got != want {
			t.Errorf("at %d: %q (%v), want %q", unix, got, err, want)
		}
	}
}

// A member enrols with a code from the app, then signs in with a code
// only: none is 401 two_factor_required, a wrong or repeated one fails and
// counts towards the lock-out, a recovery code works once.
func TestTwoFactorSignIn(t *testing.T) {
	ctx := context.Background()
	clock := testenv.NewClock(testenv.T0, 0)
	svc := New(testenv.OpenDB(t, ""), Options{Now: clock.Now})
	m, err := svc.CreateMember(ctx, "ann@example.com", "Ann", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	en, err := svc.BeginTwoFactor(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	again, err := svc.BeginTwoFactor(ctx, m.ID)
	if err != nil || again.Secret != en.Secret {
		t.Fatalf("the page shown again offers another secret: %v %v", again, err)
	}
	code := func() string {
		c, err := TOTPCode(en.Secret, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if _, err := svc.ConfirmTwoFactor(ctx, m.ID, "000000"); !isCode(err, CodeParameterInvalid) {
		t.Fatalf("a wrong confirmation: %v", err)
	}
	recovery, err := svc.ConfirmTwoFactor(ctx, m.ID, code())
	if err != nil || len(recovery) != RecoveryCodes {
		t.Fatalf("confirm: %d codes, %v", len(recovery), err)
	}
	if _, err := svc.SignIn(ctx, "ann@example.com", "correct horse battery"); !isCode(err, CodeTwoFactorRequired) {
		t.Fatalf("without a code: %v", err)
	}
	if _, err := svc.SignInWithCode(ctx, "ann@example.com", "correct horse battery", code()); !isCode(err, CodeSignInFailed) {
		t.Fatalf("the confirmation's code again: %v", err)
	}
	clock.Advance(30 * time.Second)
	c := code()
	if _, err := svc.SignInWithCode(ctx, "ann@example.com", "correct horse battery", c); err != nil {
		t.Fatalf("with the code: %v", err)
	}
	if _, err := svc.SignInWithCode(ctx, "ann@example.com", "correct horse battery", c); !isCode(err, CodeSignInFailed) {
		t.Fatalf("a code used twice: %v", err)
	}
	if _, err := svc.SignInWithCode(ctx, "ann@example.com", "correct horse battery", recovery[3]); err != nil {
		t.Fatalf("with a recovery code: %v", err)
	}
	if _, err := svc.SignInWithCode(ctx, "ann@example.com", "correct horse battery", recovery[3]); !isCode(err, CodeSignInFailed) {
		t.Fatalf("a recovery code used twice: %v", err)
	}
	for range MaxSignInFailures - 1 {
		svc.SignInWithCode(ctx, "ann@example.com", "correct horse battery", "123456")
	}
	clock.Advance(30 * time.Second)
	if _, err := svc.SignInWithCode(ctx, "ann@example.com", "correct horse battery", code()); !isCode(err, CodeSignInLocked) {
		t.Fatalf("after %d wrong codes: %v", MaxSignInFailures, err)
	}
	if left, err := svc.RecoveryCodesLeft(ctx, m.ID); err != nil || left != RecoveryCodes-1 {
		t.Fatalf("%d recovery codes left (%v)", left, err)
	}
}

func isCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
