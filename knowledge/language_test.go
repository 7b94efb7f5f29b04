package knowledge

import (
	"context"
	"testing"

	"chatsvc/chat"
)

// searchPages indexes test-mode pages in a fresh index and asks it question.
func searchPages(t *testing.T, pages []Chunk, question string) []Passage {
	t.Helper()
	x, _ := openTemp(t)
	ctx := context.Background()
	for i := range pages {
		pages[i].SourceID, pages[i].Mode = "src_1", chat.Test
	}
	if err := x.Replace(ctx, "src_1", pages); err != nil {
		t.Fatal(err)
	}
	got, err := x.Search(ctx, Query{Mode: chat.Test, Text: question})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A misspelt word is read as the index's word one typo away (a swap is
// one typo), also where the typo changes its stem; a word the index has,
// or one too short to tell, is left as written.
func TestTyposAreForgiven(t *testing.T) {
	t.Parallel()
	pages := func() []Chunk {
		return []Chunk{
			{URL: "https://x.example/wifi", Title: "Connecting", Text: "Join the wireless network from the settings."},
			{URL: "https://x.example/plans", Title: "Plans", Text: "The difference between the plans is the number of users."},
			{URL: "https://x.example/mail", Title: "Mail", Text: "You will receive an e-mail."},
			{URL: "https://x.example/codes", Title: "Display codes", Text: "E04: heating fault. E05: air in the circuit."},
			{URL: "https://x.example/invite", Title: "Invites", Text: "We send an invite again on request."},
			{URL: "https://x.example/limits", Title: "Invite limits", Text: "An invite is valid for 7 days. Invites expire."},
		}
	}
	for question, want := range map[string]string{
		"how do I join the wirless network": "https://x.example/wifi",
		"whats the diffrence between plans": "https://x.example/plans",
		"when do I recieve the e-mail":      "https://x.example/mail",
		"what does E4 on the display mean":  "https://x.example/codes",  // the table writes "E04"
		"how do I resend an invite":         "https://x.example/invite", // "resend" is sending again
		"invite limits pleese":              "https://x.example/limits", // a misspelt filler word is filler
	} {
		got := searchPages(t, pages(), question)
		if len(got) == 0 || got[0].URL != want || got[0].Match < 0.6 {
			t.Errorf("%q: %+v, want %s first and matched", question, got, want)
		}
	}
	for _, c := range []struct{ word, stem, want string }{
		{"wirless", "wirless", "wireless"},
		{"bitcoin", "bitcoin", ""},                    // "bit" is not a correction of it
		{"writing", "write", ""},                      // nor "wait" ("writ" is one edit from it)
		{"teh", "teh", ""},                            // under five letters
		{"spring", "spring", ""},                      // a word the pages lack, not "spray" ("spri" is one edit from it)
		{"subscritpion", "subscritpion", "subscript"}, // a stem of six letters or more it begins like
		{"appointmnet", "appointmnet", "appoint"},     // a stem and a misspelt ending
		{"cancellaton", "cancellaton", "cancel"},      // its last letter doubled
		{"showers", "shower", ""},                     // a stem and an ending spelt right is another word
		{"motorbike", "motorbik", ""},                 // nor a stem and another word, nor "motorway"
		{"adress", "adress", ""},                      // a typo keeps the first letter: not "dress"
		{"parties", "parti", ""},                      // a stem of four letters is no word's misspelt beginning: not "park"
		{"diffrence", "diffrenc", "differ"},           // a misspelt beginning and a misspelt ending
		{"diffrwhat", "diffrwhat", ""},                // but not a misspelt beginning and another word
	} {
		x, _ := openTemp(t)
		x.Replace(context.Background(), "src_1", []Chunk{{SourceID: "src_1", Mode: chat.Test, Title: "T",
			Text: "A bit of wireless networking. It waits. Spray it. Your subscription. Book an appointment, " +
				"or cancel it. Show it. Take the motorway or a motor boat. Fancy dress is welcome. Park at the back. Spot the difference."}})
		r, _ := x.reader()
		if got := correct(r, c.word, c.stem); got != c.want {
			t.Errorf("correct(%q) = %q, want %q", c.word, got, c.want)
		}
		r.Close()
	}
}

// A German page is analysed as German, and a German question meets it
// whatever the words' endings, through its everyday synonyms and through
// the parts of a compound the index does not have, and a verb's form the
// pages do not use is read as the form they do ("liefert", "Lieferung").
func TestGermanPagesAndQuestions(t *testing.T) {
	t.Parallel()
	pages := func() []Chunk {
		return []Chunk{
			{URL: "https://x.example/rueckgabe", Title: "Rücksendungen", Lang: "de",
				Text: "Du kannst Pflanzen innerhalb von 14 Tagen zurückschicken."},
			{URL: "https://x.example/abo", Title: "Das Abo", Lang: "de",
				Text: "Jeden Monat schicken wir dir eine Pflanze. Du kannst es jederzeit kündigen."},
			{URL: "https://x.example/returns", Title: "Returns", Lang: "en", Text: "Send plants back within 14 days."},
			{URL: "https://x.example/lieferung", Title: "Lieferung in die EU", Lang: "de",
				Text: "Die Lieferung nach Österreich dauert drei bis fünf Werktage."},
			{URL: "https://x.example/zahlung", Title: "Zahlung", Lang: "de",
				Text: "Wir nehmen Karte und Überweisung."},
		}
	}
	for question, want := range map[string]string{
		"Liefert ihr auch nach Wien?":       "https://x.example/lieferung",
		"Kann ich etwas zurückschicken?":    "https://x.example/rueckgabe",
		"Wie funktioniert das Pflanzenabo?": "https://x.example/abo",
		"Wie kann ich mein Abo stornieren?": "https://x.example/abo", // stornieren ~ kündigen
		"Can I send a plant back?":          "https://x.example/returns",
		"Geht auch PayPal?":                 "https://x.example/zahlung", // a way to pay asks about paying
	} {
		got := searchPages(t, pages(), question)
		if len(got) == 0 || got[0].URL != want || got[0].Match < 0.35 {
			t.Errorf("%q: %+v, want %s first", question, got, want)
		}
	}
}

// An English word no page has is read as two words a page writes apart
// or hyphened ("secondhand" as "second-hand"), not as any two words the
// pages have ("workshops" where a page has "work" and "shops").
func TestEnglishCompoundsWrittenApart(t *testing.T) {
	t.Parallel()
	pages := func() []Chunk {
		return []Chunk{
			{URL: "https://x.example/used", Title: "Pre-owned", Text: "We sell second-hand bikes, serviced and with a warranty."},
			{URL: "https://x.example/shops", Title: "Our shops", Text: "Our two shops are open daily. We work weekends too."},
		}
	}
	got := searchPages(t, pages(), "do you sell secondhand bikes")
	if len(got) == 0 || got[0].URL != "https://x.example/used" || got[0].Match < 0.6 {
		t.Errorf("secondhand finds the second-hand page: %+v", got)
	}
	got = searchPages(t, pages(), "do you run workshops")
	if len(got) > 0 && got[0].Match >= 0.35 {
		t.Errorf("workshops is no work and shops: %+v", got)
	}
}

// A customer's context before the question's own sentence, or before its
// asking clause, does not lower the page that answers the question; a
// clause after the question is part of it.
func TestContextBeforeTheQuestion(t *testing.T) {
	t.Parallel()
	page := Chunk{URL: "https://x.example/dispatch", Title: "Dispatch times",
		Text: "Orders placed before 1pm are dispatched the same working day."}
	matchesAsWell(t, page, "When is my order dispatched?",
		"I bought a monstera for my sister's birthday on Sunday night. When is my order dispatched?")
	matchesAsWell(t, page, "When is my order dispatched?",
		"I bought a monstera for my sister's birthday on Sunday night, when is my order dispatched?")
	seite := Chunk{URL: "https://x.example/versand", Title: "Versandzeiten", Lang: "de",
		Text: "Bestellungen vor 13 Uhr werden am selben Werktag verschickt."}
	matchesAsWell(t, seite, "Wann wird meine Bestellung verschickt?",
		"Ich habe am Sonntag eine Monstera für meine Schwester gekauft, wann wird meine Bestellung verschickt?")
	for _, q := range []string{
		"When is my order dispatched, I bought a monstera for my sister's birthday on Sunday night?",
		"Honestly, when is my order dispatched for a monstera bought for my sister's birthday?",
	} {
		if f := focusWords(q, "en"); f != nil {
			t.Errorf("%q: focus %v", q, f)
		}
	}
}

// matchesAsWell checks that the page matches the question told at length
// as well as the bare question.
func matchesAsWell(t *testing.T, page Chunk, bare, told string) {
	t.Helper()
	b, l := searchPage(t, page, bare), searchPage(t, page, told)
	if len(b) == 0 || len(l) == 0 || l[0].Match < b[0].Match-0.01 {
		t.Errorf("%q: %+v; bare %q: %+v", told, l, bare, b)
	}
}

// How a question is asked in German or French ("ich möchte wissen",
// "j'aimerais savoir") is not what it is about: the match of the page that
// answers it is the same as for the bare question.
func TestAskingWordsInOtherLanguages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		page        Chunk
		bare, asked string
	}{
		{Chunk{URL: "https://x.example/lieferung", Title: "Lieferung", Lang: "de",
			Text: "Die Lieferung nach Österreich dauert drei bis fünf Werktage."},
			"Lieferung nach Österreich?", "Ich möchte gerne wissen, ob ihr eigentlich auch nach Österreich liefert, geht das?"},
		{Chunk{URL: "https://x.example/retrait", Title: "Retrait en boutique", Lang: "fr",
			Text: "Vous pouvez retirer votre commande en boutique à Bristol."},
			"retrait en boutique ?", "Bonjour, j'aimerais savoir si c'est possible de faire un retrait en boutique, je fais comment ?"},
	} {
		matchesAsWell(t, c.page, c.bare, c.asked)
	}
}

