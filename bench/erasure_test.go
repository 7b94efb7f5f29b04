package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// BenchmarkErasure reports how long DELETE /contacts/{id} holds the one
// writer for a contact with 20 conversations of 50 messages and 10
// tickets, beside the time of one ticket create measured in the same run.
//
//	go test ./bench -run '^$' -bench Erasure -benchtime 5x
func BenchmarkErasure(b *testing.B) {
	ctx := context.Background()
	s := newBenchService(b, app.Options{})
	svc, site, member := s.svc, s.site, s.member
	const convs, msgs, tickets = 20, 50, 10
	var erase, create time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		email := fmt.Sprintf("person%d@example.com", i)
		c, _, err := svc.UpsertContact(ctx, chat.Live, app.ContactInput{Email: app.Value(email),
			Name: app.Value("Person Number" + fmt.Sprint(i)), Phone: app.Value("+1 555 010 " + fmt.Sprint(1000+i))})
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < convs; j++ {
			conv, _, err := svc.StartConversation(ctx, chat.Live, app.VisitorStart{SiteID: site.ID, ContactID: c.ID,
				Body: "Hello, I am Person Number" + fmt.Sprint(i) + ", write to " + email})
			if err != nil {
				b.Fatal(err)
			}
			for k := 1; k < msgs; k++ {
				if _, err := svc.PostAgentMessage(ctx, chat.Live, conv.ID, app.AgentMessage{Body: app.Value("Reply to " + email),
					AuthorID: app.Value(member.ID)}); err != nil {
					b.Fatal(err)
				}
			}
		}
		start := time.Now()
		for j := 0; j < tickets; j++ {
			if _, err := svc.CreateTicket(ctx, chat.Live, app.TicketCreate{Subject: app.Value("About " + email),
				ContactID: app.Value(c.ID)}); err != nil {
				b.Fatal(err)
			}
		}
		create += time.Since(start) / tickets
		b.StartTimer()
		start = time.Now()
		if _, err := svc.DeleteContact(ctx, chat.Live, c.ID); err != nil {
			b.Fatal(err)
		}
		erase += time.Since(start)
	}
	n := float64(b.N)
	eraseMS, createMS := erase.Seconds()*1000/n, create.Seconds()*1000/n
	b.ReportMetric(eraseMS, "erase_ms")
	b.ReportMetric(createMS, "ticket_create_ms")
	b.ReportMetric(eraseMS/createMS, "erase/create")
	b.Logf("erasing %d conversations, %d messages and %d tickets: %.1f ms, %.0f times one ticket create (%.2f ms)",
		convs, convs*msgs, tickets, eraseMS, eraseMS/createMS, createMS)
}
