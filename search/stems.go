package search

import (
	"strings"
	"sync"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

// maxStemCache bounds the words whose stems are remembered.
const maxStemCache = 200_000

// stemmer finds the stems the index's English analyser gives the words of
// a text, the fast way: ranking reads many passages per question, and
// their words repeat, so each word is stemmed once and remembered. The
// analyser ("en") stems with Porter's algorithm: so must this, or a
// question's "pay" (pai) is never found in a title's "pay".
type stemmer struct {
	filter *porter.PorterStemmer
	mu     sync.RWMutex
	cache  map[string]string
}

func newStemmer() *stemmer {
	return &stemmer{filter: porter.NewPorterStemmer(), cache: map[string]string{}}
}

// add adds the stems of text's words to into.
func (s *stemmer) add(into map[string]bool, text string) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	var missed []string
	s.mu.RLock() // once per text: a lock per word costs more than the lookups
	for _, w := range words {
		if st, ok := s.cache[w]; ok {
			into[st] = true
		} else {
			missed = append(missed, w)
		}
	}
	s.mu.RUnlock()
	if len(missed) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range missed {
		st := string(s.filter.Filter(analysis.TokenStream{&analysis.Token{Term: []byte(w)}})[0].Term)
		if len(s.cache) < maxStemCache {
			s.cache[w] = st
		}
		into[st] = true
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
