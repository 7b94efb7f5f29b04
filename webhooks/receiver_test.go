package webhooks_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"chatsvc/webhooks"
)

// verify is the receiver's check shown in the README, kept here so the
// README's code is known to work against what we send.
func verify(secret, header string, body []byte, now time.Time) error {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sig == "" {
		return errors.New("malformed signature header")
	}
	if d := now.Sub(time.Unix(t, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return errors.New("timestamp outside the five-minute tolerance")
	}
	mac := hmac.New(sha256.New, []byte(secret)) // the whole secret, whsec_ included
	mac.Write([]byte(ts + "."))
	mac.Write(body) // the raw bytes, before any JSON parsing
	want := hex.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(sig), []byte(want)) { // constant time
		return errors.New("signature mismatch")
	}
	return nil
}

func TestReadmeVerifierAcceptsOursAndRejectsTheRest(t *testing.T) {
	t.Parallel()
	const secret = "whsec_readme"
	body := []byte(`{"id":"evt_1","object":"event"}`)
	at := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	h := webhooks.Sign(secret, at, body)
	for _, c := range []struct {
		name   string
		secret string
		header string
		body   []byte
		now    time.Time
		ok     bool
	}{
		{"ours", secret, h, body, at.Add(time.Minute), true},
		{"at the edge", secret, h, body, at.Add(5 * time.Minute), true},
		{"replayed later", secret, h, body, at.Add(5*time.Minute + time.Second), false},
		{"other secret", "whsec_other", h, body, at, false},
		{"secret without prefix", "readme", h, body, at, false},
		{"changed body", secret, h, []byte(`{"id":"evt_2","object":"event"}`), at, false},
		{"re-encoded body", secret, h, []byte(`{"id": "evt_1", "object": "event"}`), at, false},
		{"no header", secret, "", body, at, false},
	} {
		if err := verify(c.secret, c.header, c.body, c.now); (err == nil) != c.ok {
			t.Errorf("%s: verify = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
