package storage

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
	"golang.org/x/text/unicode/norm"
)

// matcher finds a query's words in a text as the full-text tables'
// tokenizer (porter over unicode61 with remove_diacritics 2) does: a word
// is a run of letters, digits and private-use characters, compared
// without case or accents and by its Porter stem. FTS5 has said which
// texts hold every word; the matcher counts and marks where, in Go, on
// the text the search has fetched, where highlight() tokenized each
// text of the window again inside SQLite.
type matcher struct {
	phrases [][]string // each query word's terms (one, unless the word splits)
	first   [256]bool  // first bytes of the terms: no other word can match
	stems   map[string]string
	buf     []byte
	words   []textWord // the words of the text being matched
}

// textWord is a word of a text: where it is, and its term ("" when its
// first letter rules out every match).
type textWord struct {
	start, end int
	term       string
}

// newMatcher reads the words of an FTS5 query as searchMatch writes it:
// quoted words separated by spaces.
func newMatcher(match string) *matcher {
	m := &matcher{stems: map[string]string{}}
	for _, f := range strings.Fields(match) {
		w, err := strconv.Unquote(f)
		if err != nil {
			w = f
		}
		var phrase []string
		eachWord(w, func(start, end int) {
			t := m.term(w[start:end])
			phrase = append(phrase, t)
			m.first[t[0]] = true
		})
		// A word given twice ("plan plans") is one word of the query.
		if len(phrase) > 0 && !slices.ContainsFunc(m.phrases, func(p []string) bool { return slices.Equal(p, phrase) }) {
			m.phrases = append(m.phrases, phrase)
		}
	}
	return m
}

// eachWord calls fn with the byte range of each word of s, as unicode61
// splits it.
func eachWord(s string, fn func(start, end int)) {
	start := -1
	for i, r := range s {
		if isTokenChar(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			fn(start, i)
			start = -1
		}
	}
	if start >= 0 {
		fn(start, len(s))
	}
}

// term is the index's term for a word of a text: folded, then stemmed.
func (m *matcher) term(word string) string {
	m.buf = fold(m.buf[:0], word)
	if t, ok := m.stems[string(m.buf)]; ok {
		return t
	}
	t := stem(string(m.buf))
	m.stems[string(m.buf)] = t
	return t
}

// fold appends word to dst in lower case without diacritics, as
// unicode61's remove_diacritics 2 folds it.
func fold(dst []byte, word string) []byte {
	ascii := true
	for i := 0; i < len(word); i++ {
		if word[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		for i := 0; i < len(word); i++ {
			c := word[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
		}
		return dst
	}
	for _, r := range norm.NFD.String(word) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// stem is FTS5's porter step for a folded word: words of ASCII letters
// from 3 to 64 bytes are stemmed, others kept as they are.
func stem(w string) string {
	if len(w) < 3 || len(w) > 64 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	return porterstemmer.StemString(w)
}

// A word's first letter is kept by folding (in ASCII) and by the Porter
// stemmer: a word that starts with no term's first byte is no match, and
// is neither folded nor looked up.
func (m *matcher) mayMatch(c byte) bool {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return c >= utf8.RuneSelf || m.first[c]
}

// matches calls fn with the byte range of each match of a query word in
// text (a word that splits into several matches where its terms follow
// one another), in order.
func (m *matcher) matches(text string, fn func(start, end int)) {
	words := m.words[:0]
	eachWord(text, func(start, end int) {
		t := ""
		if m.mayMatch(text[start]) {
			t = m.term(text[start:end])
		}
		words = append(words, textWord{start, end, t})
	})
	m.words = words
	for i := 0; i < len(words); i++ {
		for _, p := range m.phrases {
			if i+len(p) > len(words) {
				continue
			}
			ok := true
			for j, t := range p {
				if words[i+j].term != t {
					ok = false
					break
				}
			}
			if ok {
				fn(words[i].start, words[i+len(p)-1].end)
				break
			}
		}
	}
}

// count is how many times the query's words occur in text.
func (m *matcher) count(text string) int {
	n := 0
	m.matches(text, func(_, _ int) { n++ })
	return n
}

// mark puts highlight()'s markers around each match in text.
func (m *matcher) mark(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 8)
	at := 0
	m.matches(text, func(start, end int) {
		b.WriteString(text[at:start])
		b.WriteByte(markOpen)
		b.WriteString(text[start:end])
		b.WriteByte(markClose)
		at = end
	})
	b.WriteString(text[at:])
	return b.String()
}
