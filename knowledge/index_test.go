package knowledge

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"chatsvc/chat"
)

func openTemp(t *testing.T) (*Index, string) {
	t.Helper()
	dir := t.TempDir()
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x, dir
}

func chunks(source, site string, mode chat.Mode, n int, text string) []Chunk {
	out := make([]Chunk, n)
	for i := range out {
		out[i] = Chunk{SourceID: source, SiteID: site, Mode: mode, URL: fmt.Sprintf("https://example.com/%s/%d", source, i),
			Title: "Page " + source, Heading: "Section", Text: fmt.Sprintf("%s passage number %d", text, i)}
	}
	return out
}

func sources(ps []Passage) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range ps {
		if !seen[p.SourceID] {
			seen[p.SourceID] = true
			out = append(out, p.SourceID)
		}
	}
	return out
}

func TestSearchKeepsToTheSiteAndMode(t *testing.T) {
	t.Parallel()
	x, _ := openTemp(t)
	ctx := context.Background()
	for _, c := range []struct {
		source, site string
		mode         chat.Mode
	}{
		{"src_all", "", chat.Test}, {"src_site1", "site_1", chat.Test},
		{"src_site2", "site_2", chat.Test}, {"src_live", "", chat.Live},
	} {
		if err := x.Replace(ctx, c.source, chunks(c.source, c.site, c.mode, 3, "refund policy")); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		site string
		mode chat.Mode
		want []string
	}{
		{"site_1", chat.Test, []string{"src_all", "src_site1"}},
		{"site_2", chat.Test, []string{"src_all", "src_site2"}},
		{"", chat.Test, []string{"src_all"}},
		{"site_1", chat.Live, []string{"src_live"}},
	} {
		ps, err := x.Search(ctx, Query{Mode: c.mode, SiteID: c.site, Text: "refunds", Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		got := sources(ps)
		if len(got) != len(c.want) || !sameSet(got, c.want) {
			t.Errorf("site %q mode %s: sources %v, want %v", c.site, c.mode, got, c.want)
		}
	}
	ps, err := x.Search(ctx, Query{Mode: chat.Test, SiteID: "site_1", Text: "passage number 2", Limit: 1})
	if err != nil || len(ps) != 1 {
		t.Fatalf("%v %v", ps, err)
	}
	if p := ps[0]; p.Title == "" || p.Heading != "Section" || p.URL == "" || p.Score <= 0 {
		t.Fatalf("passage %+v lacks its fields", p)
	}
	// One mode left: the sites are still kept apart. Then every chunk for
	// every site: a test question needs no filter, a live one finds nothing.
	if err := x.Replace(ctx, "src_live", nil); err != nil {
		t.Fatal(err)
	}
	ps, err = x.Search(ctx, Query{Mode: chat.Test, SiteID: "site_1", Text: "refunds", Limit: 50})
	if got := sources(ps); err != nil || !sameSet(got, []string{"src_all", "src_site1"}) {
		t.Errorf("one mode left, site_1: sources %v (%v)", got, err)
	}
	for _, src := range []string{"src_site1", "src_site2"} {
		if err := x.Replace(ctx, src, nil); err != nil {
			t.Fatal(err)
		}
	}
	for mode, want := range map[chat.Mode]int{chat.Test: 1, chat.Live: 0} {
		ps, err := x.Search(ctx, Query{Mode: mode, SiteID: "site_1", Text: "refunds", Limit: 50})
		if err != nil || len(sources(ps)) != want {
			t.Errorf("one mode and every site, %s: sources %v (%v), want %d", mode, sources(ps), err, want)
		}
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

func TestReplaceSwapsASourceAtOnceAndRemoves(t *testing.T) {
	t.Parallel()
	x, _ := openTemp(t)
	ctx := context.Background()
	if err := x.Replace(ctx, "src_a", chunks("src_a", "", chat.Test, 60, "old")); err != nil {
		t.Fatal(err)
	}
	if err := x.Replace(ctx, "src_b", chunks("src_b", "", chat.Test, 5, "other")); err != nil {
		t.Fatal(err)
	}
	// Readers search while the source is replaced back and forth: each
	// answer must be wholly the old or wholly the new version.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := bleve.NewTermQuery("src_a")
			q.SetField("source_id")
			for {
				select {
				case <-stop:
					return
				default:
				}
				req := bleve.NewSearchRequestOptions(q, 1000, 0, false)
				req.Fields = []string{"text"}
				res, err := x.idx.Search(req)
				if err != nil {
					errs <- err
					return
				}
				old, fresh := 0, 0
				for _, h := range res.Hits {
					if s, _ := h.Fields["text"].(string); len(s) > 3 && s[:3] == "old" {
						old++
					} else {
						fresh++
					}
				}
				if !(old == 60 && fresh == 0) && !(old == 0 && fresh == 90) {
					errs <- fmt.Errorf("a reader saw %d old and %d new chunks", old, fresh)
					return
				}
			}
		}()
	}
	for i := 0; i < 10; i++ {
		next := chunks("src_a", "", chat.Test, 90, "new")
		if i%2 == 1 {
			next = chunks("src_a", "", chat.Test, 60, "old")
		}
		if err := x.Replace(ctx, "src_a", next); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	if err := x.Replace(ctx, "src_a", nil); err != nil {
		t.Fatal(err)
	}
	ids, err := x.docIDs("src_a")
	if err != nil || len(ids) != 0 {
		t.Fatalf("after removal: %d documents left (%v)", len(ids), err)
	}
	if n, _ := x.Count(); n != 5 {
		t.Fatalf("%d documents, want only the other source's 5", n)
	}
}

func TestRebuildGivesTheSameResults(t *testing.T) {
	t.Parallel()
	x, dir := openTemp(t)
	ctx := context.Background()
	all := append(chunks("src_a", "", chat.Test, 30, "shipping times and costs"),
		chunks("src_b", "site_1", chat.Test, 20, "shipping abroad customs")...)
	for i := 0; i < 3; i++ { // churn, so the old index has replaced documents behind it
		x.Replace(ctx, "src_a", all[:30])
		x.Replace(ctx, "src_b", all[30:])
	}
	q := Query{Mode: chat.Test, SiteID: "site_1", Text: "shipping customs", Limit: 10}
	before, err := x.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Rebuild(dir, func(add func(Chunk) error) error { return nil }); !errors.Is(err, ErrInUse) {
		t.Fatalf("rebuild while open: %v, want ErrInUse", err)
	}
	x.Close()
	n, err := Rebuild(dir, func(add func(Chunk) error) error {
		for _, c := range all {
			if err := add(c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || n != 50 {
		t.Fatalf("rebuild: %d, %v", n, err)
	}
	y, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	after, err := y.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	// BM25's statistics count the replaced documents until segments merge,
	// so scores may differ; the passages and their order may not.
	for _, ps := range [][]Passage{before, after} {
		for i := range ps {
			ps[i].Score = 0
		}
	}
	if len(before) == 0 || !reflect.DeepEqual(before, after) {
		t.Fatalf("before rebuild %v\nafter %v", before, after)
	}
}

// TestTeamSynonyms: the team's words reach pages that never use them, an
// expression counting as one term, and the page is cited as a full match.
func TestTeamSynonyms(t *testing.T) {
	t.Parallel()
	x, _ := openTemp(t)
	ctx := context.Background()
	pages := []Chunk{
		{SourceID: "src_1", Mode: chat.Test, URL: "https://example.com/stash", Title: "Stash",
			Text: "Stash the changes in a dirty working directory away, and apply them again later."},
		{SourceID: "src_1", Mode: chat.Test, URL: "https://example.com/commit", Title: "Commit",
			Text: "Record changes to the repository with a message saying why."},
		{SourceID: "src_1", Mode: chat.Test, URL: "https://example.com/calls", Title: "Calls",
			Text: "Put a call on hold: the caller hears music until you take the call back."},
	}
	if err := x.Replace(ctx, "src_1", pages); err != nil {
		t.Fatal(err)
	}
	q := Query{Mode: chat.Test, Text: "Can I put on hold what I am working on?"}
	without, err := x.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(without) == 0 || without[0].URL != "https://example.com/calls" {
		t.Fatalf("without the team's synonyms: %+v", without)
	}
	q.Synonyms = [][]string{{"Stash", "put  on hold", "park"}}
	with, err := x.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(with) == 0 || with[0].URL != "https://example.com/stash" || with[0].Match < 0.6 {
		t.Fatalf("with the team's synonyms: %+v", with)
	}
	// The expression's words are not terms of their own.
	if got := questionTerms(q.Text, q.Synonyms, "en"); len(got) != 2 || got[0].text != "put on hold" ||
		!reflect.DeepEqual(got[0].syns, []string{"stash", "park"}) || got[1].text != "working" {
		t.Fatalf("terms %+v", got)
	}
	// An expression is found next to punctuation, as the question's last words.
	for _, text := range []string{"How do I request the money back?", "Money back, please!", "(money back)"} {
		if got := questionTerms(text, [][]string{{"refund", "Money back."}}, "en"); len(got) == 0 || got[0].text != "money back" {
			t.Errorf("%q: terms %+v", text, got)
		}
	}
	if got := QuestionWords("What about line endings?"); !slices.Contains(got, "newline") {
		t.Errorf("the thesaurus's phrase at a question's end: %v", got)
	}
	// How often or how exactly a thing happens is how a question is asked.
	if got := QuestionWords("how long does shipping usually take, roughly?"); !slices.Equal(got, []string{"duration", "shipping"}) {
		t.Errorf("asking words left in: %v", got)
	}
}

// The thesaurus joins words customers and pages use for one thing only: a
// question about a password does not match a page about API tokens.
func TestThesaurusKeepsThingsApart(t *testing.T) {
	t.Parallel()
	got := searchPage(t, Chunk{URL: "https://example.com/api", Title: "API tokens",
		Text: "Create a token under Settings to call the API from your scripts."}, "How do I reset my password?")
	if len(got) > 0 && got[0].Match >= 0.35 {
		t.Fatalf("a password question matches the tokens page by %.2f", got[0].Match)
	}
	got = searchPage(t, Chunk{URL: "https://example.com/dogs", Title: "Staying with dogs",
		Text: "Dogs stay free in our garden rooms."}, "can I bring my cat?")
	if len(got) > 0 && got[0].Match >= 0.35 {
		t.Fatalf("a question about cats matches the dogs page by %.2f", got[0].Match)
	}
}

// A customer's everyday word is found as the page's word for the same
// thing: "vegan" on a page that says "plant-based".
func TestThesaurusFindsThePagesWord(t *testing.T) {
	t.Parallel()
	got := searchPage(t, Chunk{URL: "https://example.com/diets", Title: "Dietary options",
		Text: "Every week at least four plant-based recipes are on the menu."}, "do you do vegan meals")
	if len(got) == 0 || got[0].Match < 0.35 {
		t.Fatalf("a question about vegan meals finds the plant-based page: %+v", got)
	}
	got = searchPage(t, Chunk{URL: "https://example.com/upload", Title: "Uploading videos",
		Text: "Each lesson holds one video. The maximum is 5 GB."}, "max per lesson?")
	if len(got) == 0 || got[0].Match < 0.35 {
		t.Fatalf("max is maximum: %+v", got)
	}
	// A day as a chat shortens it is the day, and the weekend is Saturday
	// and Sunday (but Saturday is not the weekend); the page that gives a
	// street address answers where the business is, though it never says
	// "address"; whether there is a delay asks after a state, not for an
	// offering (offers.go); half price is a discount.
	page := func(path, title, text string) Chunk {
		return Chunk{URL: "https://example.com/" + path, Title: title, Text: text}
	}
	team := page("team", "Our team", "Five of us see you on the road to recovery.")
	hours := []Chunk{page("hours", "Opening hours", "Monday to Friday 8:00–18:00, Saturday 9:00–13:00."), team}
	storage := []Chunk{page("access", "Storage access", "Your storage unit can be reached Monday to Saturday."),
		page("prices", "Storage prices", "Storage: a small storage unit costs £20 a week, storage for a car £30.")}
	where := []Chunk{page("contact", "Contact us", "Come and see us at 42 Cathedral Road, Cardiff CF11 9LJ."), team}
	dispatch := []Chunk{page("dispatch", "Dispatch times", "Orders are dispatched within 2 working days."), team}
	student := []Chunk{page("student", "Student plan", "Students get the yearly plan for half price."),
		page("plans", "Plans", "Monthly and yearly plans.")}
	for _, c := range []struct {
		pages    []Chunk
		question string
		want     string
		match    float64
	}{
		{hours, "sat hours?", "https://example.com/hours", 0.45},
		{storage, "can I get to my storage at weekends", "https://example.com/access", 0},
		{where, "where are you based?", "https://example.com/contact", 0.6},
		{where, "what's the adress", "https://example.com/contact", 0.6},
		{where, "postcode pls", "https://example.com/contact", 0.6},
		{where, "where is the shop exactly?", "https://example.com/contact", 0.6},
		{dispatch, "is there a delay with dispatch at the moment?", "https://example.com/dispatch", 0.2},
		{student, "student discount?", "https://example.com/student", 0.6},
	} {
		if got := searchPages(t, c.pages, c.question); len(got) == 0 || got[0].URL != c.want || got[0].Match < c.match {
			t.Errorf("%q: %+v, want %s first", c.question, got, c.want)
		}
	}
	if syns := synonymsIn["en"]["saturday"]; slices.Contains(syns, "weekend") {
		t.Fatalf("Saturday is searched as the weekend: %v", syns)
	}
	// "How long" asks for a length of time: the page that gives it in days.
	got = searchPages(t, []Chunk{{URL: "https://example.com/making", Title: "Making your book",
		Text: "Every book is printed and bound by hand."}, {URL: "https://example.com/times", Title: "How long printing takes",
		Text: "A book is printed and bound within 3 working days."}}, "how long to make a book")
	if len(got) == 0 || got[0].URL != "https://example.com/times" {
		t.Fatalf("a question about how long finds the page that says how long: %+v", got)
	}
	// A phrase the thesaurus reads as one word ("roll back" as "rollback")
	// is still found in the page's own words.
	got = searchPages(t, []Chunk{{URL: "https://example.com/status", Title: "tool status",
		Text: "Lists the migrations applied and those pending."}, {URL: "https://example.com/down", Title: "tool down",
		Text: "Rolls back the last migration applied."}}, "roll back last migration")
	if len(got) == 0 || got[0].URL != "https://example.com/down" || got[0].Match < 0.7 {
		t.Fatalf("roll back finds the page that rolls back: %+v", got)
	}
	// "What time" asks for a time of day, not for opening hours.
	got = searchPages(t, []Chunk{{URL: "https://example.com/hours", Title: "Opening hours",
		Text: "Reception is open from 08:00 to 20:00 every day."}, {URL: "https://example.com/arrival", Title: "Arrival and departure",
		Text: "Check in from 14:00. Please leave your pitch by 11:00."}}, "what time can we check in")
	if len(got) == 0 || got[0].URL != "https://example.com/arrival" {
		t.Fatalf("what time to check in finds the arrival page: %+v", got)
	}
	// Moving a booking is rescheduling it; "what's new" asks for the
	// changelog; a policy is what the page about it says, whatever its
	// title; "a certain amount" is no thing the page must name; a deadline
	// is a cut-off; "exactly", "keeps" and "speak" are how a question is asked;
	// spellings, theft, noise and currencies.
	for _, c := range []struct{ title, text, question string }{
		{"Rescheduling", "Rearrange your appointment online up to 24 hours before it.", "can i move my appointment"},
		{"Changelog", "Version 2.1 adds a dark theme.", "whats new in 2.1"},
		{"Cancellations", "Cancel up to 48 hours before your trip for a full refund.", "whats ur cancellation policy"},
		{"Delivery", "Delivery is free when the amount of your order is over £50.", "is there free delivery over a certain amount"},
		{"Weekly cut-off", "Choose your meals by the Wednesday cut-off, 23:59.", "whats the deadline to pick my meals"},
		{"Find us", "Our nearest station is Brighton, a five-minute walk.", "where r u exactly, nearest station?"},
		{"Pie and doughnut charts", "Set type to pie; a hole in the middle makes it a doughnut.", "does it do donut charts"},
		{"Theft protection", "If your mower is stolen, lock it from the app.", "what happens if someone steals it"},
		{"Noise and quiet mode", "Quiet mode keeps the noise under 55 dB.", "how loud is it"},
		{"Mower gets stuck", "If the mower gets stuck often, add a no-go zone.", "it keeps getting stuck"},
		{"Private lessons", "Our instructors teach in French or German on request.", "do your instructors speak german"},
		{"Payment in other currencies", "Pay us in GBP, EUR or USD.", "can i pay in dollars"},
		{"Cancelling", "You can cancel at any time.", "cancel anytime?"},
		{"Late orders", "If your order has not arrived in 10 days, tell us.", "my order hasnt arrived"},
		{"Share your robot", "Invite someone to control the robot from their phone.", "can we both use the robot with our own logins?"},
		{"Replacing the nozzle", "How often? Replace the nozzle every 3 months.", "how often should i change the nozzle"},
		{"Free plan", "The free plan has one user and 20 documents.", "is there a free version?"},
		{"Installation", "On macOS, install it with Homebrew.", "how to install on mac"},
		{"Service status", "Incidents with the app are posted on status.example.com.", "is the app down right now?"},
		{"Bike hire", "We hire out e-bikes and road bikes.", "do you hire out e-bikes aswell"},
	} {
		got = searchPages(t, []Chunk{{URL: "https://example.com/other", Title: "Our story",
			Text: "We have run trips since 1989."}, {URL: "https://example.com/page", Title: c.title,
			Text: c.text}}, c.question)
		if len(got) == 0 || got[0].URL != "https://example.com/page" || got[0].Match < 0.6 {
			t.Errorf("%q finds the page %q: %+v", c.question, c.title, got)
		}
	}
	// A way to pay the page does not list is asked of the page about paying.
	got = searchPage(t, Chunk{URL: "https://example.com/pay", Title: "Ways to pay",
		Text: "We take Visa, Mastercard and bank transfer."}, "can i pay with klarna")
	if len(got) == 0 || got[0].Match < 0.41 {
		t.Fatalf("a question about Klarna finds the page about paying: %+v", got)
	}
}

// A customer spells as their country does, the pages as theirs: "customise"
// finds "customize", "colour" "color", "cheque" "check", "catalogue"
// "catalog", and the other way; a word the pages have is left as it is.
func TestOtherSpellingFindsThePagesWord(t *testing.T) {
	t.Parallel()
	for _, c := range [][3]string{
		{"Customize a report", "You can customize a report and save it.", "how do i customise a report"},
		{"Print a check", "To print a check, open the register.", "how to print a cheque"},
		{"Our catalog", "Order the catalog by post.", "can i get a catalogue"},
		{"Colour", "Choose a colour for the frame.", "which color frame"},
		{"Organise files", "Organise your files in folders.", "organize files"},
	} {
		got := searchPage(t, Chunk{URL: "https://example.com/p", Title: c[0], Text: c[1]}, c[2])
		if len(got) == 0 || got[0].Match < 0.99 {
			t.Errorf("%q on a page of %q: %+v", c[2], c[1], got)
		}
	}
	if otherSpelling("check", func(w string) string { return w }) != "" {
		t.Error(`"check" read as "cheque"`)
	}
}

// A manual that mentions delivery in passing does not answer how long a
// delivery takes; a business that has a page about its dealings answers
// from the page that mentions it.
func TestDealingsNeedABusinessThatHasThem(t *testing.T) {
	t.Parallel()
	mail := []Chunk{{URL: "https://x.example/mail", Title: "Mail server", Text: "The server runs a queue of outgoing mail."},
		{URL: "https://x.example/mail", Title: "Mail server", Text: "Delivery to local users takes a few seconds."}}
	manual := searchPages(t, mail, "how long does delivery take")
	if len(manual) == 0 || manual[0].Match >= 0.35 {
		t.Fatalf("a manual's prose answers a question about delivery: %+v", manual)
	}
	shop := searchPages(t, append(mail, Chunk{URL: "https://x.example/prices", Title: "Prices and shipping",
		Text: "Orders ship from Leeds."}), "how long does delivery take")
	if len(shop) == 0 || shop[0].Match <= manual[0].Match {
		t.Fatalf("with a page about its dealings the mention counts: %+v against %+v", shop, manual)
	}
	// A pasted FAQ without headings sells by what its text says of prices,
	// refunds, payment and vouchers.
	faq := searchPages(t, []Chunk{
		{URL: "", Title: "About us", Text: "We are a family bakery in York, baking since 1990."},
		{URL: "", Title: "About us", Text: "Delivery to York addresses takes a day. Prices include VAT. " +
			"Refunds are paid to your card. Payment by card or cash. Gift vouchers are sold in the shop."},
	}, "how long does delivery take")
	if len(faq) == 0 || faq[0].Match < 0.35 {
		t.Fatalf("a business's text without headings answers about delivery: %+v", faq)
	}
}

// A page's words are stemmed as the index stems them: a question's "pay"
// is found in a title's "pay" (both "pai" to Porter's stemmer).
func TestMatchStemsAsTheIndexDoes(t *testing.T) {
	t.Parallel()
	got := searchPage(t, Chunk{Title: "Can I pay with bitcoin?", Text: "Yes, we accept bitcoin payments at checkout."},
		"Can I pay with bitcoin?")
	if len(got) != 1 || got[0].Match != 1 {
		t.Fatalf("the page titled with the question: %+v", got)
	}
}

// searchPage indexes one test-mode page in a fresh index and asks it question.
func searchPage(t *testing.T, page Chunk, question string) []Passage {
	t.Helper()
	return searchPages(t, []Chunk{page}, question)
}

// A page's passage carries its next best matching chunks, best first, up
// to MorePassages: the answer to a question may be further down the page.
func TestPassageCarriesThePagesFurtherChunks(t *testing.T) {
	t.Parallel()
	var page []Chunk
	for i := range MorePassages + 2 {
		page = append(page, Chunk{URL: "https://x.example/prices", Title: "Lesson prices", Heading: fmt.Sprintf("Part %d", i),
			Text: fmt.Sprintf("Lessons of kind %d are booked in the app; lessons have prices.", i)})
	}
	page[MorePassages+1].Text = "Motorway lessons take two hours; a motorway lesson costs £90."
	got := searchPages(t, page, "motorway lessons price")
	if len(got) != 1 || len(got[0].More) != MorePassages || !strings.Contains(got[0].Text, "£90") {
		t.Fatalf("passages %+v", got)
	}
}
