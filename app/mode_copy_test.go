package app

import (
	"context"
	"testing"

	"chatsvc/chat"
)

// Copying test data to live copies sources, synonym groups and canned
// replies that live data lacks, keeps what live data has (the live canned
// reply's text stays), and a second copy copies nothing.
func TestCopyTestToLive(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(svc.CreateKnowledgeSource(ctx, chat.Test, SourceCreate{Type: Value(SourceURL), Name: Value("Help"),
		URL: Value("https://shop.example/help"), Lang: Value("de")}))
	must(svc.CreateKnowledgeSource(ctx, chat.Test, SourceCreate{Type: Value(SourceText), Name: Value("Returns"),
		Content: Value("Returns are free within 30 days.")}))
	must(svc.CreateSynonym(ctx, chat.Test, SynonymInput{Words: Value([]string{"parcel", "package"})}))
	must(svc.CreateCannedReply(ctx, chat.Test, CannedReplyInput{Shortcut: Value("hi"), Title: Value("Hello"), Body: Value("Hello from test")}))
	must(svc.CreateCannedReply(ctx, chat.Test, CannedReplyInput{Shortcut: Value("bye"), Title: Value("Bye"), Body: Value("Goodbye")}))
	// Live already has a reply with the shortcut "hi" and the same synonyms in another order.
	must(svc.CreateCannedReply(ctx, chat.Live, CannedReplyInput{Shortcut: Value("hi"), Title: Value("Hello"), Body: Value("Hello from live")}))
	must(svc.CreateSynonym(ctx, chat.Live, SynonymInput{Words: Value([]string{"package", "parcel"})}))

	r, err := svc.CopyTestToLive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := CopyReport{Sources: 2, Synonyms: 0, Canned: 1, SynonymsKept: 1, CannedKept: 1}
	if *r != want {
		t.Fatalf("first copy %+v, want %+v", *r, want)
	}
	sources, err := Collect(100, func(lp ListParams) (List[*chat.KnowledgeSource], error) {
		return svc.KnowledgeSources(ctx, chat.Live, lp)
	})
	if err != nil || len(sources) != 2 {
		t.Fatalf("live sources %v (%v)", sources, err)
	}
	for _, k := range sources {
		switch k.Name {
		case "Help":
			if k.URL == nil || *k.URL != "https://shop.example/help" || k.Language == nil || *k.Language != "de" || k.Status != SourcePending {
				t.Errorf("copied url source %+v", k)
			}
		case "Returns":
			if k.Content == nil || *k.Content != "Returns are free within 30 days." {
				t.Errorf("copied text source %+v", k)
			}
		default:
			t.Errorf("unexpected live source %q", k.Name)
		}
	}
	canned, err := Collect(100, func(lp ListParams) (List[*chat.CannedReply], error) { return svc.CannedReplies(ctx, chat.Live, lp) })
	if err != nil || len(canned) != 2 {
		t.Fatalf("live canned replies %v (%v)", canned, err)
	}
	for _, c := range canned {
		if c.Shortcut == "hi" && c.Body != "Hello from live" {
			t.Errorf("the live reply was overwritten: %q", c.Body)
		}
	}
	again, err := svc.CopyTestToLive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (CopyReport{SourcesKept: 2, SynonymsKept: 1, CannedKept: 2}); *again != want {
		t.Fatalf("second copy %+v, want %+v", *again, want)
	}
}
