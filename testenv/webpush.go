package testenv

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
)

// PushBrowser is the keys a browser makes when it subscribes to Web Push,
// and what it does with a push: tests stand it in for a browser.
type PushBrowser struct {
	key  *ecdh.PrivateKey
	auth []byte
}

// NewPushBrowser makes the keys of a new subscription.
func NewPushBrowser(t *testing.T) PushBrowser {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return PushBrowser{k, auth}
}

// Keys are the subscription's p256dh and auth, in unpadded base64url.
func (b PushBrowser) Keys() (p256dh, auth string) {
	return base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(b.auth)
}

// Decrypt opens an aes128gcm push body as a browser does (RFC 8291, 8188).
func (b PushBrowser) Decrypt(t *testing.T, body []byte) []byte {
	t.Helper()
	salt, idLen := body[:16], int(body[20])
	asPublic, ciphertext := body[21:21+idLen], body[21+idLen:]
	if rs := binary.BigEndian.Uint32(body[16:20]); int(rs) < len(ciphertext) {
		t.Fatalf("record size %d for %d bytes: one record expected", rs, len(ciphertext))
	}
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := b.key.ECDH(as)
	if err != nil {
		t.Fatal(err)
	}
	info := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), asPublic...)
	ikm := hkdf(b.auth, shared, info, 32)
	cek, nonce := hkdf(salt, ikm, []byte("Content-Encoding: aes128gcm\x00"), 16),
		hkdf(salt, ikm, []byte("Content-Encoding: nonce\x00"), 12)
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		t.Fatalf("the push does not decrypt with the subscription's keys: %v", err)
	}
	plain = []byte(strings.TrimRight(string(plain), "\x00"))
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		t.Fatal("no last-record delimiter")
	}
	return plain[:len(plain)-1]
}

// hkdf is HKDF-SHA256 with one block of output, cut to n bytes.
func hkdf(salt, secret, info []byte, n int) []byte {
	m := hmac.New(sha256.New, salt)
	m.Write(secret)
	prk := m.Sum(nil)
	m = hmac.New(sha256.New, prk)
	m.Write(append(info, 1))
	return m.Sum(nil)[:n]
}
