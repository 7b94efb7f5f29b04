package webhooks_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"chatsvc/webhooks"
)

// FuzzSignatureHeader feeds arbitrary Service-Signature headers and bodies
// to the receiver's check: it never panics, and it accepts only a header
// carrying the signature we would have made for that body and time.
func FuzzSignatureHeader(f *testing.F) {
	at := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	body := `{"id":"evt_1"}`
	for _, h := range []string{webhooks.Sign("whsec_x", at, []byte(body)), "", "t=,v1=", "t=1,v1=zz",
		"v1=ab,t=1759320000", "t=1759320000,v1=" + strings.Repeat("0", 64) + ",v0=1", "t=-1,v1=="} {
		f.Add(h, body)
	}
	f.Fuzz(func(t *testing.T, header, body string) {
		if verify("whsec_x", header, []byte(body), at) != nil {
			return
		}
		// Accepted: the header's v1 must be the HMAC of its own t and this body.
		var tsec, sig string
		for _, part := range strings.Split(header, ",") {
			k, v, _ := strings.Cut(part, "=")
			switch k {
			case "t":
				tsec = v
			case "v1":
				sig = v
			}
		}
		want := webhooks.Sign("whsec_x", unix(t, tsec), []byte(body))
		if !strings.HasSuffix(want, ",v1="+sig) {
			t.Fatalf("accepted a forged header %q for body %q", header, body)
		}
	})
}

func unix(t *testing.T, s string) time.Time {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("accepted a header whose t=%q is not a number", s)
	}
	return time.Unix(n, 0)
}
