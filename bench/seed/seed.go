// Package seed fills a data dir with a realistic volume of conversations,
// messages, tickets and contacts, written in large batches through the
// storage layer, so read figures can be taken on a database of the size a
// busy installation reaches.
package seed

import (
	"context"
	"fmt"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
)

// Scale is how much data to write.
type Scale struct {
	Contacts      int
	Conversations int
	Messages      int // spread evenly over the conversations
	Tickets       int
}

// Full is the scale of the performance figures: 1,000,000 messages in
// 100,000 conversations, 50,000 tickets and 100,000 contacts.
var Full = Scale{Contacts: 100_000, Conversations: 100_000, Messages: 1_000_000, Tickets: 50_000}

// Of returns Full multiplied by f (at least one of each).
func Of(f float64) Scale {
	n := func(v int) int { return max(1, int(float64(v)*f)) }
	return Scale{Contacts: n(Full.Contacts), Conversations: n(Full.Conversations), Messages: n(Full.Messages), Tickets: n(Full.Tickets)}
}

// Statuses are the conversation states the seeded conversations cycle through.
var Statuses = chat.Statuses

// Result names some of the rows written, for the load that follows.
type Result struct {
	Sites         []string
	Contacts      []string // a sample, spread over the whole set
	Conversations []string // a sample, spread over the whole set
	Open          []string // a sample of conversations not closed, which take agent messages
}

// batch is how many rows share one write transaction: large enough that the
// commit is a small share of the work, small enough to keep the
// transaction's memory modest.
const batch = 5000

// sample is how many ids of each kind Result keeps.
const sample = 1000

