package assistant_test

import (
	"context"
	"strings"
	"testing"

	"chatsvc/assistant"
	"chatsvc/knowledge"
)

// TestExtractiveQuotesTheAnsweringSentence: the sentence that answers holds
// the question's rarer words, while the others repeat the page's subject.
func TestExtractiveQuotesTheAnsweringSentence(t *testing.T) {
	refunds := knowledge.Passage{URL: "https://shop.example.com/refunds", Title: "Refunds", Text: "Refunds, refund requests and " +
		"refund notes are listed under Refunds in your account. A refund can be cancelled before the refund is sent. " +
		"The money reaches your card within 5 working days. Gift cards are never refunded."}
	other := knowledge.Passage{URL: "https://shop.example.com/cards", Title: "Payment cards", Text: "We take all major cards."}
	answers := refunds
	answers.Text = "Your account lists refund requests and notes. A refund can be cancelled before it is sent. " +
		"The money reaches your card within 5 working days. Gift cards are never refunded. Write to us with questions."
	d, err := assistant.Extractive{}.Compose(context.Background(), "How long until a refund reaches my card?", nil,
		[]knowledge.Passage{answers, other})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Known || !strings.HasPrefix(d.Body, "Refunds: ") || !strings.Contains(d.Body, "within 5 working days") ||
		strings.Contains(d.Body, "Write to us") || len(d.Used) != 2 {
		t.Fatalf("draft %+v", d)
	}
	// A question that asks how much is answered with the sentence that has a figure.
	delivery := knowledge.Passage{Title: "Delivery", Text: "Delivery happens on weekdays. Delivery is by tracked courier. " +
		"Delivery to the islands takes longer. Delivery can be to a neighbour. Orders under £50 pay £4.95."}
	if d, _ := (assistant.Extractive{}).Compose(context.Background(), "How much is delivery?", nil,
		[]knowledge.Passage{delivery}); !strings.Contains(d.Body, "£4.95") {
		t.Fatalf("how much: %q", d.Body)
	}
	// A price is an amount of money, not any figure; a how-to is answered with its step.
	for _, c := range []struct{ q, text, want string }{
		{"What does a day pass cost?", "A day pass lets you in from 07:00 to 22:00. A day pass lasts 1 day. " +
			"Under 16s need a day pass signed by 1 parent. Up to 4 guests share a locker with a day pass. A day pass is £14.50.", "£14.50"},
		{"how do I cancel my membership", "You can cancel your membership after the first 3 months. Cancelling your " +
			"membership stops the next payment. A cancelled membership ends on the last day you paid for. " +
			"In the app, go to Account → Settings → Leave Tannery.", "Account → Settings → Leave Tannery"},
	} {
		d, _ := assistant.Extractive{}.Compose(context.Background(), c.q, nil, []knowledge.Passage{{Title: "Passes", Text: c.text}})
		if !strings.Contains(d.Body, c.want) {
			t.Errorf("%q: %q", c.q, d.Body)
		}
	}
	// A question that asks for nothing in particular is answered first with
	// the sentence that holds its word and a figure.
	damaged := knowledge.Passage{Title: "Damaged items", Text: "Breakages in transit are rare. We pack every order by hand. " +
		"Breakages are sad for everyone. Other shops say so too. The courier carries it with care. Breakages we hear of in 48 hours of delivery are replaced."}
	if d, _ := (assistant.Extractive{MaxChars: 120}).Compose(context.Background(), "my carafe arrived with breakages", nil,
		[]knowledge.Passage{damaged}); !strings.Contains(d.Body, "48 hours") {
		t.Fatalf("a figure first: %q", d.Body)
	}
	// A question about when is answered with the sentence that names a day;
	// a misspelt word weighs as the sentences' word it meant.
	for _, c := range []struct{ q, text, want string }{
		{"when are the beans roasted", "Beans are roasted in Leeds. Roasted beans keep for a month. Beans are roasted to order. " +
			"We roast three days a week: Monday, Wednesday and Friday.", "Monday, Wednesday and Friday"},
		{"whats the help desk opening hours", "The desk answers e-mail within 1 working day. Priority support answers " +
			"within 4 working hours. Our desk team has 6 people. Bank holiday hours are on page 2 of the status site. " +
			"The desk moved in 2024. Phone and chat: Monday–Friday 08:00–18:00.", "08:00–18:00"},
		{"are you open saturdys", "Our clinics are open on weekdays from 8:00 to 19:00. The gym is open to patients after " +
			"their session. Reception is open an hour before the first session. On Saturday the clinic is open 8:30–14:00.", "8:30–14:00"},
		// How to reach the team is the address or the number; a discount,
		// its share off; how long a thing lasts, its figure.
		{"how can I get hold of support", "Support is there for every plan. Our support team answers in the order " +
			"messages arrive. Support is closed on bank holidays. Write to help@formlark.example or use the chat.", "help@formlark.example"},
		{"student discount?", "Students pay the same as everyone for day passes. A student card must be shown at the desk. " +
			"Students can join the evening club. Full-time students get 50% off membership.", "50% off"},
		{"do gift cards expire", "Gift cards come in any amount. Gift cards can be used online and in the shop. " +
			"Lost gift cards can be replaced. They are valid for 24 months from purchase.", "24 months"},
		// How long is a length of time, not a price; "combien de temps" is not "combien".
		{"la carte cadeau est valable combien de temps ?", "La carte cadeau va de 20 € à 300 €. Une carte cadeau " +
			"de 50 € offre 5 cours. Une carte cadeau de 90 € offre 10 cours. Une carte cadeau s'offre à 2 personnes au plus. " +
			"Elle est valable 12 mois.", "12 mois"},
		{"how long does a power flush take", "A power flush costs £420 for up to 10 radiators. A power flush of 11 " +
			"radiators or more costs £25 a radiator more. A power flush is cheaper with 2 boilers. A power flush clears " +
			"sludge from 1 system. Allow 6–8 hours for a power flush.", "6–8 hours"},
	} {
		d, _ := assistant.Extractive{}.Compose(context.Background(), c.q, nil, []knowledge.Passage{{Title: "Hours", Text: c.text}})
		if !strings.Contains(d.Body, c.want) {
			t.Errorf("%q: %q", c.q, d.Body)
		}
	}
	// A heading that asks the question is the answer's: the sentence under
	// it answers without repeating its words.
	faq := knowledge.Passage{Title: "FAQ", Heading: "Is there paid support?", Text: "No: four volunteers maintain it.",
		More:         []string{"CPython 3.9 to 3.13 and PyPy 3.10.", "Python support questions go to the forum. Versions are listed on PyPI."},
		MoreHeadings: []string{"Which Python versions are supported?", "Where do I ask?"}}
	if d, _ := (assistant.Extractive{MaxChars: 80}).Compose(context.Background(), "which python versions are supported", nil,
		[]knowledge.Passage{faq}); !strings.Contains(d.Body, "PyPy 3.10") {
		t.Fatalf("heading: %q", d.Body)
	}
	// The second page's sentence that answers much better is quoted, after
	// its title.
	if d, _ := (assistant.Extractive{}).Compose(context.Background(), "can i return unworn shoes for a refund", nil,
		[]knowledge.Passage{{Title: "Delivery", Text: "We deliver across the UK. Parcels travel by courier."},
			{Title: "Returns", Text: "Unworn shoes can be returned within 30 days for a full refund."}}); d.Body !=
		"Returns: Unworn shoes can be returned within 30 days for a full refund." {
		t.Fatalf("second page: %q", d.Body)
	}
	// A sentence that introduces a list brings its first item: the answer.
	complaints := knowledge.Passage{Title: "Complaints", Text: "We want every visit to go well. To make a complaint in " +
		"writing, you can:\n\nemail feedback@clinic.example\n\nwrite to 1 High Street. Please name the clinic."}
	if d, _ := (assistant.Extractive{}).Compose(context.Background(), "I want to make a complaint", nil,
		[]knowledge.Passage{complaints}); !strings.Contains(d.Body, "you can: email feedback@clinic.example") {
		t.Fatalf("list: %q", d.Body)
	}
	// A reply too long for every sentence picked keeps the one that answers,
	// wherever it stands on the page.
	late := knowledge.Passage{Title: "Delivery", Text: "Delivery is by tracked courier from our warehouse in Leeds to " +
		"every address in the country. Delivery can be left with a neighbour or in a safe place you name at checkout. " +
		"Delivery costs £4.95."}
	if d, _ := (assistant.Extractive{MaxChars: 120}).Compose(context.Background(), "how much does delivery cost", nil,
		[]knowledge.Passage{late}); !strings.Contains(d.Body, "£4.95") || len(d.Body) > 120 {
		t.Fatalf("bounded: %q", d.Body)
	}
	// The title is not repeated when the quoted sentence starts with it; the bound holds.
	d, _ = assistant.Extractive{MaxChars: 60}.Compose(context.Background(), "refund notes", nil, []knowledge.Passage{refunds})
	if strings.HasPrefix(d.Body, "Refunds: ") || !strings.HasPrefix(d.Body, "Refunds, refund requests") || len(d.Body) > 60+len("…") {
		t.Fatalf("bounded draft %q", d.Body)
	}
}

