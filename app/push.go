package app

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Id prefixes of Web Push subscriptions and of queued pushes.
const (
	PrefixPushSubscription = "psub_"
	PrefixPush             = "push_"
)

// vapidKey is the setting holding the server's VAPID key pair.
const vapidKey = "push.vapid"

// VAPIDKeys is the key pair the server signs its pushes with (RFC 8292),
// both halves in unpadded base64url: Public is the uncompressed P-256
// point browsers subscribe with, Private its 32-byte scalar.
type VAPIDKeys struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// EnsureVAPIDKeys returns the server's VAPID keys, making them on the first
// call and keeping them in the database: a new pair would orphan every
// subscription made with the old one.
func (s *Service) EnsureVAPIDKeys(ctx context.Context) (VAPIDKeys, error) {
	var keys VAPIDKeys
	if v, err := s.db.Read().Setting(ctx, vapidKey); err == nil {
		return keys, json.Unmarshal([]byte(v), &keys)
	} else if !isNotFound(err) {
		return keys, err
	}
	fresh, err := newVAPIDKeys()
	if err != nil {
		return keys, err
	}
	v, err := writeResult(ctx, s, func(q *storage.Q) (string, error) {
		return q.EnsureSetting(ctx, vapidKey, fresh) // the first writer wins
	})
	if err != nil {
		return keys, err
	}
	return keys, json.Unmarshal([]byte(v), &keys)
}

func newVAPIDKeys() (string, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(VAPIDKeys{Public: b64(k.PublicKey().Bytes()), Private: b64(k.Bytes())})
	return string(b), err
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// PushSubscriptionInput is what a browser's PushSubscription.toJSON() holds.
type PushSubscriptionInput struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256DH string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// maxPushEndpoint bounds a push endpoint URL.
const maxPushEndpoint = 2048

// MaxPushSubscriptions is how many browsers one member receives pushes on;
// subscribing one more forgets the member's oldest.
const MaxPushSubscriptions = 10

// SubscribePush stores where member's browser receives pushes. An endpoint
// must be https (http too with NotifyOptions.AllowHTTP, for local testing),
// and the keys a P-256 public key and a 16-byte secret, as RFC 8291 needs.
func (s *Service) SubscribePush(ctx context.Context, memberID string, in PushSubscriptionInput) error {
	if err := checkPushSubscription(in, s.notify.AllowHTTP); err != nil {
		return err
	}
	sub := &storage.PushSubscription{ID: NewID(PrefixPushSubscription), MemberID: memberID, Endpoint: in.Endpoint,
		P256DH: in.Keys.P256DH, Auth: in.Keys.Auth, CreatedAt: s.stamp()}
	return s.writeNamed(ctx, "subscribe member "+memberID+" to pushes", func(q *storage.Q) error {
		if _, err := q.SavePushSubscription(ctx, sub); err != nil {
			return err
		}
		return q.KeepNewestPushSubscriptions(ctx, memberID, MaxPushSubscriptions)
	})
}

func checkPushSubscription(in PushSubscriptionInput, allowHTTP bool) error {
	if in.Endpoint == "" {
		return missing("endpoint")
	}
	u, err := url.Parse(in.Endpoint)
	okScheme := u != nil && (u.Scheme == "https" || (allowHTTP && u.Scheme == "http"))
	if err != nil || !okScheme || u.Host == "" || len(in.Endpoint) > maxPushEndpoint {
		return invalid("endpoint", "The endpoint must be an https URL of at most %d characters.", maxPushEndpoint)
	}
	if in.Keys.P256DH == "" {
		return missing("keys.p256dh")
	}
	if b, err := decodeB64(in.Keys.P256DH); err != nil || !validP256(b) {
		return invalid("keys.p256dh", "keys.p256dh must be an uncompressed P-256 public key in base64url.")
	}
	if in.Keys.Auth == "" {
		return missing("keys.auth")
	}
	if b, err := decodeB64(in.Keys.Auth); err != nil || len(b) != 16 {
		return invalid("keys.auth", "keys.auth must be 16 bytes in base64url.")
	}
	return nil
}

// decodeB64 reads base64url with or without padding, as browsers vary.
func decodeB64(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

func validP256(b []byte) bool {
	_, err := ecdh.P256().NewPublicKey(b)
	return err == nil
}

// UnsubscribePush forgets member's subscription at endpoint and the pushes
// queued for it; it is not an error when there was none.
func (s *Service) UnsubscribePush(ctx context.Context, memberID, endpoint string) error {
	if endpoint == "" {
		return missing("endpoint")
	}
	return s.writeNamed(ctx, "unsubscribe member "+memberID+" from pushes", func(q *storage.Q) error {
		if err := q.DeletePushSubscription(ctx, memberID, endpoint); err != nil && !isNotFound(err) {
			return err
		}
		return nil
	})
}

// pushNote is the payload of a push, which the service worker shows.
type pushNote struct {
	Title          string `json:"title"`
	Body           string `json:"body"`
	ConversationID string `json:"conversation_id"`
	URL            string `json:"url"`
}

// queuePushes owes note to every subscription of the given members (of all
// members when nil), in the caller's transaction.
func (s *Service) queuePushes(ctx context.Context, q *storage.Q, mode chat.Mode, memberIDs []string, note pushNote) error {
	subs, err := q.PushSubscriptionsOf(ctx, memberIDs)
	if err != nil || len(subs) == 0 {
		return err
	}
	note.URL = s.conversationURL(mode, note.ConversationID)
	payload, err := json.Marshal(note)
	if err != nil {
		return err
	}
	now := s.stamp()
	for _, sub := range subs {
		if err := q.QueuePush(ctx, NewID(PrefixPush), sub.ID, string(payload), now); err != nil {
			return err
		}
	}
	return nil
}

// DuePushes returns up to limit pushes due now, with their subscription.
func (s *Service) DuePushes(ctx context.Context, limit int) ([]*storage.Push, error) {
	return s.db.Read().DuePushes(ctx, s.stamp(), limit)
}

// PushOutcome is what became of one attempt to send a push.
type PushOutcome int

// The outcomes of a push attempt.
const (
	PushDelivered PushOutcome = iota // the push service took it
	PushFailed                       // try again by pushRetry
	PushRefused                      // the push service will never take it
	PushGone                         // the subscription expired: forget it
)

// RecordPushAttempt stores the outcome of one attempt to send p at `at`.
func (s *Service) RecordPushAttempt(ctx context.Context, p *storage.Push, at time.Time, o PushOutcome) error {
	return s.write(ctx, func(q *storage.Q) error {
		switch o {
		case PushGone:
			return q.DropPushSubscription(ctx, p.Subscription.ID)
		case PushFailed:
			if next, ok := pushRetry.Next(p.Attempts+1, p.CreatedAt.Time(), at); ok {
				return q.PushRetry(ctx, p.ID, p.Attempts+1, chat.At(next))
			}
		}
		return q.PushDone(ctx, p.ID)
	})
}

// PushSubscriptionCount counts the browsers subscribed, for the health of
// the feature and for tests.
func (s *Service) PushSubscriptionCount(ctx context.Context) (int, error) {
	subs, err := s.db.Read().PushSubscriptionsOf(ctx, nil)
	return len(subs), err
}
