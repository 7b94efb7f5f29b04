package knowledge

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	index "github.com/blevesearch/bleve_index_api"

	"chatsvc/lang"
)

// typoField is the field whose words a misspelt word is corrected to.
const typoField = "text"

// correct returns the word of the index's vocabulary one typo away from
// word, which the index does not have (stem is its stem): one edit for a
// word of 5 to 8 letters, two from 9 (a swapped pair of letters is one
// edit), none below 5. The index holds stems, which a typo can change
// beyond recognition ("diffrence" stems to "diffrenc", "difference" to
// "differ"): a stem is also compared with the beginnings of the word of
// about its length. A typo seldom changes a word's first letter: a
// candidate keeps it ("adress" is not "dress"), as spelling checkers do.
// Of several, the commonest wins. "" when none is close.
func correct(r index.IndexReader, word, stem string) string {
	allowed := allowedEdits(word)
	fuzzy, ok := r.(index.IndexReaderFuzzy)
	if allowed == 0 || !ok {
		return ""
	}
	// Levenshtein's automaton counts a swap as two edits: ask for two, and
	// judge each candidate by the distance that counts a swap as one. The
	// candidates are the stems two edits from the word's stem and, for a
	// word of six letters or more, the stems of six letters or more that
	// begin as it does ("subscript" for "subscritpion"): a shorter stem
	// that begins as the word does ("sprai" for "spring", "word" for
	// "worst") read real words the pages lack as others they have, unless
	// the word is that stem and a misspelt ending ("align|mnet").
	best, count, dist := "", uint64(0), allowed+1
	least := 0 // the fewest letters a candidate has
	consider := func(d index.FieldDict, err error) {
		if err != nil {
			return
		}
		defer d.Close()
		for e, err := d.Next(); err == nil && e != nil; e, err = d.Next() {
			if utf8.RuneCountInString(e.Term) < least && !strings.HasPrefix(word, e.Term) {
				continue
			}
			k := typoDistance(word, stem, e.Term)
			if k > allowed || k == 0 {
				continue
			}
			if e.Count > count || e.Count == count && k < dist {
				best, count, dist = e.Term, e.Count, k
			}
		}
	}
	first, _ := utf8.DecodeRuneInString(stem)
	consider(fuzzy.FieldDictFuzzy(typoField, stem, 2, string(first)))
	if w := []rune(word); len(w) >= 6 {
		least = 6 // or a stem the word begins with, before a misspelt ending
		consider(r.FieldDictPrefix(typoField, []byte(string(w[:3]))))
	}
	return best
}

// otherForm returns the index's word that is another form of stem, a word
// no page has, in a language whose stemmer keeps a verb's forms apart from
// each other and from their noun ("liefert" and "Lieferung", "remplacez"
// and "remplacer"): the commonest stem sharing
// its beginning of at least formShare of its letters, and five or more.
// English's stemmer joins such forms itself: none there. "" when none.
func otherForm(r index.IndexReader, language, stem string) string {
	s := []rune(stem)
	need := max(5, int(math.Ceil(formShare*float64(len(s)))))
	if language == lang.English || len(s) < need {
		return ""
	}
	d, err := r.FieldDictPrefix(typoField, []byte(string(s[:need])))
	if err != nil {
		return ""
	}
	defer d.Close()
	best, count := "", uint64(0)
	for e, err := d.Next(); err == nil && e != nil; e, err = d.Next() {
		if e.Count > count {
			best, count = e.Term, e.Count
		}
	}
	return best
}

// formShare is the least share of a word's stem that another form of it
// begins with.
const formShare = 0.7

// maxSuffix is the most letters a stemmer takes off a word.
const maxSuffix = 4

// Corrects reports whether known, a word of a text, is what a misspelt
// word meant by the index's rule: one edit apart from five letters, two
// from nine, the first letter kept, never the word itself; or known is
// the code word is, written with other zeros ("E04" for "E4").
func Corrects(word, known string) bool {
	if a, b := code.FindStringSubmatch(word), code.FindStringSubmatch(known); a != nil && b != nil {
		return word != known && a[1] == b[1] && a[2] == b[2]
	}
	allowed := allowedEdits(word)
	w, _ := utf8.DecodeRuneInString(word)
	k, _ := utf8.DecodeRuneInString(known)
	if allowed == 0 || w != k || abs(utf8.RuneCountInString(word)-utf8.RuneCountInString(known)) > allowed {
		return false // no edit distance to work out
	}
	d := editDistance(word, known)
	return d > 0 && d <= allowed
}

func abs(n int) int { return max(n, -n) }

