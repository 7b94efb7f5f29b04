// Package webhooks delivers events to webhook endpoints over HTTP: it signs
// each payload, posts it through the SSRF-guarded outbound client, and runs
// the workers that fan events out and send what is due. The rules (who gets
// what, when to retry, when to give up) live in package app; this package
// only moves bytes and keeps the number of requests in flight bounded.
package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// SignatureHeader carries the signature of every delivery.
const SignatureHeader = "Service-Signature"

// Sign returns the Service-Signature value for body sent at `at`:
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">", keyed with the
// whole secret, "whsec_" included (the scheme receivers of Stripe-style
// webhooks already verify).
func Sign(secret string, at time.Time, body []byte) string {
	t := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t))
	mac.Write([]byte("."))
	mac.Write(body)
	return "t=" + t + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}
