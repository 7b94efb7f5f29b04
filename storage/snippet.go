package storage

import (
	"strings"
	"unicode"
	"unicode/utf8"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// Markers FTS5's highlight() puts around each match in a searched text.
const (
	markOpen  = '\x01'
	markClose = '\x02'
)

// snippetWords is how many words a search result's snippet shows at most.
const snippetWords = 16

// snippetOf builds a search result's snippet from its text as highlight()
// marked it: at most words words around the matches, with "…" where the
// text is cut. It picks the window FTS5's snippet() picks (the most
// distinct words found, then the most matches, centred on them, or
// starting at a sentence when that scores as well), from the text the
// search has already read, where snippet() ran the match again for each
// result.
func snippetOf(marked string, words int) string {
	text, toks := tokenize(marked)
	if len(toks) <= words {
		return strings.TrimSpace(text)
	}
	// A sentence starts at the first word, and at a word after a '.' or a
	// ':' and white space.
	var sentences []int
	for i, t := range toks {
		before := strings.TrimRight(text[:t.start], " \t\n\r")
		if i == 0 || len(before) < t.start && (strings.HasSuffix(before, ".") || strings.HasSuffix(before, ":")) {
			sentences = append(sentences, i)
		}
	}
	var hits []int
	key := map[int]string{} // a match's word, stemmed: matches of one query word share it
	for i, t := range toks {
		if t.hit {
			hits = append(hits, i)
			key[i] = porterstemmer.StemString(strings.ToLower(text[t.start:t.end]))
		}
	}
	// score is FTS5's for a window of words from first: 1000 for each word
	// of the query found, 1 for each further match; and where the window
	// centred on those matches would start.
	score := func(first int) (n, centred int) {
		seen, firstHit, lastHit := map[string]bool{}, -1, 0
		for _, h := range hits {
			if h < first || h >= first+words {
				continue
			}
			if seen[key[h]] {
				n++
			} else {
				n += 1000
				seen[key[h]] = true
			}
			if firstHit < 0 {
				firstHit = h
			}
			lastHit = h + 1
		}
		return n, max(0, min(firstHit-(words-(lastHit-firstHit))/2, len(toks)-words))
	}
	best, start := 0, 0
	for _, h := range hits {
		if n, centred := score(h); n > best {
			best, start = n, centred
		}
		j := 0
		for j+1 < len(sentences) && sentences[j+1] <= h {
			j++
		}
		if s := sentences[j]; s < h {
			n, _ := score(s)
			if s == 0 {
				n += 120
			} else {
				n += 100
			}
			if n > best {
				best, start = n, s
			}
		}
	}
	// A window from a sentence's start may run past the last word: it then
	// ends with the text, as FTS5's does.
	from, last := toks[start].start, min(start+words, len(toks))-1
	var out strings.Builder
	if start > 0 {
		out.WriteString("…")
	} else {
		from = 0
	}
	if last == len(toks)-1 {
		out.WriteString(text[from:])
	} else {
		out.WriteString(text[from:toks[last].end])
		out.WriteString("…")
	}
	return strings.TrimSpace(out.String())
}

// token is a word of a searched text: where it is, and whether it matched.
type token struct {
	start, end int
	hit        bool
}

// tokenize removes highlight()'s markers from marked and splits the text
// into words as FTS5's unicode61 tokenizer does.
func tokenize(marked string) (string, []token) {
	var plain strings.Builder
	plain.Grow(len(marked))
	var toks []token
	inHit, inTok := false, false
	for _, r := range marked {
		switch r {
		case markOpen:
			inHit = true
			continue
		case markClose:
			inHit = false
			continue
		}
		at := plain.Len()
		plain.WriteRune(r)
		if !isTokenChar(r) {
			inTok = false
			continue
		}
		if !inTok {
			toks = append(toks, token{start: at, hit: inHit})
			inTok = true
		}
		toks[len(toks)-1].end = at + utf8.RuneLen(r)
	}
	return plain.String(), toks
}

// isTokenChar reports whether FTS5's unicode61 tokenizer keeps r in a word:
// letters, digits and private-use characters, by its default categories.
func isTokenChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}