// A filler word is never one of a language's everyday words: those carry
// what a question is about.
func TestFillerIsNoEverydayWord(t *testing.T) {
	t.Parallel()
	for l, groups := range everyday {
		for _, g := range groups {
			for _, w := range g {
				if filler[l][w] {
					t.Errorf("%s: %q is both filler and in the group %v", l, w, g)
				}
			}
		}
	}
}

// The asker's circumstances ("my sister lives in Dublin", a trip to
// Thailand) are left out of a question when no page has their words, and
// matched when one does.
func TestCircumstancesNoPageHas(t *testing.T) {
	t.Parallel()
	page := Chunk{URL: "https://x.example/eu", Title: "Delivery to the EU",
		Text: "Delivery to Dublin costs £9.95 and takes 3 to 5 working days."}
	matchesAsWell(t, page, "How much is delivery to Dublin?", "My sister lives in Dublin, how much is delivery to Dublin?")
	// Nor is a plural of theirs, however spelt.
	cots := Chunk{URL: "https://x.example/family", Title: "Families", Text: "Cots are free for children up to 2 years old."}
	matchesAsWell(t, cots, "free cots?", "free cots for babys?")
	// A country the pages do not name is where the asker goes, not what they ask.
	jabs := Chunk{URL: "https://x.example/travel", Title: "Travel vaccinations", Text: "Book travel vaccinations six weeks before you fly."}
	matchesAsWell(t, jabs, "which travel vaccinations do i need", "which travel vaccinations do i need for thailand")
	gifts := Chunk{URL: "https://x.example/gifts", Title: "Birthday gifts", Text: "We wrap birthday gifts for free."}
	if got := searchPage(t, gifts, "birthday wrapping?"); len(got) == 0 || got[0].Match < 0.99 {
		t.Fatalf("a page about birthdays: %+v", got)
	}
}
