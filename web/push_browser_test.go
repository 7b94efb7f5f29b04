package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"chatsvc/app"
	"chatsvc/push"
	"chatsvc/testenv"
	"chatsvc/web"
)

// TestBrowserPushNotification drives browser notifications end to end: the
// dashboard registers its service worker, the page stores a subscription
// whose endpoint is a local push service standing in for the browser's,
// a visitor starts waiting, the server's push reaches that service
// encrypted, and the decrypted push, handed to the service worker as the
// push service would, shows a notification. Headless Chromium has no push
// service of its own, so the subscription's keys are the test's.
func TestBrowserPushNotification(t *testing.T) {
	ctx := context.Background()
	db := testenv.OpenDB(t, t.TempDir())
	svc := app.New(db, app.Options{Now: time.Now, PublicURL: "https://chat.shop.example",
		Notify: app.NotifyOptions{AllowHTTP: true}})
	srv := httptest.NewServer(web.Handler(svc))
	defer srv.Close()
	pushed := make(chan []byte, 8) // what the push service was sent
	pushService := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		pushed <- b
		w.WriteHeader(http.StatusCreated)
	}))
	defer pushService.Close()
	sender := push.New(svc, push.Options{Subscriber: "ops@shop.example", AllowPrivate: true})
	if _, err := svc.CreateMember(ctx, "agent@example.com", "Agent Smith", dashPassword); err != nil {
		t.Fatal(err)
	}

	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, browserOptions(t)...)
	defer cancelAlloc()
	tab, cancel := chromedp.NewContext(actx)
	defer cancel()
	tab, cancelTimeout := context.WithTimeout(tab, 60*time.Second)
	defer cancelTimeout()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("signing in", chromedp.Do(tab,
		chromedp.Navigate(srv.URL+"/app/"),
		chromedp.WaitVisible(chromedp.ID("email")),
		chromedp.SendKeys(chromedp.ID("email"), "agent@example.com"),
		chromedp.SendKeys(chromedp.ID("password"), dashPassword),
		chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.ID("push-toggle")),
	))

	// The service worker is registered over the whole dashboard.
	scope, err := chromedp.Run(tab, chromedp.Evaluate[string](`navigator.serviceWorker.ready.then(r => r.scope)`,
		chromedp.EvalAwaitPromise))
	must("service worker", err)
	if scope != srv.URL+"/app/" {
		t.Fatalf("service worker scope %q", scope)
	}
	reg, err := chromedp.Run(tab, chromedp.WaitEvent(serviceworker.WorkerRegistrationUpdated,
		func(e serviceworker.EventWorkerRegistrationUpdated) bool {
			return len(e.Registrations) > 0 && e.Registrations[0].ScopeURL == scope && !e.Registrations[0].IsDeleted
		},
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, serviceworker.Enable, cdp.Empty{})
			return err
		})))
	must("service worker registration", err)

	// The page stores the subscription as its script does after subscribing.
	b := testenv.NewPushBrowser(t)
	p256dh, auth := b.Keys()
	status, err := chromedp.Run(tab, chromedp.Evaluate[int](`fetch("/app/push/subscriptions", {method: "POST",
		headers: {"X-CSRF-Token": document.querySelector('input[name="csrf"]').value},
		body: new URLSearchParams({endpoint: "`+pushService.URL+`/sub/1", p256dh: "`+p256dh+`", auth: "`+auth+`"})})
		.then(r => r.status)`, chromedp.EvalAwaitPromise))
	must("subscribing", err)
	if status != http.StatusNoContent {
		t.Fatalf("subscription: status %d", status)
	}

	// A visitor asks for a person; the workers queue and send the push.
	site, err := svc.CreateSite(ctx, "Shop", "")
	must("site", err)
	sess, err := svc.StartSession(ctx, app.SessionStart{SiteID: app.Value(site.ID), PageURL: app.Value("https://shop.example/")})
	must("session", err)
	v, err := svc.Visit(ctx, sess.VisitorToken, app.Origin{})
	must("visit", err)
	_, err = svc.PostVisitorMessage(ctx, v, app.VisitorMessage{Body: app.Value("Where is my parcel?")})
	must("visitor message", err)
	c, err := svc.VisitorHandOff(ctx, v)
	must("hand-off", err)
	_, err = svc.NotifyStep(ctx)
	must("notify", err)
	_, err = sender.Step(ctx)
	must("push", err)
	if len(pushed) != 1 {
		t.Fatalf("the push service got %d pushes, want 1", len(pushed))
	}
	payload := b.Decrypt(t, <-pushed)
	var note map[string]string
	if err := json.Unmarshal(payload, &note); err != nil || note["conversation_id"] != c.ID {
		t.Fatalf("push %s (%v), want the waiting conversation", payload, err)
	}

	// The service worker shows it.
	must("allowing notifications", chromedp.Do(tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted,
			Origin: srv.URL})
		return err
	})))
	// The first delivery can reach a worker Chromium is still starting, and
	// be dropped; a notification has one tag per conversation, so delivering
	// again, as a push service retries, never shows two.
	deliver := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
			Origin: srv.URL, RegistrationID: reg.Registrations[0].RegistrationID, Data: string(payload)})
		return err
	})
	var shown string
	for try := 0; try < 5 && shown == ""; try++ {
		must("delivering the push", chromedp.Do(tab, deliver))
		shown, err = chromedp.Run(tab, chromedp.Evaluate[string](`(async () => {
			const reg = await navigator.serviceWorker.ready;
			for (let i = 0; i < 60; i++) {
				const n = await reg.getNotifications();
				if (n.length > 0) return n.length + " | " + n[0].title + " | " + n[0].body;
				await new Promise(r => setTimeout(r, 50));
			}
			return "";
		})()`, chromedp.EvalAwaitPromise))
		must("notifications", err)
	}
	if want := "1 | A visitor is waiting | Where is my parcel?"; shown != want {
		t.Fatalf("notification shown: %q", shown)
	}
	screenshot(t, tab, "dashboard-push.png")
}