// allowedEdits is how many edits a word may be from what it meant: one
// from five letters, two from nine, none below.
func allowedEdits(word string) int {
	switch n := utf8.RuneCountInString(word); {
	case n >= 9:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

// typoDistance is how many edits part a misspelt word (and its stem) from a
// stem of the index: the least of the distances to the stem and, for a stem
// that begins with the word's first three letters, to the word's beginnings
// of about the stem's length ("diffre" is one swap from "differ"). A stem
// much shorter than the word ("bit" for "bitcoin") is no correction of it,
// nor one that only shares a beginning ("wait" for "writing").
func typoDistance(word, stem, candidate string) int {
	w, c := []rune(word), []rune(candidate)
	if len(c) >= 4 && len(w) > len(c) && string(w[:len(c)]) == candidate { // the rest must be an ending
		if misspeltEnding(string(w[len(c):]), c[len(c)-1]) {
			return 1
		}
		return math.MaxInt
	}
	best := editDistance(stem, candidate)
	if len(c) < 5 || len(w)-len(c) > maxSuffix || string(w[:3]) != string(c[:3]) {
		return best
	}
	cut := len(c) < len([]rune(stem))
	for n := len(c) - 1; n <= len(c)+1 && n <= len(w); n++ {
		if n == len(w) {
			best = min(best, editDistance(string(w[:n]), candidate))
		} else if cut {
			best = min(best, editDistance(string(w[:n]), candidate)+endingCost(string(w[n:]), c[len(c)-1]))
		}
	}
	return best
}

// endingCost is the edits the rest of a word after a misspelt beginning
// costs: none for an ending, one for a misspelt one; another word's
// letters ("subscrip|ton" is no "subscrib") cost more than any typo.
func endingCost(rest string, last rune) int {
	switch {
	case slices.Contains(endings, rest):
		return 0
	case misspeltEnding(rest, last):
		return 1
	}
	return maxSuffix
}

// misspeltEnding reports whether rest, what a word has after a stem the
// index has, is one of the endings a stemmer takes off, misspelt
// ("appoint|mnet", "subscript|on", "cancel|laton"), the stem's last letter
// doubled or not; not another word ("motor|bike"), nor an ending as it is
// spelt: the stemmer would have taken that off, so the word is another
// ("show|ers" is "shower", "real|ly" is "really").
func misspeltEnding(rest string, last rune) bool {
	r := []rune(rest)
	if len(r) > 1 && r[0] == last {
		r = r[1:]
	}
	if len(r) < 2 || slices.Contains(endings, string(r)) {
		return false
	}
	for _, e := range endings {
		if len(e) > 2 && editDistance(string(r), e) == 1 {
			return true
		}
	}
	return false
}

// endings are the endings of English words a stemmer takes off; a
// misspelt one is told by those of three letters or more ("hand|le" is
// no "hand|ly").
var endings = strings.Fields(`es ed er ly al ing est ings ion ions ation ations ition itions ment ments ement ements ness
	able ible ably ibly ally ically ity ities ive ives ative ers or ors ant ance ence ent ently antly
	ies ied ful less ous ise ize ised ized ising izing isation ization`)

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, one each.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}

// spellings are the endings British and American English spell apart
// ("customise", "customize"; "colour", "color"; "centre", "center"), each
// way: a customer in one country asks a help centre written in the other.
var spellings = [][2]string{
	{"isation", "ization"}, {"ise", "ize"}, {"ised", "ized"}, {"ises", "izes"}, {"ising", "izing"}, {"iser", "izer"},
	{"yse", "yze"}, {"ysed", "yzed"}, {"ysing", "yzing"},
	{"our", "or"}, {"ours", "ors"}, {"ourite", "orite"}, {"ourites", "orites"}, {"oured", "ored"}, {"ouring", "oring"},
	{"tre", "ter"}, {"tres", "ters"}, {"ogue", "og"}, {"ogues", "ogs"}, {"amme", "am"}, {"ammes", "ams"},
	{"ence", "ense"}, {"elled", "eled"}, {"elling", "eling"}, {"eller", "eler"},
}

// spelledApart are words the two spell apart whole, British first; the
// American word of the first ones means something else too ("check",
// "tire", "draft"), so it is not read as the British one.
var spelledApart = [][2]string{
	{"cheque", "check"}, {"cheques", "checks"}, {"tyre", "tire"}, {"tyres", "tires"}, {"draught", "draft"},
	{"grey", "gray"}, {"jewellery", "jewelry"}, {"aluminium", "aluminum"}, {"mould", "mold"}, {"pyjamas", "pajamas"},
	{"enrol", "enroll"}, {"enrolment", "enrollment"}, {"fulfil", "fulfill"}, {"ageing", "aging"},
	{"judgement", "judgment"}, {"plough", "plow"}, {"cosy", "cozy"},
}

// britishOnly is how many of spelledApart are read one way only.
const britishOnly = 5

// otherSpelling returns the stem of word spelled the other country's way
// that the index has (known gives a word's stem the index has, or ""), or
// "" when there is none.
func otherSpelling(word string, known func(string) string) string {
	w := strings.ToLower(word)
	for i, p := range spelledApart {
		if w == p[0] {
			return known(p[1])
		}
		if w == p[1] && i >= britishOnly {
			return known(p[0])
		}
	}
	for _, p := range spellings {
		for _, o := range [][2]string{p, {p[1], p[0]}} {
			if strings.HasSuffix(w, o[0]) && len(w) > len(o[0])+2 {
				if st := known(w[:len(w)-len(o[0])] + o[1]); st != "" {
					return st
				}
			}
		}
	}
	return ""
}

// code is a code of letters and a number, as error codes and models are
// written ("E4", "E04", "F12").
var code = regexp.MustCompile(`^([a-z]+)0*([0-9]+)$`)

// otherCode returns the stem of word, a code, as the index writes it with
// or without zeros before its number ("E4" for the table's "E04"), or ""
// when it writes it neither way (known gives a word's stem the index has,
// or "").
func otherCode(word string, known func(string) string) string {
	m := code.FindStringSubmatch(strings.ToLower(word))
	if m == nil {
		return ""
	}
	for zeros := range 3 {
		if w := m[1] + strings.Repeat("0", zeros) + m[2]; w != strings.ToLower(word) {
			if st := known(w); st != "" {
				return st
			}
		}
	}
	return ""
}

// misspeltFiller reports whether word, which no page has, is a filler word
// of six letters or more misspelt ("polcy" for "policy", "pleese"): a
// shorter one is too near real words ("there" and "three", "would" and
// "world").
func misspeltFiller(language, word string) bool {
	for f := range filler[language] {
		if utf8.RuneCountInString(f) >= 6 && Corrects(word, f) {
			return true
		}
	}
	return false
}
