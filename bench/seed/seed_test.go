package seed

import (
	"context"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
)

func TestRunWritesTheScale(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := app.New(db, app.Options{})
	site, err := svc.CreateSite(ctx, "Seed", "")
	if err != nil {
		t.Fatal(err)
	}
	member, err := svc.CreateMember(ctx, "agent@example.com", "Agent", "")
	if err != nil {
		t.Fatal(err)
	}
	sc := Scale{Contacts: 50, Conversations: 40, Messages: 130, Tickets: 30}
	res, err := Run(ctx, db, chat.Test, []string{site.ID}, member.ID, sc, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conversations) != sc.Conversations || len(res.Contacts) != sc.Contacts {
		t.Fatalf("sample of %d conversations, %d contacts", len(res.Conversations), len(res.Contacts))
	}
	r := db.Read()
	for _, id := range res.Open {
		c, err := r.Conversation(ctx, chat.Test, id)
		if err != nil {
			t.Fatal(err)
		}
		if c.Status == "closed" {
			t.Errorf("conversation %s is closed but listed as open", id)
		}
	}
	if want := sc.Conversations - sc.Conversations/len(Statuses); len(res.Open) != want {
		t.Errorf("%d open conversations, want %d", len(res.Open), want)
	}
	all := storage.Page{Limit: 1000}
	convs, err := r.Conversations(ctx, storage.ConversationFilter{Mode: chat.Test, Page: all})
	if err != nil {
		t.Fatal(err)
	}
	messages := 0
	for _, c := range convs {
		ms, err := r.Messages(ctx, c.ID, all)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != c.MessageCount {
			t.Errorf("conversation %s: %d messages, message_count %d", c.ID, len(ms), c.MessageCount)
		}
		messages += len(ms)
	}
	contacts, err := r.Contacts(ctx, storage.ContactFilter{Mode: chat.Test, Page: all})
	if err != nil {
		t.Fatal(err)
	}
	tickets, err := r.Tickets(ctx, storage.TicketFilter{Mode: chat.Test, Page: all})
	if err != nil {
		t.Fatal(err)
	}
	got := Scale{Contacts: len(contacts), Conversations: len(convs), Messages: messages, Tickets: len(tickets)}
	if got != sc {
		t.Fatalf("wrote %+v, want %+v", got, sc)
	}
	if queued, err := r.SearchQueued(ctx); err != nil || queued {
		t.Fatalf("search text still queued after the seed (%v)", err)
	}
	found, err := svc.Search(ctx, chat.Test, app.SearchQuery{Q: "grows", ListParams: app.ListParams{Limit: "100"}})
	if err != nil || len(found.Data) != sc.Conversations {
		t.Fatalf("search finds %d of %d seeded conversations (%v)", len(found.Data), sc.Conversations, err)
	}
	// Ticket numbers continue after the seeded ones.
	tk, err := svc.CreateTicket(ctx, chat.Test, app.TicketCreate{Subject: app.Value("After the seed"),
		ContactID: app.Value(res.Contacts[0]), NotifyContact: app.Value(false)})
	if err != nil {
		t.Fatal(err)
	}
	if tk.Number != int64(sc.Tickets+1) {
		t.Fatalf("ticket number %d after %d seeded", tk.Number, sc.Tickets)
	}
}

func TestOfScalesFull(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want Scale
	}{
		{1, Full},
		{0.01, Scale{Contacts: 1000, Conversations: 1000, Messages: 10000, Tickets: 500}},
		{0, Scale{Contacts: 1, Conversations: 1, Messages: 1, Tickets: 1}},
	} {
		if got := Of(c.f); got != c.want {
			t.Errorf("Of(%v) = %+v, want %+v", c.f, got, c.want)
		}
	}
}
