// Package app holds chatsvc's domain rules: validation, state transitions,
// and which events and e-mails each change produces. It speaks in domain
// types and *Error values, never in HTTP.
package app

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"

	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/storage"
)

// Service carries out every operation of the API, the widget and the CLI.
type Service struct {
	db      *storage.DB
	now     func() time.Time
	mu      sync.Mutex
	wakeups []wakeup // one per worker, signalled after commits that queue its work
	att     attachments
	changes changes // what each commit changed, for live updates (changes.go)
	tokens  tokenKeys
	// assistant answers visitors (assistant.go); visitors bounds them
	// (visitor_limits.go).
	assistant *assistantQueue
	visitors  visitorLimits
	hooks     WebhookOptions
	notify    NotifyOptions
	typing    typingMarks
	keys      keyCache // API keys already checked (keycache.go)
	authors   sync.Map // member id -> chat.Author, for agent messages

	passwordChecks slots // bounds concurrent sign-in checks (password_checks.go)
	searchSlots    slots // bounds concurrent desk searches (search.go)
	searches       searchCache
	searchSettled  atomic.Int64 // search segments when a merge last found none to merge (desk_search.go)
	hooksIdle      webhooksIdle // no webhook endpoint enabled, as last seen (webhook_idle.go)

	knowledge    *knowledgeWork // crawling and indexing; nil without Options.Knowledge
	synonyms     synonymCache   // the team's synonyms, for the assistant (synonyms.go)
	perSender    int            // inbound e-mails taken from one sender per hour
	ownAddress   string         // the address the service's e-mails come from, lower-case
	minFree      uint64         // Options.MinFreeBytes
	passwordCost int            // Options.PasswordCost
}

// Options tune a Service; zero values take defaults.
type Options struct {
	Now func() time.Time // the clock; tests pass a fake one

	// Attachments: the store files are fetched to (nil refuses them), and
	// the server's public root, which signed file URLs start with.
	Files     *files.Store
	PublicURL string
	// Assistant answers visitor messages; nil leaves them to the team.
	Assistant Responder
	// ReplyWait is how long a visitor's message waits for the assistant's
	// reply before it is answered without one (the reply then arrives live).
	// Zero means DefaultReplyWait; negative means not at all.
	ReplyWait time.Duration
	// Webhooks are the webhooks.* settings.
	Webhooks WebhookOptions
	// Notify are the notify.* settings.
	Notify NotifyOptions
	// Knowledge wires crawling and indexing in; nil: sources are stored and
	// listed but never synced.
	Knowledge *Knowledge
	// PasswordCheckWait is how long a sign-in waits for a free password
	// check; 0 means PasswordCheckWait.
	PasswordCheckWait time.Duration
	// PasswordCost is bcrypt's cost for new passwords; 0 means
	// bcrypt.DefaultCost. Tests lower it: they set hundreds of passwords
	// and measure no strength.
	PasswordCost int
	// InboundPerSender caps the e-mails taken in from one sender per hour;
	// 0 means DefaultInboundPerSender.
	InboundPerSender int
	// MailFrom is the From of the service's e-mails: inbound mail from
	// that address is the service's own and is dropped.
	MailFrom string
	// MinFreeBytes is the free disk space of the data folder below which the
	// service is not ready (Ping fails); 0 means DefaultMinFreeBytes.
	MinFreeBytes uint64
}

// DefaultMinFreeBytes is the least free space of the data folder the
// service reports ready with: below it writes are about to fail.
const DefaultMinFreeBytes = 64 << 20

// New returns a Service over db.
func New(db *storage.DB, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{db: db, now: o.Now, att: attachments{store: o.Files, publicURL: o.PublicURL},
		assistant: newAssistantQueue(o.Assistant, o.ReplyWait), visitors: newVisitorLimits(),
		hooks: o.Webhooks.withDefaults(), notify: o.Notify.withDefaults(), passwordChecks: newPasswordChecks(o.PasswordCheckWait), searchSlots: newSearchSlots(), knowledge: newKnowledge(o.Knowledge),
		perSender: cmp.Or(o.InboundPerSender, DefaultInboundPerSender), ownAddress: bareAddress(o.MailFrom),
		minFree: cmp.Or(o.MinFreeBytes, DefaultMinFreeBytes), passwordCost: cmp.Or(o.PasswordCost, bcrypt.DefaultCost)}
}

// wakeup is a worker's signal and the kinds of work it does.
type wakeup struct {
	kinds storage.Queue
	c     chan struct{}
}

// Wakeup returns a channel signalled (without blocking, at most one signal
// pending) after every committed write that queued work of the given kinds,
// so a worker can pick it up at once instead of at its next tick.
func (s *Service) Wakeup(kinds storage.Queue) <-chan struct{} {
	c := make(chan struct{}, 1)
	s.WakeOn(kinds, c)
	return c
}

