package knowledge

import (
	"strings"
	"sync"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
)

// maxStemCache bounds the words whose stems are remembered.
const maxStemCache = 200_000

// stemmer finds the stems the index's analyser of a language gives the
// words of a text, the fast way: ranking reads many passages per question,
// and their words repeat, so each word is stemmed once and remembered. It
// must stem as the index does, or a question's "pay" (pai) is never found
// in a title's "pay".
type stemmer struct {
	analyzer func(language string) analysis.Analyzer
	mu       sync.RWMutex
	cache    map[string]map[string]string // language → word → stem ("" for a stop word)
	size     int                          // words cached, in all languages
}

func newStemmer(analyzer func(string) analysis.Analyzer) *stemmer {
	return &stemmer{analyzer: analyzer, cache: map[string]map[string]string{}}
}

// add adds the stems of text's words, read in language, that are among
// want to into.
func (s *stemmer) add(language string, want, into map[string]bool, text string) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	var missed []string
	s.mu.RLock() // once per text: a lock per word costs more than the lookups
	cache := s.cache[language]
	for _, w := range words {
		if st, ok := cache[w]; !ok {
			missed = append(missed, w)
		} else if want[st] {
			into[st] = true
		}
	}
	s.mu.RUnlock()
	if len(missed) == 0 {
		return
	}
	an := s.analyzer(language)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache[language] == nil {
		s.cache[language] = map[string]string{}
	}
	for _, w := range missed {
		st := ""
		if ts := an.Analyze([]byte(w)); len(ts) > 0 {
			st = string(ts[0].Term)
		}
		if s.size < maxStemCache {
			s.cache[language][w] = st
			s.size++
		}
		if want[st] {
			into[st] = true
		}
	}
}

// LightStem strips common English endings, so "tickets" meets "ticket" and
// "retrying" meets "retry". It is crude on purpose: both a question and the
// text it is matched against get it, where the analyser's stems are not at hand.
func LightStem(w string) string {
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "es") && strings.ContainsAny(w[len(w)-3:len(w)-2], "sxz"):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		w = w[:len(w)-1]
	}
	return strings.TrimSuffix(w, "e")
}
