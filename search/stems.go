package search

import (
	"strings"
	"sync"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// maxStemCache bounds the words whose stems are remembered.
const maxStemCache = 200_000

// stemmer finds the stems the index's English analyser gives the words of
// a text, the fast way: ranking reads many passages per question, and
// their words repeat, so each word is stemmed once and remembered.
type stemmer struct {
	filter *en.EnglishStemmerFilter
	mu     sync.RWMutex
	cache  map[string]string
}

func newStemmer() *stemmer {
	return &stemmer{filter: en.NewEnglishStemmerFilter(), cache: map[string]string{}}
}

// add adds the stems of text's words to into.
func (s *stemmer) add(into map[string]bool, text string) {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		into[s.stem(w)] = true
	}
}

func (s *stemmer) stem(w string) string {
	s.mu.RLock()
	st, ok := s.cache[w]
	s.mu.RUnlock()
	if ok {
		return st
	}
	out := s.filter.Filter(analysis.TokenStream{&analysis.Token{Term: []byte(w)}})
	st = string(out[0].Term)
	s.mu.Lock()
	if len(s.cache) < maxStemCache {
		s.cache[w] = st
	}
	s.mu.Unlock()
	return st
}
