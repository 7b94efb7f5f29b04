package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// A question whether the business offers a thing ("do you teach motorbike
// lessons?", "is there wifi?", "does it measure blood pressure?",
// "repariert ihr auch E-Scooter?") is
// answered by a page that names the thing. When a word of it is on no
// page, nor a word one typo away, and has no synonym, no page answers:
// its other words ("teach", "lessons") match the pages about what the
// business does offer.
var offerAsks = map[string]*regexp.Regexp{
	"en": regexp.MustCompile(`\b(?:(?:do|does|can|could|would|will) (?:you|u|ya|ye|you guys|your team) (?:also |ever |still |even |guys )?` +
		`(?:sell|offer|do|teach|run|host|make|stock|carry|fit|repair|fix|rent|hire out|provide|supply|organi[sz]e|cater|print|engrave|build|design|groom|buy)` +
		`|(?:does|can|will|could) (?:it|this|the \w+|your \w+) (?:also |even )?(?:measure|track|monitor|detect|record|count|support|play|display|tell)` +
		`|(?:is|are) there (?:a |an |any )?)\b([^?.!,;:()]+)`),
	"de": regexp.MustCompile(`\b(?:verkauft|bietet|macht|repariert|verleiht|vermietet|organisiert|gibt es|gibts) (?:ihr |es )?(?:auch |noch )?([^?.!,;:()]+)`),
	"fr": regexp.MustCompile(`\bvous (?:vendez|proposez|faites|offrez|réparez|louez|organisez) (?:aussi |également )?([^?.!,;:()]+)`),
}

// offerEnds are the words where the thing asked for ends and the
// circumstances begin ("wifi | in the salon", "car valeting | while…").
var offerEnds = map[string]*regexp.Regexp{
	"en": ends(`at|in|on|for|while|when|if|to|from|with|near|during|so|because|where|which|that|i|we|my|our|or do|as well|too|anymore|there|here|now|today|this|next`),
	"de": ends(`in|bei|für|an|am|im|wenn|weil|mit|zu|auf|oder habt|heute|hier`),
	"fr": ends(`à|au|aux|pour|dans|chez|quand|si|avec|sur|ou est-ce|ici|aujourd'hui`),
}

// ends matches any of the words, between spaces or at the text's ends
// (\b knows no letter beyond ASCII: "für", "à").
func ends(words string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|\s)(?:` + words + `)(?:\s|$)`)
}

// Where a word stands in the thing a question asks the business to offer.
type thingRole int

const (
	notThing thingRole = iota
	thingWord
	// thingHead is the noun of a thing of several words ("vegan meals"):
	// when the thesaurus reads another of them in the pages' words, their
	// noun may differ too ("plant-based recipes").
	thingHead
)

// offered returns the words of the thing a question asks the business to
// offer, as words reads them, with their roles; nil when it asks no such
// thing.
func offered(text, language string) map[string]thingRole {
	asks := offerAsks[language]
	if asks == nil {
		return nil
	}
	t := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	m := asks.FindStringSubmatch(t)
	if m == nil {
		return nil
	}
	thing := m[1]
	if loc := offerEnds[language].FindStringIndex(thing); loc != nil {
		thing = thing[:loc[0]]
	}
	ws := words(strings.TrimSpace(thing), language)
	if len(ws) == 0 || condition[language][ws[len(ws)-1]] {
		return nil
	}
	ws = slices.DeleteFunc(ws, func(w string) bool { return vague[language][w] })
	out := map[string]thingRole{}
	for _, w := range ws {
		out[w] = thingWord
	}
	if len(ws) > 1 {
		head := ws[len(ws)-1]
		if language == "fr" { // "yoga aérien"
			head = ws[0]
		}
		out[head] = thingHead
	}
	return out
}

// condition are the words that end a thing asked for when the question
// asks about a condition of what the business does, not whether it offers
// something ("is there a mileage limit?", "is there a student discount?"):
// the page of what it does answers.
var condition = wordSets(map[string]string{"en": `limit limits fee fees charge charges cost costs price prices minimum maximum deadline
	penalty discount discounts deposit cap restriction restrictions rule rules policy age time way ways option
	options requirement requirements notice surcharge deal deals offer offers promotion promotions promo
	delay delays problem problems issue issues outage`})

// vague are the words of a thing asked for that name none ("any extra
// support", "some kind of intro", "anything regular").
var vague = wordSets(map[string]string{"en": `extra regular kind sort type types example special proper good decent cheap cheaper
	free real actual anything something some other more`})
