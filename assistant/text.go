package assistant

import (
	"strings"
	"unicode"

	"chatsvc/knowledge"
)

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

// words makes a set of the words of s.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
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
		out = append(out, knowledge.LightStem(w))
	}
	return out
}

// Gate decides which of the pages found answer a question: a page must
// have enough of the question's words (its Match) and nearly as much as
// the best page. A longer question needs less of its words covered: its
// context and its way of asking are words no page answers, so the page
// that answers it covers a smaller share of them. The gate is the same for
// every kind of knowledge: its settings are chosen across corpora of
// several shapes, each corpus's figure measured with the settings chosen
// on the others (docs/assistant.md).
type Gate struct {
	MinMatch float64 // the least knowledge.Passage.Match for a question of ten words
	PerWord  float64 // what MinMatch loses for each word beyond ten, and gains for each word short of it
	Margin   float64 // the least share of the best page's Match a cited page has
}

// DefaultGate is the gate the assistant answers with.
var DefaultGate = Gate{MinMatch: 0.35, PerWord: 0.01, Margin: 0.4}

// Cited is how many pages an answer lists at most.
const Cited = 3

// least is the least Match a page needs for the question: questions are
// counted as at least 3 and at most 25 words long.
func (g Gate) least(question string) float64 {
	n := min(max(len(strings.Fields(question)), 3), 25)
	return g.MinMatch - g.PerWord*float64(n-10)
}

// Relevant keeps, in the index's order, the passages whose page passes the
// gate for the question, at most Cited.
func (g Gate) Relevant(question string, found []knowledge.Passage) []knowledge.Passage {
	var out []knowledge.Passage
	best := 0.0
	for _, p := range found {
		best = max(best, p.Match)
	}
	least := g.least(question)
	for _, p := range found {
		if p.Match >= least && p.Match >= g.Margin*best && len(out) < Cited {
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
