package app

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// CodeRateLimited is the code of a request refused for coming too fast.
const CodeRateLimited = "rate_limited"

// Limiter is the one rate limit of the service: a token bucket per key (an
// API key, a client address, a visitor), refilled at a steady rate up to a
// burst. It lives in memory: a restart forgets it, which only ever lets a
// client act sooner. Buckets unused for a while are dropped.
type Limiter struct {
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

// NewLimiter returns a limiter of n actions per period with bursts of n,
// or nil (no limit) when n is 0.
func NewLimiter(n int, per time.Duration) *Limiter {
	return NewRateLimiter(float64(n)/per.Seconds(), n)
}

// NewRateLimiter returns a limiter of perSecond with bursts of burst, or nil
// (no limit) when perSecond is 0.
func NewRateLimiter(perSecond float64, burst int) *Limiter {
	if perSecond <= 0 {
		return nil
	}
	return &Limiter{perSecond: rate.Limit(perSecond), burst: max(burst, 1), buckets: map[string]*bucket{}}
}

// Allow takes a token for key at now, or says how long until one is there.
// A nil Limiter allows everything.
func (l *Limiter) Allow(key string, now time.Time) (time.Duration, bool) {
	if l == nil {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > time.Minute {
		idle := max(10*time.Minute, time.Duration(float64(l.burst)/float64(l.perSecond)*float64(time.Second)))
		for k, b := range l.buckets {
			if now.Sub(b.seen) > idle {
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
		return d, false
	}
	return 0, true
}
