package push_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/push"
	"chatsvc/testenv"
	"chatsvc/testenv/apienv"
)

// pushService stands in for a browser's push service: it keeps what it is
// sent, and answers with status.
type pushService struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []*http.Request
	bodies [][]byte
	status int
}

func newPushService(t *testing.T) *pushService {
	p := &pushService{status: http.StatusCreated}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		p.mu.Lock()
		p.got, p.bodies = append(p.got, r), append(p.bodies, b)
		status := p.status
		p.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// checkVAPID checks the request is signed by the server's VAPID key for the
// push service's origin (RFC 8292).
func checkVAPID(t *testing.T, r *http.Request, keys app.VAPIDKeys, origin string) {
	t.Helper()
	auth := r.Header.Get("Authorization")
	token, key, ok := strings.Cut(strings.TrimPrefix(auth, "vapid t="), ", k=")
	if !ok || key != keys.Public {
		t.Fatalf("Authorization %q does not carry the server's public key", auth)
	}
	parts := strings.Split(token, ".")
	claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var c struct{ Aud, Sub string }
	if err := json.Unmarshal(claims, &c); err != nil || c.Aud != origin || c.Sub == "" {
		t.Fatalf("claims %s, want aud %s and a sub", claims, origin)
	}
	pub, _ := base64.RawURLEncoding.DecodeString(keys.Public)
	x, y := elliptic.Unmarshal(elliptic.P256(), pub) //nolint:staticcheck // the key is an uncompressed point
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(&ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}, digest[:],
		new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("the VAPID token is not signed by the server's key")
	}
}

type env struct {
	t      *testing.T
	ctx    context.Context
	svc    *app.Service
	sender *push.Sender
	ps     *pushService
}

func newEnv(t *testing.T) *env {
	svc := apienv.NewService(t, apienv.Options{App: func(_ string, o *app.Options) {
		o.PublicURL, o.Notify = "https://chat.shop.example", app.NotifyOptions{AllowHTTP: true}
	}}).Svc
	return &env{t: t, ctx: context.Background(), svc: svc, ps: newPushService(t),
		sender: push.New(svc, push.Options{Subscriber: "ops@shop.example", AllowPrivate: true})}
}

func (e *env) member(email string) *chat.Member {
	m, err := e.svc.CreateMember(e.ctx, email, "A", "correct horse battery")
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

// subscribe subscribes a new browser of member m at a path of the push service.
func (e *env) subscribe(m *chat.Member, path string) testenv.PushBrowser {
	b := testenv.NewPushBrowser(e.t)
	var in app.PushSubscriptionInput
	in.Endpoint = e.ps.srv.URL + path
	in.Keys.P256DH, in.Keys.Auth = b.Keys()
	if err := e.svc.SubscribePush(e.ctx, m.ID, in); err != nil {
		e.t.Fatal(err)
	}
	return b
}

// run runs the notify worker, then the push worker, once each.
func (e *env) run() {
	e.t.Helper()
	if _, err := e.svc.NotifyStep(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.sender.Step(e.ctx); err != nil {
		e.t.Fatal(err)
	}
}

// received returns what the push service got at path, decrypted by b.
func (e *env) received(b testenv.PushBrowser, path string) []map[string]string {
	e.t.Helper()
	e.ps.mu.Lock()
	defer e.ps.mu.Unlock()
	var out []map[string]string
	for i, r := range e.ps.got {
		if r.URL.Path != path {
			continue
		}
		var note map[string]string
		if err := json.Unmarshal(b.Decrypt(e.t, e.ps.bodies[i]), &note); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, note)
	}
	return out
}

// TestPushesReachTheTeam checks that a new waiting conversation is pushed
// to every member's browser and a visitor's message in an assigned
// conversation to the assignee's alone, encrypted for each subscription
// and signed with the server's VAPID key.
func TestPushesReachTheTeam(t *testing.T) {
	e := newEnv(t)
	ana, bo := e.member("ana@shop.example"), e.member("bo@shop.example")
	anaB, boB := e.subscribe(ana, "/ana"), e.subscribe(bo, "/bo")

	site, err := e.svc.CreateSite(e.ctx, "Acme Shop", "")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := e.svc.StartSession(e.ctx, app.SessionStart{SiteID: app.Value(site.ID), PageURL: app.Value("https://shop.example/")})
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.svc.Visit(e.ctx, sess.VisitorToken, app.Origin{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PostVisitorMessage(e.ctx, v, app.VisitorMessage{Body: app.Value("Do you ship to Canada?")}); err != nil {
		t.Fatal(err)
	}
	c, err := e.svc.VisitorHandOff(e.ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	e.run()
	for name, b := range map[string]testenv.PushBrowser{"/ana": anaB, "/bo": boB} {
		got := e.received(b, name)
		if len(got) != 1 || got[0]["title"] != "A visitor is waiting" || got[0]["conversation_id"] != c.ID ||
			got[0]["url"] != "https://chat.shop.example/app/conversations/"+c.ID+"?mode=live" {
			t.Fatalf("%s received %v, want one waiting alert", name, got)
		}
	}
	keys, err := e.svc.EnsureVAPIDKeys(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkVAPID(t, e.ps.got[0], keys, e.ps.srv.URL)
	if ttl := e.ps.got[0].Header.Get("TTL"); ttl == "" || ttl == "0" {
		t.Errorf("TTL %q", ttl)
	}

	if _, err := e.svc.UpdateConversation(e.ctx, chat.Live, c.ID, app.ConversationUpdate{AssigneeID: app.Value(bo.ID)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.PostVisitorMessage(e.ctx, v, app.VisitorMessage{Body: app.Value("Also to Alaska?")}); err != nil {
		t.Fatal(err)
	}
	e.run()
	if got := e.received(boB, "/bo"); len(got) != 2 || got[1]["body"] != "Also to Alaska?" {
		t.Fatalf("the assignee received %v, want the visitor's message", got)
	}
	if got := e.received(anaB, "/ana"); len(got) != 1 {
		t.Fatalf("another member received %d pushes, want only the waiting alert", len(got))
	}
}

// TestGoneSubscriptionIsForgotten checks that a subscription the push
// service no longer knows (410) gets nothing more and leaves no push queued.
func TestGoneSubscriptionIsForgotten(t *testing.T) {
	e := newEnv(t)
	ana := e.member("ana@shop.example")
	e.subscribe(ana, "/ana")
	site, _ := e.svc.CreateSite(e.ctx, "Acme Shop", "")
	for i, status := range []int{http.StatusGone, http.StatusCreated} {
		e.ps.mu.Lock()
		e.ps.status = status
		e.ps.mu.Unlock()
		sess, err := e.svc.StartSession(e.ctx, app.SessionStart{SiteID: app.Value(site.ID), PageURL: app.Value("https://shop.example/")})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := e.svc.Visit(e.ctx, sess.VisitorToken, app.Origin{})
		if _, err := e.svc.PostVisitorMessage(e.ctx, v, app.VisitorMessage{Body: app.Value("Hello")}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.VisitorHandOff(e.ctx, v); err != nil {
			t.Fatal(err)
		}
		e.run()
		e.ps.mu.Lock()
		n := len(e.ps.got)
		e.ps.mu.Unlock()
		if n != 1 {
			t.Fatalf("round %d: the push service got %d pushes, want the first only", i+1, n)
		}
	}
	due, err := e.svc.DuePushes(e.ctx, 10)
	if err != nil || len(due) != 0 {
		t.Fatalf("%d pushes still queued (%v)", len(due), err)
	}
}
