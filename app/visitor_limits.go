package app

import (
	"sync"
	"time"
)

// VisitorMessagesPerMinute bounds how fast one visitor can write: the
// widget API is public, and every message may cost an assistant reply.
const VisitorMessagesPerMinute = 30

// visitorLimits counts each visitor's messages in fixed one-minute
// windows. It lives in memory: a restart forgets the counts, which only
// ever lets a visitor write sooner.
type visitorLimits struct {
	mu      sync.Mutex
	windows map[string]*window
	pruned  time.Time // when ended windows were last forgotten
}

type window struct {
	start time.Time
	n     int
}

// allow counts one message of a visitor at now, or says how long to wait.
func (l *visitorLimits) allow(visitorID string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.windows == nil {
		l.windows = map[string]*window{}
	}
	// Forget ended windows now and then: at most once a minute, so that
	// many visitors writing at once do not make every message scan them all.
	if len(l.windows) > 10000 && now.Sub(l.pruned) >= time.Minute {
		l.pruned = now
		for id, w := range l.windows {
			if now.Sub(w.start) >= time.Minute {
				delete(l.windows, id)
			}
		}
	}
	w := l.windows[visitorID]
	if w == nil || now.Sub(w.start) >= time.Minute {
		w = &window{start: now}
		l.windows[visitorID] = w
	}
	if w.n >= VisitorMessagesPerMinute {
		return w.start.Add(time.Minute).Sub(now), false
	}
	w.n++
	return 0, true
}

// CodeRateLimited is the code of a request refused for coming too fast.
const CodeRateLimited = "rate_limited"

func (s *Service) checkVisitorRate(v *Visit) error {
	wait, ok := s.widget.limits.allow(v.Visitor.ID, s.now())
	if ok {
		return nil
	}
	return &Error{Kind: RateLimited, Code: CodeRateLimited, RetryAfter: wait,
		Message: "Too many messages; please wait a moment before writing again."}
}