// The gate cites the pages that cover enough of the question and nearly as
// much as the best page, at most three. (A question of ten words needs
// MinMatch; see TestGateForgivesLongQuestions.)
func TestGateCitesPagesThatCoverTheQuestion(t *testing.T) {
	g := assistant.Gate{MinMatch: 0.35, Margin: 0.6}
	page := func(match float64) knowledge.Passage { return knowledge.Passage{Match: match} }
	for _, c := range []struct {
		name  string
		found []knowledge.Passage
		cited int
	}{
		{"covered", []knowledge.Passage{page(0.8)}, 1},
		{"just enough", []knowledge.Passage{page(0.35)}, 1},
		{"little of it anywhere", []knowledge.Passage{page(0.3)}, 0},
		{"a weaker page beside the best", []knowledge.Passage{page(0.9), page(0.6), page(0.4)}, 2},
		{"at most three", []knowledge.Passage{page(0.9), page(0.9), page(0.9), page(0.9)}, 3},
	} {
		if got := g.Relevant("a question of ten words asked by a visitor today", c.found); len(got) != c.cited {
			t.Errorf("%s: %d cited, want %d", c.name, len(got), c.cited)
		}
	}
}

// A longer question needs a smaller share of its words on the page, a
// shorter one a larger share: within 3 and 25 words.
func TestGateForgivesLongQuestions(t *testing.T) {
	g := assistant.Gate{MinMatch: 0.35, PerWord: 0.01, Margin: 0.4}
	found := []knowledge.Passage{{Match: 0.3}}
	long := "we are moving house in March and the new place is not ready until May, can we store furniture"
	for _, c := range []struct {
		question string
		cited    int
	}{
		{long, 1}, // 20 words: 0.25 is enough
		{"can we store furniture for two months", 0}, // 7 words: needs 0.38
	} {
		if got := g.Relevant(c.question, found); len(got) != c.cited {
			t.Errorf("%q: %d cited, want %d", c.question, len(got), c.cited)
		}
	}
	if got := g.Relevant("sofa?", []knowledge.Passage{{Match: 0.40}}); len(got) != 0 {
		t.Errorf("a one-word question is counted as three words and needs 0.42: %v", got)
	}
	if got := g.Relevant(strings.Repeat("word ", 60), []knowledge.Passage{{Match: 0.19}}); len(got) != 0 {
		t.Errorf("a question of sixty words is counted as 25 and needs 0.20: %v", got)
	}
}

