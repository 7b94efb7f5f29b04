package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/testenv"
)

// searchHits runs a search in test mode and returns "type:id" of each result.
func searchHits(t *testing.T, svc *Service, q string) []string {
	t.Helper()
	l, err := svc.Search(context.Background(), chat.Test, SearchQuery{Q: q})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range l.Data {
		out = append(out, r.Type+":"+r.ID)
	}
	return out
}

// indexAll runs the desk-search-index worker's step until nothing is queued.
func indexAll(t *testing.T, svc *Service) {
	t.Helper()
	for {
		more, err := svc.IndexSearchStep(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			return
		}
	}
}

func expectFound(t *testing.T, svc *Service, q string, want ...string) {
	t.Helper()
	if got := searchHits(t, svc, q); !slices.Equal(got, want) {
		t.Errorf("%q finds %v, want %v", q, got, want)
	}
}

// siteAndMember makes a site and a team member.
func siteAndMember(t *testing.T, svc *Service) (*chat.Site, *chat.Member) {
	t.Helper()
	site, err := svc.CreateSite(context.Background(), "Site", "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := svc.CreateMember(context.Background(), "agent@example.com", "Agent", "")
	if err != nil {
		t.Fatal(err)
	}
	return site, m
}

// A write queues its text: search finds it once the worker indexed it,
// and the queue outlives a restart.
func TestSearchIndexQueue(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := storage.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	svc := New(db, Options{})
	c, _, err := svc.UpsertContact(ctx, chat.Test, ContactInput{Email: Value("zelda@example.com"), Name: Value("Zelda Fitzgerald")})
	if err != nil {
		t.Fatal(err)
	}
	expectFound(t, svc, "zelda")
	db.Close()

	svc = New(testenv.OpenDB(t, dir), Options{})
	expectFound(t, svc, "zelda")
	indexAll(t, svc)
	expectFound(t, svc, "zelda", "contact:"+c.ID)
	if more, err := svc.IndexSearchStep(ctx); more || err != nil {
		t.Fatalf("an empty queue: more %v, err %v", more, err)
	}
}

// A text changed twice before the worker runs is indexed once, with its
// last words; a changed text's old words leave at once.
func TestSearchIndexChangedText(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	c, _, err := svc.UpsertContact(ctx, chat.Test, ContactInput{Email: Value("grace@example.com")})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := svc.CreateTicket(ctx, chat.Test, TicketCreate{Subject: Value("Broken umbrella"),
		ContactID: Value(c.ID), NotifyContact: Value(false)})
	if err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{"Broken kettle", "Broken teapot"} {
		if _, err := svc.UpdateTicket(ctx, chat.Test, tk.ID, TicketUpdate{Subject: Value(subject)}); err != nil {
			t.Fatal(err)
		}
	}
	indexAll(t, svc)
	expectFound(t, svc, "teapot", "ticket:"+tk.ID)
	expectFound(t, svc, "umbrella")
	expectFound(t, svc, "kettle")

	if _, err := svc.UpdateTicket(ctx, chat.Test, tk.ID, TicketUpdate{Subject: Value("Cracked mug")}); err != nil {
		t.Fatal(err)
	}
	expectFound(t, svc, "teapot") // gone before the worker runs
	indexAll(t, svc)
	expectFound(t, svc, "mug", "ticket:"+tk.ID)
}

// Erasure takes a person's words out of the search tables in its own
// transaction, whether the worker indexed them already or not: a text
// queued before the erasure is indexed as the erasure left it.
func TestSearchErasureAndQueue(t *testing.T) {
	for _, indexedFirst := range []bool{false, true} {
		ctx := context.Background()
		svc, _ := newTestService(t)
		site, m := siteAndMember(t, svc)
		c, _, err := svc.UpsertContact(ctx, chat.Test, ContactInput{Email: Value("ada@example.com"), Name: Value("Ada Lovelace")})
		if err != nil {
			t.Fatal(err)
		}
		conv, _, err := svc.StartConversation(ctx, chat.Test, VisitorStart{SiteID: site.ID, VisitorID: "vis_1",
			PageURL: "https://example.com/", ContactID: c.ID, Body: "I am Ada Lovelace and my parcel is missing"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.AddNote(ctx, chat.Test, conv.ID, NoteCreate{Body: Value("Lovelace called about the parcel"),
			AuthorID: Value(m.ID)}); err != nil {
			t.Fatal(err)
		}
		if indexedFirst {
			indexAll(t, svc)
			if got := searchHits(t, svc, "lovelace"); len(got) != 2 {
				t.Fatalf("before erasure: %v", got)
			}
		}
		if _, err := svc.DeleteContact(ctx, chat.Test, c.ID); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"lovelace", "ada", "example"} {
			expectFound(t, svc, q) // at once, before the worker runs
		}
		indexAll(t, svc)
		for _, q := range []string{"lovelace", "ada", "example"} {
			expectFound(t, svc, q)
		}
		// What is left of the texts is still found.
		expectFound(t, svc, "parcel", "conversation:"+conv.ID)
	}
}

// Best first: a text that holds the words more often, for its length,
// ranks above one that mentions them once in passing, newer or not.
func TestSearchRanksByFrequencyForLength(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	site, _ := siteAndMember(t, svc)
	start := func(body string) string {
		c, _, err := svc.StartConversation(ctx, chat.Test, VisitorStart{SiteID: site.ID, VisitorID: "vis_1",
			PageURL: "https://example.com/", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	dense := start("Refund please: the refund for my refund request")
	once := start("Hello, I ordered a blue kettle last week and it arrived with a cracked lid, could I get a refund or a new lid sent out")
	short := start("Refund status?")
	indexAll(t, svc)
	expectFound(t, svc, "refund", "conversation:"+dense, "conversation:"+short, "conversation:"+once)
}

// A conversation deleted by retention leaves the search tables in the same
// transaction, its texts queued or indexed alike.
func TestSearchRetentionAndQueue(t *testing.T) {
	ctx := context.Background()
	clock := testenv.NewClock(testenv.T0, time.Millisecond)
	svc := New(testenv.OpenDB(t, ""), Options{Now: clock.Now})
	site, m := siteAndMember(t, svc)
	conv, _, err := svc.StartConversation(ctx, chat.Test, VisitorStart{SiteID: site.ID, VisitorID: "vis_1",
		PageURL: "https://example.com/", Body: "My parcel to Winnipeg"})
	if err != nil {
		t.Fatal(err)
	}
	indexAll(t, svc)
	if _, err := svc.AddNote(ctx, chat.Test, conv.ID, NoteCreate{Body: Value("Winnipeg customs form"), AuthorID: Value(m.ID)}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Close(ctx, chat.Test, conv.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(31 * 24 * time.Hour)
	if err := svc.RetentionStep(ctx, Retention{ClosedConversations: 30 * 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	expectFound(t, svc, "winnipeg")
	indexAll(t, svc)
	expectFound(t, svc, "winnipeg")
	expectFound(t, svc, "customs")
}

// A search's answer is given again without searching until the next write,
// whatever that write is; one read before a write is never kept for after.
func TestSearchAnswersAreKeptUntilTheNextWrite(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	if _, _, err := svc.UpsertContact(ctx, chat.Test, ContactInput{Email: Value("zelda@example.com"), Name: Value("Zelda Fitzgerald")}); err != nil {
		t.Fatal(err)
	}
	indexAll(t, svc)
	search := func() List[*chat.SearchResult] {
		t.Helper()
		l, err := svc.Search(ctx, chat.Test, SearchQuery{Q: "zelda"})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Data) != 1 {
			t.Fatalf("%d results, want 1", len(l.Data))
		}
		return l
	}
	first := search()
	if again := search(); again.Data[0] != first.Data[0] {
		t.Fatal("the same search with no write between was run again")
	}
	if _, err := svc.CreateSite(ctx, "Another site", ""); err != nil { // nothing to do with the search
		t.Fatal(err)
	}
	if after := search(); after.Data[0] == first.Data[0] {
		t.Fatal("an answer read before a write was given after it")
	}

	// An answer read at a generation a write has passed is not kept.
	key := searchKey{mode: chat.Test, match: `"stale"`}
	gen := svc.db.Generation()
	if _, err := svc.CreateSite(ctx, "A third site", ""); err != nil {
		t.Fatal(err)
	}
	svc.searches.put(key, gen, List[*chat.SearchResult]{Object: "list"})
	if _, ok := svc.searches.get(key, svc.db.Generation()); ok {
		t.Fatal("an answer read before a write was kept for after it")
	}
}

// Searches beyond one per core wait for a free one, and are refused as
// rate_limited when none frees in time; kept answers need no slot.
func TestSearchesBeyondTheCoresWait(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	searchHits(t, svc, "kept")
	var releases []func()
	for range cap(svc.searchSlots.c) {
		release, err := svc.searchSlots.acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	svc.searchSlots.wait = time.Millisecond
	_, err := svc.Search(ctx, chat.Test, SearchQuery{Q: "fresh"})
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != CodeRateLimited || ae.RetryAfter <= 0 {
		t.Fatalf("a search with every slot taken: %v, want %s with a retry delay", err, CodeRateLimited)
	}
	searchHits(t, svc, "kept") // answered from what was kept

	svc.searchSlots.wait = time.Minute
	done := make(chan error, 1)
	go func() {
		_, err := svc.Search(ctx, chat.Test, SearchQuery{Q: "fresh"})
		done <- err
	}()
	releases[0]()
	if err := <-done; err != nil {
		t.Fatalf("a search once a slot was free: %v", err)
	}
}

// With nothing queued, the desk-search-index worker merges the search
// segments a step at a time; once they are merged, an idle step writes
// nothing, and what searches find is as before.
func TestSearchIndexWorkerMergesWhenIdle(t *testing.T) {
	ctx := context.Background()
	db := testenv.OpenDB(t, t.TempDir())
	svc := New(db, Options{})
	// One indexing commit per contact: a segment each.
	var want []string
	for i := range 18 { // one page of results
		c, _, err := svc.UpsertContact(ctx, chat.Test, ContactInput{Email: Value(fmt.Sprintf("c%d@example.com", i)),
			Name: Value(fmt.Sprintf("Harriet Quimby %d", i))})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, "contact:"+c.ID)
		if _, err := svc.IndexSearchStep(ctx); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(want)
	found := func() []string {
		got := searchHits(t, svc, "quimby")
		slices.Sort(got)
		return got
	}
	if got := found(); !slices.Equal(got, want) {
		t.Fatalf("found %v before the merge, want %v", got, want)
	}
	before, err := db.Read().SearchSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if _, err := svc.IndexSearchStep(ctx); err != nil {
			t.Fatal(err)
		}
	}
	after, err := db.Read().SearchSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after >= before {
		t.Errorf("%d segments before the idle steps, %d after", before, after)
	}
	gen := db.Generation()
	if _, err := svc.IndexSearchStep(ctx); err != nil || db.Generation() != gen {
		t.Errorf("an idle step with the segments merged wrote (err %v)", err)
	}
	if got := found(); !slices.Equal(got, want) {
		t.Errorf("found %v after the merge, want %v", got, want)
	}
}