// WakeOn is Wakeup for a channel of the caller's, which may have other
// senders too.
func (s *Service) WakeOn(kinds storage.Queue, c chan struct{}) {
	s.mu.Lock()
	s.wakeups = append(s.wakeups, wakeup{kinds, c})
	s.mu.Unlock()
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

func (s *Service) stamp() chat.Timestamp { return chat.At(s.now()) }

// writeResult runs fn in a write transaction, wakes the workers of the work
// it queued, and returns fn's result. fn may run more than once (see
// storage.Write): it returns what it made instead of setting the caller's
// variables.
func writeResult[T any](ctx context.Context, s *Service, fn func(*storage.Q) (T, error)) (T, error) {
	done, err := storage.Write(ctx, s.db, fn)
	if err != nil {
		var zero T
		return zero, err
	}
	s.changes.signal(done.Effects.Changed)
	s.wake(done.Effects.Queued)
	return done.Result, nil
}

// writeNamed is writeResult for an operation that leaves the package: an
// unexpected error names op (see named).
func writeNamed[T any](ctx context.Context, s *Service, op string, fn func(*storage.Q) (T, error)) (T, error) {
	v, err := writeResult(ctx, s, fn)
	return v, named(err, op)
}

// writeNamed is write for an operation that leaves the package: an
// unexpected error names op (see named).
func (s *Service) writeNamed(ctx context.Context, op string, fn func(*storage.Q) error) error {
	return named(s.write(ctx, fn), op)
}

// write is writeResult for a fn with no result.
func (s *Service) write(ctx context.Context, fn func(*storage.Q) error) error {
	_, err := writeResult(ctx, s, func(q *storage.Q) (struct{}, error) { return struct{}{}, fn(q) })
	return err
}

// wake signals the workers of the given kinds of work.
func (s *Service) wake(kinds storage.Queue) {
	if kinds == 0 {
		return
	}
	s.mu.Lock()
	for _, w := range s.wakeups {
		if w.kinds&kinds != 0 {
			select {
			case w.c <- struct{}{}:
			default:
			}
		}
	}
	s.mu.Unlock()
}

// emit records an event about obj in the caller's transaction, and does
// nothing else: what a change calls for besides (alerts, pushes, e-mails)
// its caller calls by name.
func (s *Service) emit(ctx context.Context, q *storage.Q, mode chat.Mode, typ, objectID string, obj any, at chat.Timestamp) error {
	_, err := s.emitSeq(ctx, q, mode, typ, objectID, obj, at)
	return err
}

// emitSeq is emit that returns the event's seq, for a row of the same write
// that shows obj as the event holds it (an e-mail's ticket).
func (s *Service) emitSeq(ctx context.Context, q *storage.Q, mode chat.Mode, typ, objectID string, obj any, at chat.Timestamp) (int64, error) {
	data, err := marshal(obj) // as the API writes it, so webhooks carry the same bytes
	if err != nil {
		return 0, err
	}
	ev := &chat.Event{ID: NewID(PrefixEvent), Mode: mode, Type: typ, ObjectID: objectID, Data: data, CreatedAt: at}
	if err := q.InsertEvent(ctx, ev); err != nil {
		return 0, named(err, "record "+typ+" of "+objectID)
	}
	return ev.Seq, nil
}

// List is the API's list envelope.
type List[T any] struct {
	Object     string  `json:"object"`
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// Collect pages through a list from the start and returns up to max of
// its items, for screens that show a whole list at once.
func Collect[T any](max int, page func(ListParams) (List[T], error)) ([]T, error) {
	var all []T
	lp := ListParams{Limit: strconv.Itoa(MaxLimit)}
	for {
		l, err := page(lp)
		if err != nil {
			return nil, err
		}
		all = append(all, l.Data...)
		if !l.HasMore || len(all) >= max {
			return all, nil
		}
		lp.Cursor = *l.NextCursor
	}
}

// ListParams are the pagination parameters of every list, as received.
type ListParams struct {
	Limit  string
	Cursor string
}

// Pagination limits (docs/api.md, Limits).
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// page validates the parameters and returns the storage page, asking for
// one row more than the limit so has_more can be told without a count.
func (p ListParams) page() (storage.Page, error) {
	limit := DefaultLimit
	if p.Limit != "" {
		n, err := strconv.Atoi(p.Limit)
		if err != nil || n < 1 || n > MaxLimit {
			return storage.Page{}, invalid("limit", "limit must be an integer from 1 to %d (got '%s').", MaxLimit, p.Limit)
		}
		limit = n
	}
	pg := storage.Page{Limit: limit + 1}
	if p.Cursor != "" {
		c, err := decodeCursor(p.Cursor)
		if err != nil {
			return storage.Page{}, invalid("cursor", "cursor is not a next_cursor this API returned.")
		}
		pg.After = c
	}
	return pg, nil
}

// makeList cuts rows (fetched with page()) to the limit and fills the envelope.
func makeList[T any](rows []T, pg storage.Page, key func(T) chat.Cursor) List[T] {
	l := List[T]{Object: "list", Data: rows}
	if l.Data == nil {
		l.Data = []T{}
	}
	if limit := pg.Limit - 1; len(rows) > limit {
		l.Data = rows[:limit]
		l.HasMore = true
		c := encodeCursor(key(rows[limit-1]))
		l.NextCursor = &c
	}
	return l
}

// Cursors are opaque to clients: base64url of "<sort key>.<id>".
func encodeCursor(c chat.Cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.Key, 10) + "." + c.ID))
}

func decodeCursor(s string) (*chat.Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	key, id, ok := strings.Cut(string(b), ".")
	if !ok || id == "" {
		return nil, errors.New("malformed cursor")
	}
	n, err := strconv.ParseInt(key, 10, 64)
	if err != nil {
		return nil, err
	}
	return &chat.Cursor{Key: n, ID: id}, nil
}

// Deleted is the API's deleted envelope, returned by deletions.
type Deleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// member checks that a body parameter names an existing team member.
func member(ctx context.Context, q *storage.Q, param, id string) error {
	if _, err := q.Member(ctx, id); err != nil {
		return found(err, noSuchRef(param, "team member", id))
	}
	return nil
}