// A question about working for the business, its plans to open somewhere
// new, how it compares with another or a member of staff by name is
// answered only from a page that speaks of it: the words around it
// ("work", "shop") match other pages.
func TestBeyondWhatHelpPagesSeldomHold(t *testing.T) {
	shop := knowledge.Passage{Title: "Visiting the shop", Text: "The shop is open 9:00–17:00. Dave and Sam work in the workshop.", Match: 0.9}
	careers := knowledge.Passage{Title: "Careers", Text: "We have no vacancies at the moment; send your CV to jobs@shop.example.", Match: 0.5}
	for _, c := range []struct {
		question string
		found    []knowledge.Passage
		beyond   bool
	}{
		{"are you hiring at the moment? I'd love to work in the shop", []knowledge.Passage{shop}, true},
		{"are you hiring at the moment? I'd love to work in the shop", []knowledge.Passage{shop, careers}, false},
		{"do you have any job openings?", []knowledge.Passage{shop, {Title: "Builds", Text: "Run parallel jobs with -j 4."}}, true},
		{"sucht ihr noch Leute? würde gern bei euch arbeiten", []knowledge.Passage{shop}, true},
		{"vous recrutez en ce moment ?", []knowledge.Passage{shop}, true},
		{"any plans to open a shop in Leeds?", []knowledge.Passage{shop}, true},
		{"Is Tom working this Saturday?", []knowledge.Passage{shop}, true},
		{"Is Dave still working in the workshop?", []knowledge.Passage{shop}, false},
		{"can I speak to Megan again, she helped me last week", []knowledge.Passage{shop}, true},
		{"is Becky in on Thursday?", []knowledge.Passage{shop}, true},
		{"est ce que Chloé travaille toujours à la boutique ?", []knowledge.Passage{shop}, true},
		{"Is Sarah from your onboarding team still there?", []knowledge.Passage{shop}, true},
		{"Is Sam from the workshop still there?", []knowledge.Passage{shop}, false},
		{"what's your favourite flower this time of year?", []knowledge.Passage{shop}, true},
		{"any black friday deals this year?", []knowledge.Passage{shop}, true},
		{"Are you opening a second shop anywhere else?", []knowledge.Passage{shop}, true},
		{"can I book in with Sam again?", []knowledge.Passage{shop}, false},
		{"Is the shop open on Saturday?", []knowledge.Passage{shop}, false},
		{"is your shop better than the one in town?", []knowledge.Passage{shop}, true},
		{"seid ihr günstiger als Amazon?", []knowledge.Passage{shop}, true},
		{"is your shop better than the one in town?", []knowledge.Passage{shop,
			{Title: "Why us", Text: "Compared with a chain store, every bike is fitted by hand."}}, false},
		{"any plans for a Notion integration?", []knowledge.Passage{shop}, true},
		{"do u buy wine? i have some old bottles from my late father's cellar", []knowledge.Passage{shop}, true},
		{"are you hirring drivers in bristol", []knowledge.Passage{shop}, true},
		{"could i speak to tom in sales please", []knowledge.Passage{shop}, true},
		{"can i use my hsa card", []knowledge.Passage{{Title: "Free trial", Text: "Try it for 30 days; your card is charged after."}}, true},
		{"paypal ok?", []knowledge.Passage{{Title: "Paying", Text: "We accept Visa and Mastercard."}}, false},
		{"support phone number?", []knowledge.Passage{{Title: "Support", Text: "Open an issue on the tracker."}}, true},
		{"support phone number?", []knowledge.Passage{{Title: "Contact", Text: "Call us on 0113 496 0000, 9:00–17:00."}}, false},
		{"is it faster than dogpile in your opinion", []knowledge.Passage{shop}, true},
		{"how does it compare to structopt", []knowledge.Passage{{Title: "Values", Text: "Compare two values with eq."}}, true},
		{"does it have a python version", []knowledge.Passage{{Title: "Install", Text: "npm install wayfetch"}}, true},
		{"can my dog come in with us", []knowledge.Passage{shop}, true},
		{"can I trade in my old bike?", []knowledge.Passage{shop,
			{Title: "Part-exchange", Text: "We take your old bike in part-exchange against a new one."}}, false},
		{"any plans for a Notion integration?", []knowledge.Passage{shop,
			{Title: "Integrations", Text: "A Notion integration is planned for next year."}}, false},
		{"are you bringing back the Christmas blend this year?", []knowledge.Passage{shop}, true},
		{"Will there be a T4 coming out next year?", []knowledge.Passage{shop}, true},
		{"when is the desktop app coming out", []knowledge.Passage{shop}, false},
		{"do you price match? found it cheaper elsewhere", []knowledge.Passage{shop}, true},
		{"do you price match? found it cheaper elsewhere", []knowledge.Passage{shop,
			{Title: "Prices", Text: "We price match any UK shop's advertised price."}}, false},
		{"do you price match REI", []knowledge.Passage{shop, {Title: "Price adjustments", Text: "We don't match competitor prices."}}, false},
		{"Can Jenna from support call me back?", []knowledge.Passage{shop}, true},
		{"is Miss Jenny still teaching the jazz class?", []knowledge.Passage{shop}, true},
		{"a technician named Dave promised to call me back", []knowledge.Passage{shop}, false},
		{"a technician named Tom promised to call me back", []knowledge.Passage{shop}, true},
		{"whats your most popular flavour", []knowledge.Passage{shop}, true},
		{"whats your most popular flavour", []knowledge.Passage{shop, {Title: "Cakes", Text: "Lemon drizzle is our most popular cake."}}, false},
		{"how many calories in a croissant", []knowledge.Passage{shop}, true},
		{"who is the lead maintainer of larder", []knowledge.Passage{shop}, true},
		{"who founded the larder foundation", []knowledge.Passage{shop}, true},
		{"is alan still the manager there", []knowledge.Passage{shop}, true},
		{"is the pharmacist Sarah working tomorrow?", []knowledge.Passage{shop}, true},
		{"is the owner Dave in today?", []knowledge.Passage{shop}, false},
		{"we had a guy called tom as the host, is he working today", []knowledge.Passage{shop}, true},
		{"can the app be switched to Polish?", []knowledge.Passage{shop}, true},
		{"how do i switch the language of the app to german", []knowledge.Passage{shop}, false},
		{"is dave still working in the workshop", []knowledge.Passage{shop}, false},
		{"can i talk to sarah again, she helped me last week", []knowledge.Passage{shop}, true},
		{"can i talk to jake, the tech who came out last week?", []knowledge.Passage{shop}, true},
		{"my account manager was called james, is he still there?", []knowledge.Passage{shop}, true},
		{"is dr patel still working there? she did my crown", []knowledge.Passage{shop}, true},
		{"do you do home visits? my dad is housebound", []knowledge.Passage{shop}, true},
		{"my boiler is leaking, can you send an engineer out today", []knowledge.Passage{shop}, true},
		{"is there anyone near me who can come out and install it for me?", []knowledge.Passage{shop}, true},
		{"can a tutor come to our house after school?", []knowledge.Passage{shop, {Title: "Lessons in your home", Text: "Our tutors travel to families across Birmingham."}}, false},
		{"can i talk to someone, my order is late", []knowledge.Passage{shop}, false},
		{"can we hire someone at acme labs to build our integration for us?", []knowledge.Passage{shop}, true},
		{"can i talk to someone from support", []knowledge.Passage{shop}, false},
		{"is it still under warranty", []knowledge.Passage{shop}, false},
		{"who owns the shop?", []knowledge.Passage{shop, {Title: "About us", Text: "A family-run shop since 1987."}}, false},
		{"who is the lead maintainer, can I email them about a bug?", []knowledge.Passage{shop}, false},
		{"can the police ask you for my footage", []knowledge.Passage{shop}, true},
		{"can the police ask you for my footage", []knowledge.Passage{shop, {Title: "Privacy", Text: "We share video with law enforcement only under a court order."}}, false},
		{"is the warehouse wheelchair accesible", []knowledge.Passage{shop}, true},
		{"is the warehouse wheelchair accesible", []knowledge.Passage{shop, {Title: "Visiting", Text: "The counter has step-free access."}}, false},
		{"Is there parking at your office?", []knowledge.Passage{shop}, true},
		{"is there anywhere to park close to the shop?", []knowledge.Passage{shop}, true},
		{"Can I park my edits for a while?", []knowledge.Passage{shop}, false},
		{"Is there parking at your office?", []knowledge.Passage{shop, {Title: "Finding us", Text: "Park in the free car park behind the shop."}}, false},
		{"is there wifi in the salon", []knowledge.Passage{shop}, true},
		{"do you give anything for referrals", []knowledge.Passage{shop}, true},
		{"do you give anything for referrals", []knowledge.Passage{shop, {Title: "Refer a friend", Text: "Refer a friend and you both get £10."}}, false},
		{"could you knit a jumper for me if i pay you", []knowledge.Passage{shop}, true},
		{"can someone from your company come out and install it for me", []knowledge.Passage{shop,
			{Title: "Pro Install", Text: "A vetted local technician installs your thermostat for you."}}, false},
		{"doorbell wont connect to wifi", []knowledge.Passage{{Title: "Connect to Wi-Fi", Text: "Hold the button until the light blinks."}}, false},
		{"do you do wholesale prices for other yarn shops", []knowledge.Passage{shop}, true},
		{"do you offer trade pricing?", []knowledge.Passage{shop, {Title: "Trade accounts", Text: "Cafés can open a trade account."}}, false},
		{"I'm a landlord, do you give a discount for several moves?", []knowledge.Passage{shop}, true},
		{"where is your office located?", []knowledge.Passage{shop}, true},
		{"where is your office located?", []knowledge.Passage{shop, {Title: "Contact", Text: "Find us at 41 Goodramgate, York."}}, false},
		{"do you ship to canada", []knowledge.Passage{shop}, true},
		{"do you ship to canada", []knowledge.Passage{shop, {Title: "Shipping", Text: "We ship to Canada in 5–8 days."}}, false},
		{"do you ship to canada", []knowledge.Passage{shop, {Title: "Shipping", Text: "We only ship within the US."}}, false},
		{"Do you ship to France?", []knowledge.Passage{shop, {Title: "Where we deliver", Text: "We can't deliver to the islands."}}, false},
		{"disk buffer vs memory buffer", []knowledge.Passage{shop}, false},
		{"can I put the app on my iphone?", []knowledge.Passage{shop}, true},
		{"how do I set up my email on my iPhone", []knowledge.Passage{shop, {Title: "Email on your devices", Text: "Open Settings.",
			More: []string{"Tap Add Account."}, MoreHeadings: []string{"iPhone and iPad"}}}, false},
		{"Can the app be switched to Polish?", []knowledge.Passage{shop}, true},
		{"les profs peuvent expliquer en anglais ?", []knowledge.Passage{shop, {Title: "Cours", Text: "Nos cours ont lieu en français et en anglais."}}, false},
		{"do you integrate with salesforse", []knowledge.Passage{shop, {Title: "Integrations", Text: "Connect Salesforce in Settings."}}, false},
		{"is it ok to meditate while pregnant", []knowledge.Passage{shop}, true},
		{"libreoffice or word, which is better", []knowledge.Passage{shop}, true},
		{"student discount?", []knowledge.Passage{shop}, true},
		{"student discount?", []knowledge.Passage{shop, {Title: "Offers", Text: "Students get 10% off with a valid card."}}, false},
		{"Do you offer any discount for pensioners?", []knowledge.Passage{shop}, true},
		{"is there a discount on the workshop?", []knowledge.Passage{shop}, false},
		{"is the big bird of paradise back in stock yet", []knowledge.Passage{shop}, true},
		{"is the big bird of paradise back in stock yet", []knowledge.Passage{shop,
			{Title: "Stock", Text: "When a plant is out of stock, press Notify me."}}, false},
		{"are there any spaces left on Saturday's course?", []knowledge.Passage{shop}, true},
		// Another product named must be on a page; so must pets, and the staff's own picks.
		{"do you integrate with quickbooks", []knowledge.Passage{shop}, true},
		{"do you integrate with quickbooks", []knowledge.Passage{shop, {Title: "Integrations", Text: "Connect QuickBooks Online in Settings."}}, false},
		{"does it work with my phone", []knowledge.Passage{shop}, false},
		// A shop in a place by name must be on a page.
		{"do you have a store in boulder i can visit", []knowledge.Passage{shop}, true},
		{"Habt ihr auch einen Laden in Berlin?", []knowledge.Passage{shop}, true},
		{"is there parking near the shop in Ashton Vale?", []knowledge.Passage{shop,
			{Title: "Parking", Text: "Our shop in Ashton Vale has six spaces."}}, false},
		{"is there a shop in the city centre", []knowledge.Passage{shop}, false},
		{"we're opening a second shop in Galway, would that cost extra?", []knowledge.Passage{shop}, false},
		{"can I bring my dog in the car during a lesson", []knowledge.Passage{shop}, true},
		{"can I bring my dog into the shop?", []knowledge.Passage{shop, {Title: "Access", Text: "Dogs on a lead are welcome."}}, false},
		// A release, a price rise, where a thing is made, a person today.
		{"when will version 5.0 be released?", []knowledge.Passage{shop}, true},
		{"when is the desktop app coming out", []knowledge.Passage{shop, {Title: "Apps", Text: "We don't make a desktop app."}}, false},
		{"are you going to raise prices next year", []knowledge.Passage{shop}, true},
		{"is your dog food made in wales", []knowledge.Passage{shop}, true},
		{"where are your shoes made", []knowledge.Passage{shop, {Title: "Our shoes", Text: "All our shoes are made in Portugal."}}, false},
		{"is Sarah from customer care on today?", []knowledge.Passage{shop}, true},
		{"is Dave in the workshop today?", []knowledge.Passage{shop}, false},
		{"Do you price match?", []knowledge.Passage{shop, {Title: "Price promise", Text: "Found it cheaper elsewhere? Our Price Promise refunds the difference."}}, false},
		{"which coffee is your personal favourite", []knowledge.Passage{shop, {Title: "Blends", Text: "Find your favourite blend."}}, true},
		{"which coffee is your personal favourite", []knowledge.Passage{shop, {Title: "Blends", Text: "Our staff picks change monthly."}}, false},
	} {
		if got := assistant.Beyond(c.question, c.found); got != c.beyond {
			t.Errorf("%q: beyond the pages %v, want %v", c.question, got, c.beyond)
		}
	}
}
