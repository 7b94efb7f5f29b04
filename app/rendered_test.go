package app

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"chatsvc/chat"
)

// BenchmarkConversationRendered compares, in one run, a conversation read
// by id answered from memory with the read and rendering it replaces.
//
//	go test ./app -run '^$' -bench ConversationRendered
func BenchmarkConversationRendered(b *testing.B) {
	ctx := context.Background()
	svc, _ := newTestService(b)
	site, err := svc.CreateSite(ctx, "Site", "")
	if err != nil {
		b.Fatal(err)
	}
	conv, _, err := svc.StartConversation(ctx, chat.Test, VisitorStart{SiteID: site.ID, VisitorID: "vis_1", Body: "Hello"})
	if err != nil {
		b.Fatal(err)
	}
	render := func(v any) ([]byte, error) { return json.Marshal(v) }
	var kept, read time.Duration
	for b.Loop() {
		t := time.Now()
		if _, err := svc.ConversationRendered(ctx, chat.Test, conv.ID, render); err != nil {
			b.Fatal(err)
		}
		kept += time.Since(t)
		t = time.Now()
		c, err := svc.Conversation(ctx, chat.Test, conv.ID)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := render(c); err != nil {
			b.Fatal(err)
		}
		read += time.Since(t)
	}
	b.ReportMetric(float64(kept.Nanoseconds())/float64(b.N), "kept_ns/op")
	b.ReportMetric(float64(read.Nanoseconds())/float64(b.N), "read_ns/op")
	b.ReportMetric(float64(read)/float64(kept), "speedup")
}
