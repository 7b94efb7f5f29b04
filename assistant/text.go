package assistant

import (
	"regexp"
	"strings"
	"unicode"

	"chatsvc/search"
)

// askPerson matches messages that ask for a person rather than an answer.
var askPerson = []*regexp.Regexp{
	regexp.MustCompile(`\b(talk|speak|chat|connect|put) (me )?(to|with|through to) (a |an |the |some |your )?(human|person|people|someone|somebody|agent|representative|operator|staff|team|support)\b`),
	regexp.MustCompile(`\b(real|actual|live) (person|human|agent|people)\b`),
	regexp.MustCompile(`\b(want|need|get|give|request|see)( me)?( to talk to| to speak to)? (a |an )?(human|person|agent|representative|operator)\b`),
	regexp.MustCompile(`^\W*(human|agent|person|operator|representative|talk to someone)\W*(please)?\W*$`),
	regexp.MustCompile(`\bare you (a )?(bot|robot|human)\b.*\b(human|person)\b`),
}

// AsksForPerson reports whether a message asks to talk to a person.
func AsksForPerson(text string) bool {
	t := strings.ToLower(strings.Join(strings.Fields(text), " "))
	for _, re := range askPerson {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

var greetings = map[string]bool{"hi": true, "hello": true, "hey": true, "hallo": true, "good": true,
	"morning": true, "afternoon": true, "evening": true, "there": true, "yo": true, "hiya": true}

// isGreeting reports whether a message only says hello.
func isGreeting(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	for _, w := range words {
		if !greetings[w] {
			return false
		}
	}
	return true
}

// thanks are the words of a visitor who thanks or says goodbye; closing
// says one of them is there.
var (
	thanks = map[string]bool{"thanks": true, "thank": true, "you": true, "thx": true, "ty": true, "cheers": true,
		"bye": true, "goodbye": true, "ok": true, "okay": true, "great": true, "perfect": true, "awesome": true,
		"cool": true, "got": true, "it": true, "that": true, "helps": true, "helped": true, "very": true, "much": true,
		"so": true, "a": true, "lot": true, "many": true, "for": true, "the": true, "help": true, "all": true, "see": true, "ya": true}
	closing = map[string]bool{"thanks": true, "thank": true, "thx": true, "ty": true, "cheers": true, "bye": true, "goodbye": true}
)

// isThanks reports whether a message only thanks or says goodbye: no
// question for the pages, and no gap in them.
func isThanks(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 || len(words) > 8 {
		return false
	}
	closes := false
	for _, w := range words {
		if !thanks[w] {
			return false
		}
		closes = closes || closing[w]
	}
	return closes
}

// stop words carry no meaning for matching a question to a passage.
var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if then else of to in on at by for with from into
		about as is are was were be been being do does did doing done have has had having can could
		will would shall should may might must i me my we our you your it its this that these those
		there here what which who whom whose when where why how not no yes so than too very just
		also any all some each every much many more most other such only own same get got make
		please thanks thank hi hello hey ok okay up out over under again once both few nor
		they them their he she his her him us am let lets want need like know tell use used using
		long take takes way work works happen happens mean means possible able find go goes going
		someone something anything thing things question ask asking help`) {
		stop[w] = true
	}
}

// Terms splits text into its content words, lower-cased and lightly stemmed.
func Terms(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := words[:0]
	for _, w := range words {
		if stop[w] || len(w) < 2 {
			continue
		}
		out = append(out, search.LightStem(w))
	}
	return out
}

// MinMatch is the least share of a question's words (weighted by rarity,
// synonyms counting; search.Passage.Match) that a page must have for the
// assistant to answer from it: below it, it says it does not know. It was
// calibrated on the development evaluation (docs/assistant.md).
const MinMatch = 0.35

// MinMatchTeam is the match a page needs to answer a question about the
// team rather than about its product: its prices, orders, hours, offices,
// phone. Help pages mention such words in passing ("the cost of a
// command", "two hours of history"); an answer to them must come from a
// page about them, or from a person.
const MinMatchTeam = 0.6

// addressed matches questions put to the team ("do you ship…", "your
// office"); teamTopic the words of dealings with the team: buying, paying,
// delivery, one's account, working there. "How do you…" asks how a thing
// is done, and is left out before matching.
var (
	addressed = regexp.MustCompile(`\b(your|yours|from you|with you)\b|\b(do|can|will|are|could|would) you\b`)
	teamTopic = regexp.MustCompile(`\b(prices?|pricing|costs?|fees?|refunds?|subscriptions?|billing|invoices?|receipts?|` +
		`discounts?|coupons?|vouchers?|gift cards?|free trial|trial|warranty|shipping|ship|delivery|phone|offices?|hours|` +
		`purchased?|bought|buy|payments?|pay|paypal|credit cards?|parcels?|shipments?|tracking number|my orders?|ordering|` +
		`my account|my plan|newsletter|job openings?|hiring|careers?|vacanc(y|ies)|shops?|personal data|privacy|vat|resellers?)\b`)
	howDoYou = regexp.MustCompile(`\bhow (do|can|would|could|will) you\b`)
)

// teamQuestion reads whether question is about the team (addressed to it,
// or about dealings with it), and the dealings it names, each as its terms.
func teamQuestion(question string) (team bool, topics [][]string) {
	q := howDoYou.ReplaceAllString(strings.ToLower(question), "how")
	for _, m := range teamTopic.FindAllString(q, -1) {
		topics = append(topics, Terms(m))
	}
	return len(topics) > 0 || addressed.MatchString(q), topics
}

// aboutTopic reports whether a passage's page title or heading names
// dealings with the team ("Delivery FAQ") or holds all the terms of one of
// the question's topics: the page is about them, rather than mentioning
// them.
func aboutTopic(p search.Passage, topics [][]string) bool {
	title := p.Title + " " + p.Heading
	if teamTopic.MatchString(strings.ToLower(title)) {
		return true
	}
	has := map[string]bool{}
	for _, t := range Terms(title) {
		has[t] = true
	}
	for _, topic := range topics {
		all := len(topic) > 0
		for _, t := range topic {
			all = all && has[t]
		}
		if all {
			return true
		}
	}
	return false
}

// Cited is how many pages an answer lists at most.
const Cited = 3

// CitedMargin: a page is cited beside the best one only when it matches
// at least this share of what the best one matches.
const CitedMargin = 0.6

// Relevant keeps, in the index's order, the passages whose page matches
// enough of the question and nearly as much as the best, at most Cited. A
// question about the team needs a closer match, and one that names
// dealings with the team (a refund, a delivery) a page about them.
func Relevant(question string, found []search.Passage) []search.Passage {
	least := MinMatch
	team, topics := teamQuestion(question)
	if team {
		least = MinMatchTeam
	}
	var out []search.Passage
	best := 0.0
	for _, p := range found {
		best = max(best, p.Match)
	}
	for _, p := range found {
		if p.Match >= least && p.Match >= CitedMargin*best && len(out) < Cited && (len(topics) == 0 || aboutTopic(p, topics)) {
			out = append(out, p)
		}
	}
	return out
}

// sentences splits text into sentences at . ! or ? followed by a space or
// a line break, and at blank lines.
func sentences(text string) []string {
	var out []string
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.Join(strings.Fields(para), " ")
		start := 0
		for i := 0; i < len(para); i++ {
			if strings.IndexByte(".!?", para[i]) >= 0 && (i+1 == len(para) || para[i+1] == ' ') {
				if s := strings.TrimSpace(para[start : i+1]); s != "" {
					out = append(out, s)
				}
				start = i + 1
			}
		}
		if s := strings.TrimSpace(para[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}