// Run writes sc's rows in mode: conversations on sites, half of them with a
// contact and their messages alternating between the contact, the assistant
// and memberID; tickets of the contacts, numbered on from the mode's
// counter. Timestamps spread over the days before now. The search tables
// are caught up when it returns.
func Run(ctx context.Context, db *storage.DB, mode chat.Mode, sites []string, memberID string, sc Scale, now time.Time) (*Result, error) {
	if len(sites) == 0 {
		return nil, fmt.Errorf("seed: no site")
	}
	res := &Result{Sites: sites}
	start := now.Add(-90 * 24 * time.Hour).UnixMilli()
	span := now.UnixMilli() - start
	// at spreads row i of n evenly over the span, oldest first.
	at := func(i, n int) chat.Timestamp { return chat.Timestamp(start + span*int64(i)/int64(max(n, 1))) }

	contacts := make([]string, sc.Contacts)
	err := batches(ctx, db, sc.Contacts, batch, func(q *storage.Q, i int) error {
		id := app.NewID(app.PrefixContact)
		contacts[i] = id
		email := fmt.Sprintf("visitor%d@example.com", i)
		name := fmt.Sprintf("Visitor %d", i)
		t := at(i, sc.Contacts)
		return q.InsertContact(ctx, &chat.Contact{ID: id, Mode: mode, Email: &email, Name: &name,
			CreatedAt: t, UpdatedAt: t}, &email)
	})
	if err != nil {
		return nil, fmt.Errorf("seed contacts: %w", err)
	}
	res.Contacts = spread(contacts)

	perConv := sc.Messages / max(sc.Conversations, 1)
	extra := sc.Messages % max(sc.Conversations, 1) // the first ones get one more
	convs := make([]string, sc.Conversations)
	var open []string
	// A conversation is written with its messages, so fewer share a batch.
	err = batches(ctx, db, sc.Conversations, max(1, batch/(perConv+1)), func(q *storage.Q, i int) error {
		n := perConv
		if i < extra {
			n++
		}
		id := app.NewID(app.PrefixConversation)
		convs[i] = id
		created := at(i, sc.Conversations)
		c := &chat.Conversation{ID: id, Mode: mode, SiteID: sites[i%len(sites)], Status: Statuses[i%len(Statuses)],
			MessageCount: n, PageURL: "https://example.com/pricing", Metadata: map[string]string{},
			CreatedAt: created, UpdatedAt: created, LastMessageAt: created + chat.Timestamp(n)*1000}
		var contact *string
		if i%2 == 0 && len(contacts) > 0 {
			contact = &contacts[(i/2)%len(contacts)]
			c.ContactID = contact
		}
		subject := fmt.Sprintf("Question %d about pricing", i)
		c.Subject = &subject
		if err := q.InsertConversation(ctx, c); err != nil {
			return err
		}
		for m := 0; m < n; m++ {
			author := chat.Author{Type: chat.AuthorContact, ID: contact}
			switch m % 3 {
			case 1:
				author = chat.Author{Type: chat.AuthorBot}
			case 2:
				author = chat.Author{Type: chat.AuthorAgent, ID: &memberID}
			}
			at := created + chat.Timestamp(m)*1000
			if err := q.InsertMessage(ctx, &chat.Message{ID: app.NewID(app.PrefixMessage), Mode: mode,
				ConversationID: id, Author: author, CreatedAt: at,
				Body: fmt.Sprintf("Message %d of conversation %d: how does the plan change when the team grows?", m, i)}); err != nil {
				return err
			}
			if author.Type == chat.AuthorAgent { // kept only for the first
				if err := q.FirstAgentReply(ctx, id, at); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seed conversations: %w", err)
	}
	res.Conversations = spread(convs)
	for i, id := range convs {
		if Statuses[i%len(Statuses)] != chat.StatusClosed {
			open = append(open, id)
		}
	}
	res.Open = spread(open)

	priorities := []string{"low", "normal", "high", "urgent"}
	ticketStatuses := []string{"open", "pending", "solved", "closed"}
	err = batches(ctx, db, sc.Tickets, batch, func(q *storage.Q, i int) error {
		number, err := q.NextTicketNumber(ctx, mode)
		if err != nil {
			return err
		}
		t := at(i, sc.Tickets)
		tk := &chat.Ticket{ID: app.NewID(app.PrefixTicket), Mode: mode, Number: number,
			Subject: fmt.Sprintf("Follow-up %d", i), Status: ticketStatuses[i%4], Priority: priorities[i%4],
			ContactID: contacts[i%len(contacts)], Tags: []string{"seed"}, Metadata: map[string]string{},
			CreatedAt: t, UpdatedAt: t}
		if len(convs) > 0 {
			tk.ConversationID = &convs[i%len(convs)]
		}
		return q.InsertTicket(ctx, tk)
	})
	if err != nil {
		return nil, fmt.Errorf("seed tickets: %w", err)
	}
	if err := indexSearch(ctx, db); err != nil {
		return nil, fmt.Errorf("seed search index: %w", err)
	}
	return res, nil
}

// indexSearch indexes every queued search text, then merges the search
// tables' segments, as the server's worker would when idle, so what
// follows the seed searches a caught-up index.
func indexSearch(ctx context.Context, db *storage.DB) error {
	for {
		done, err := storage.Write(ctx, db, func(q *storage.Q) (int, error) { return q.IndexSearchQueue(ctx, batch) })
		if err != nil {
			return err
		}
		if done.Result == 0 {
			break
		}
	}
	for {
		merged, err := storage.Write(ctx, db, func(q *storage.Q) (bool, error) { return q.MergeSearchSegments(ctx, 500) })
		if err != nil || !merged.Result {
			return err
		}
	}
}

// batches calls row for 0..n-1, size rows in each write transaction.
func batches(ctx context.Context, db *storage.DB, n, size int, row func(q *storage.Q, i int) error) error {
	for from := 0; from < n; from += size {
		to := min(n, from+size)
		err := db.Write(ctx, func(q *storage.Q) error {
			for i := from; i < to; i++ {
				if err := row(q, i); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// spread picks up to sample ids evenly from ids.
func spread(ids []string) []string {
	if len(ids) <= sample {
		return append([]string(nil), ids...)
	}
	out := make([]string, 0, sample)
	for i := 0; i < sample; i++ {
		out = append(out, ids[i*len(ids)/sample])
	}
	return out
}
