package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv/webenv"
	"chatsvc/web"
)

// BenchmarkDashboardInbox measures the inbox page over real HTTP with 50
// conversations in each status (the most it shows), half of them opened
// by the member, and reports its size. The same work runs after each write
// for every open dashboard's live stream, so it bounds how many of them a
// server keeps up with.
//
//	go test ./web -run '^$' -bench DashboardInbox -benchtime 200x
func BenchmarkDashboardInbox(b *testing.B) {
	ctx := context.Background()
	db, err := storage.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := app.New(db, app.Options{})
	site, err := svc.CreateSite(ctx, "Shop", "")
	if err != nil {
		b.Fatal(err)
	}
	m, err := svc.CreateMember(ctx, "agent@example.com", "Agent", webenv.DashPassword)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		c, _, err := svc.StartConversation(ctx, chat.Test, app.VisitorStart{SiteID: site.ID,
			VisitorID: "vis_" + strconv.Itoa(i), PageURL: "https://example.com/", Body: "Question " + strconv.Itoa(i)})
		if err != nil {
			b.Fatal(err)
		}
		switch i % 4 {
		case 1:
			_, err = svc.HandOff(ctx, chat.Test, c.ID, app.Handoff{})
		case 2:
			_, err = svc.HandOff(ctx, chat.Test, c.ID, app.Handoff{AssigneeID: app.Value(m.ID)})
		case 3:
			_, err = svc.Close(ctx, chat.Test, c.ID)
		}
		if err == nil && i%2 == 0 {
			err = svc.MarkConversationRead(ctx, m.ID, c)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	in, err := svc.SignIn(ctx, "agent@example.com", webenv.DashPassword)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(web.Handler(svc))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/app/", nil)
	req.AddCookie(&http.Cookie{Name: "chatsvc_session", Value: in.Token})
	var size int
	b.ResetTimer()
	for b.Loop() {
		res, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
		size = len(body)
	}
	b.ReportMetric(float64(size), "bytes/page")
}
