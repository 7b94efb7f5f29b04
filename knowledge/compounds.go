package knowledge

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
)

// compounding are the languages that write a compound as one word
// ("Pflanzenabo": a plant subscription).
var compounding = map[string]bool{"de": true, "nl": true}

// linking are the letters German and Dutch put between a compound's parts
// ("Pflanze-n-abo", "Liefer-ungs-kosten").
var linking = []string{"", "s", "n", "en", "es", "e"}

// split reads a compound of a compounding language that the index does not
// have as two words it has: their stems, the head (the last part, what the
// compound is) last. nil when no split gives two known words of three
// letters or more.
func split(language string, an analysis.Analyzer, word string, df func(string) uint64) []string {
	if !compounding[language] {
		return nil
	}
	w := []rune(strings.ToLower(word))
	var best []string
	bestCount := uint64(0)
	for i := 3; i <= len(w)-3; i++ {
		head := stemOf(an, string(w[i:]))
		if head == "" || df(head) == 0 {
			continue
		}
		for _, link := range linking {
			left := string(w[:i])
			if !strings.HasSuffix(left, link) || len([]rune(left))-len(link) < 3 {
				continue
			}
			modifier := stemOf(an, strings.TrimSuffix(left, link))
			if modifier == "" {
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
