package web

import (
	"crypto/sha256"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"chatsvc/app"
)

// limiter hands out one token bucket per client key (an API key's mode and
// hash, or a visitor's IP address). Buckets unused for a while are dropped.
type limiter struct {
	perSecond rate.Limit
	burst     int
	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	*rate.Limiter
	seen time.Time
}

// newLimiter returns a limiter, or nil (no limit) when perSecond is 0.
func newLimiter(perSecond float64, burst int) *limiter {
	if perSecond <= 0 {
		return nil
	}
	return &limiter{perSecond: rate.Limit(perSecond), burst: max(burst, 1), buckets: map[string]*bucket{}}
}

// allow takes a token for key, or reports how long until one is available.
func (l *limiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > time.Minute {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
		l.lastSweep = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{Limiter: rate.NewLimiter(l.perSecond, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// withRateLimit refuses requests over the limit with 429 rate_limited and a
// Retry-After header. key picks the bucket of a request.
func withRateLimit(l *limiter, key func(*http.Request) string, next http.Handler) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ok, wait := l.allow(key(r), time.Now()); !ok {
			writeError(w, r, &app.Error{Kind: app.RateLimited, Code: "rate_limited", RetryAfter: wait,
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
