package web

import (
	"crypto/sha256"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"chatsvc/app"
)

// withRateLimit refuses requests over the limit with 429 rate_limited and a
// Retry-After header. key picks the bucket of a request; now is the service's clock.
func withRateLimit(now func() time.Time, l *app.Limiter, key func(*http.Request) string, next http.Handler) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if wait, ok := l.Allow(key(r), now()); !ok {
			writeError(w, r, &app.Error{Kind: app.RateLimited, Code: app.CodeRateLimited, RetryAfter: wait,
				Message: "Too many requests; slow down and retry after the time in the Retry-After header."})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// keyBucket is the bucket of an authenticated API request: its key's hash
// (the secret itself is not kept in memory longer than the request).
func keyBucket(r *http.Request) string {
	tok, _ := bearer(r)
	sum := sha256.Sum256([]byte(tok))
	return string(sum[:])
}

// clientIP is the bucket of a widget or sign-in request: the client's IP
// address. A loopback peer is taken to be the local reverse proxy, whose last
// X-Forwarded-For entry is the address it saw.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			parts := strings.Split(xff, ",")
			return strings.TrimSpace(parts[len(parts)-1])
		}
	}
	return host
}
