package app

import (
	"sync"
	"time"
)

// Limits on what one visitor can do through the public widget API.
const (
	// VisitorMessagesPerMinute bounds how fast one visitor can write: every
	// message may cost an assistant reply.
	VisitorMessagesPerMinute = 30
	// VisitorTicketsPerHour bounds the tickets one visitor can open: each
	// one e-mails its address.
	VisitorTicketsPerHour = 3
	// VisitorRatingsPerHour bounds how often one visitor rates (or rates
	// again): each rating is an event every webhook endpoint receives.
	VisitorRatingsPerHour = 5
	// VisitorUploadsPerHour bounds the files one visitor can upload: each
	// one takes disk space until it is sent or pruned.
	VisitorUploadsPerHour = 20
)

func (s *Service) checkVisitorRate(v *Visit) error {
	return s.visitorAllowed(s.visitors.messages, v, "Too many messages; please wait a moment before writing again.")
}

func (s *Service) checkVisitorTicketRate(v *Visit) error {
	return s.visitorAllowed(s.visitors.tickets, v, "Too many requests from this visitor; please try again later.")
}

// visitorAllowed takes one of the visitor's tokens of l, or says how long
// to wait in a RateLimited error with message.
func (s *Service) visitorAllowed(l *Limiter, v *Visit, message string) error {
	if wait, ok := l.Allow(v.Visitor.ID, s.now()); !ok {
		return &Error{Kind: RateLimited, Code: CodeRateLimited, RetryAfter: wait, Message: message}
	}
	return nil
}

// visitorLimits bound what one visitor can do through the public widget API.
type visitorLimits struct {
	messages *Limiter    // VisitorMessagesPerMinute
	tickets  *Limiter    // VisitorTicketsPerHour
	ratings  *Limiter    // VisitorRatingsPerHour
	uploads  *Limiter    // VisitorUploadsPerHour
	streams  streamSlots // VisitorStreamsMax
}

func newVisitorLimits() visitorLimits {
	return visitorLimits{messages: NewLimiter(VisitorMessagesPerMinute, time.Minute),
		tickets: NewLimiter(VisitorTicketsPerHour, time.Hour), ratings: NewLimiter(VisitorRatingsPerHour, time.Hour),
		uploads: NewLimiter(VisitorUploadsPerHour, time.Hour)}
}

// VisitorStreamsMax bounds the event streams one visitor holds open at
// once: enough for a few tabs, not a flood of held connections.
const VisitorStreamsMax = 5

// streamSlots counts each visitor's open event streams.
type streamSlots struct {
	mu   sync.Mutex
	open map[string]int
}

// HoldVisitorStream takes one of the visitor's event stream slots; release
// gives it back when the stream ends. With every slot taken it is a
// RateLimited error.
func (s *Service) HoldVisitorStream(v *Visit) (release func(), err error) {
	l := &s.visitors.streams
	id := v.Visitor.ID
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open == nil {
		l.open = map[string]int{}
	}
	if l.open[id] >= VisitorStreamsMax {
		return nil, &Error{Kind: RateLimited, Code: CodeRateLimited, RetryAfter: 5 * time.Second,
			Message: "This visitor has too many event streams open; close one before opening another."}
	}
	l.open[id]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.open[id]--; l.open[id] <= 0 {
			delete(l.open, id)
		}
	}, nil
}
