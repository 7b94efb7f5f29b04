package knowledge

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
)

// compounding are the languages that write a compound as one word
// ("Pflanzenabo": a plant subscription), with the fewest letters of a
// part: English writes some as one word, some as two, some hyphened
// ("secondhand", "second-hand"), and its short words begin too many
// others ("pre|sent", "part|ner", "fri|day").
var compounding = map[string]int{"de": 3, "nl": 3, "en": 4}

// joined are the languages whose compounds have no letters between parts
// and that also write them apart: a split must be found written so
// ("workshops" is no work and shops, "second-hand" is secondhand).
var joined = map[string]bool{"en": true}

// linking are the letters German and Dutch put between a compound's parts
// ("Pflanze-n-abo", "Liefer-ungs-kosten").
var linking = []string{"", "s", "n", "en", "es", "e"}

// split reads a compound of a compounding language that the index does not
// have as two words it has: their stems, the head (the last part, what the
// compound is) last. nil when no split gives two known words of the
// language's least letters or more (and, where compounds are also written
// apart, that apart reports a page writes so).
func split(language string, an analysis.Analyzer, word string, df func(string) uint64, apart func(left, right string) bool) []string {
	least := compounding[language]
	if least == 0 {
		return nil
	}
	w := []rune(strings.ToLower(word))
	var best []string
	bestCount := uint64(0)
	for i := least; i <= len(w)-least; i++ {
		head := stemOf(an, string(w[i:]))
		if head == "" || df(head) == 0 {
			continue
		}
		for _, link := range linking {
			left := string(w[:i])
			if joined[language] && link != "" || !strings.HasSuffix(left, link) || len([]rune(left))-len(link) < least {
				continue
			}
			modifier := stemOf(an, strings.TrimSuffix(left, link))
			if modifier == "" || joined[language] && !apart(left, string(w[i:])) {
				continue
			}
			if n := min(df(modifier), df(head)); n > bestCount {
				best, bestCount = []string{modifier, head}, n
			}
		}
	}
	return best
}

// stemOf is the analyser's stem of one word, "" for a stop word.
func stemOf(an analysis.Analyzer, word string) string {
	if ts := an.Analyze([]byte(word)); len(ts) == 1 {
		return string(ts[0].Term)
	}
	return ""
}

// redone returns the stem of an English verb that no page has with "re"
// before it, when the pages have the verb alone: "resend" is sending
// again, "reinstall" installing. "" otherwise.
func redone(language string, an analysis.Analyzer, word string, df func(string) uint64) string {
	w := strings.TrimPrefix(strings.ToLower(word), "re")
	w = strings.TrimPrefix(w, "-")
	if language != "en" || len(w) == len(word) || len(w) < 4 {
		return ""
	}
	if st := stemOf(an, w); st != "" && df(st) > 0 {
		return st
	}
	return ""
}
