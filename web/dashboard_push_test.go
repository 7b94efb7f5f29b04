package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
)

// pushP256DH is a browser's subscription key (a P-256 point), not a secret.
const pushP256DH = "BOuzfadF7hiXr256qeLYAZ5eK1o8Hka6ywIplasijWC0dqj0A6AfNhC8f0KGCeoP901Sdm25uOLjFiiWm7dRkUU"

// pushForm is what the dashboard's script posts for a subscription.
func pushForm(endpoint string) url.Values {
	return url.Values{"endpoint": {endpoint}, "p256dh": {pushP256DH}, "auth": {"c2VjcmV0LWF1dGgtMTIzNA"}}
}

// TestDashboardPushSubscription checks the routes the dashboard subscribes
// a browser with: the server's key, a subscription with every field checked
// exactly, and unsubscribing, which forgets it.
func TestDashboardPushSubscription(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)

	var key struct {
		PublicKey string `json:"public_key"`
	}
	if err := json.Unmarshal([]byte(d.get("/app/push/key").must(t, http.StatusOK)), &key); err != nil || len(key.PublicKey) != 87 {
		t.Fatalf("public key %q (%v), want 65 bytes in base64url", key.PublicKey, err)
	}
	if again := d.get("/app/push/key").must(t, http.StatusOK); !strings.Contains(again, key.PublicKey) {
		t.Fatal("the key changed between two requests: it must be kept")
	}

	bad := map[string]url.Values{
		"endpoint":    {"endpoint": {"http://push.example/x"}},
		"keys.p256dh": {"p256dh": {"BAAA"}},
		"keys.auth":   {"auth": {"c2hvcnQ"}},
	}
	for param, change := range bad {
		form := pushForm("https://push.example/send/1")
		for k, v := range change {
			form[k] = v
		}
		if body := d.post("/app/push/subscriptions", form).must(t, http.StatusBadRequest); !strings.Contains(body, param) {
			t.Errorf("a bad %s: the error does not name it:\n%.500s", param, body)
		}
	}
	long := "https://push.example/" + strings.Repeat("a", 2048)
	d.post("/app/push/subscriptions", pushForm(long)).must(t, http.StatusBadRequest)
	d.post("/app/push/subscriptions", url.Values{"p256dh": {pushP256DH}}).must(t, http.StatusBadRequest)

	d.post("/app/push/subscriptions", pushForm("https://push.example/send/1")).must(t, http.StatusNoContent)
	d.post("/app/push/subscriptions", pushForm("https://push.example/send/1")).must(t, http.StatusNoContent) // again: one subscription
	if n := pushSubscriptions(e, t); n != 1 {
		t.Fatalf("%d subscriptions stored, want 1", n)
	}
	d.post("/app/push/unsubscribe", url.Values{"endpoint": {"https://push.example/send/1"}}).must(t, http.StatusNoContent)
	d.post("/app/push/unsubscribe", url.Values{"endpoint": {"https://push.example/send/1"}}).must(t, http.StatusNoContent)
	if n := pushSubscriptions(e, t); n != 0 {
		t.Fatalf("%d subscriptions left after unsubscribing", n)
	}
}

// TestServiceWorkerIsServed checks the service worker is served from /app/,
// so that its scope is the dashboard, as JavaScript and without a session.
func TestServiceWorkerIsServed(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	r := newDash(t, dashServer(t, e)).get("/app/sw.js")
	body := r.must(t, http.StatusOK)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") || !strings.Contains(body, `addEventListener("push"`) {
		t.Fatalf("Content-Type %q, body:\n%.300s", ct, body)
	}
}

// pushSubscriptions counts the stored subscriptions through the push
// queue's own reader: every member's, as a waiting conversation would use.
func pushSubscriptions(e *webenv.Env, t *testing.T) int {
	t.Helper()
	n, err := e.Svc.PushSubscriptionCount(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// One member keeps at most app.MaxPushSubscriptions browsers: a new one
// beyond that replaces the member's oldest, so a script subscribing in a
// loop cannot grow the table or the pushes each event queues.
func TestPushSubscriptionsPerMemberAreBounded(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	for i := range app.MaxPushSubscriptions + 5 {
		d.post("/app/push/subscriptions", pushForm("https://push.example/send/"+strconv.Itoa(i))).must(t, http.StatusNoContent)
	}
	if n := pushSubscriptions(e, t); n != app.MaxPushSubscriptions {
		t.Fatalf("%d subscriptions stored, want %d", n, app.MaxPushSubscriptions)
	}
}
