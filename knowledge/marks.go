package knowledge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// addressMark is the word a passage that gives a street address is also
// found by: the question where the business is ("where are you based?",
// "what's your address") reads as it (thesaurus.go), and the page of the
// address seldom says "address". Not "address" itself: the customer's
// own ("change my delivery address") is not the business's.
const addressMark = "whereabouts"

// isMark reports whether stem is the stem of a mark.
func isMark(stem string) bool { return strings.HasPrefix(stem, "whereabout") }

// marks are the words a passage is also found by for what it holds
// rather than what it says.
func marks(text string) string {
	if holdsAddress(text) {
		return addressMark
	}
	return ""
}

// streetKinds are the last word of a street's name ("42 Cathedral Road").
var streetKinds = wordSet(`Road Rd Street St Lane Avenue Ave Way Place Square Close Drive Row Terrace Boulevard Blvd
	Crescent Parade Quay Wharf Court Park`)

// streetsBefore are the words a street's name begins with where its number
// comes first ("12 rue de la Paix", "5 calle Mayor").
var streetsBefore = wordSet(`rue avenue boulevard place quai calle avenida`)

// holdsAddress reports whether text gives a street address or a postcode,
// as a page that says where the business is writes it: "42 Cathedral
// Road", "Hauptstraße 5", "12 rue de la Paix", "LS6 2PF", "Portland, OR
// 97209". It reads the words one by one: a regular expression of these
// forms cost a fifth of indexing's time.
func holdsAddress(text string) bool {
	if !strings.ContainsAny(text, "0123456789") {
		return false
	}
	ws := strings.Fields(text)
	for i, w := range ws {
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		switch {
		case ukPostcode(w, strings.TrimRight(next, ".,;)")),
			len(w) == 2 && isUpper(w) && i > 0 && strings.HasSuffix(ws[i-1], ",") && isDigits(strings.TrimRight(next, ".,;)"), 5),
			germanStreet(w) && next != "" && isDigit(next[0]):
			return true
		case houseNumber(w):
			if streetsBefore[next] {
				return true
			}
			for j := i + 1; j < len(ws) && j <= i+5 && capitalised(ws[j]); j++ {
				if j > i+1 && streetKinds[strings.TrimRight(ws[j], ".,;)")] {
					return true
				}
			}
		}
	}
	return false
}

// ukPostcode reports whether a and b are a British postcode's halves ("LS6", "2PF").
func ukPostcode(a, b string) bool {
	if len(a) < 2 || len(a) > 4 || len(b) != 3 || !isDigit(b[0]) || !isUpper(b[1:]) {
		return false
	}
	letters := len(a) - len(strings.TrimLeft(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
	return letters >= 1 && letters <= 2 && isDigit(a[letters]) &&
		strings.IndexFunc(a[letters:], func(r rune) bool { return !unicode.IsDigit(r) && !unicode.IsUpper(r) }) < 0
}

// germanStreet reports whether w names a German street ("Hauptstraße").
func germanStreet(w string) bool {
	for _, end := range []string{"straße", "str.", "weg", "platz", "allee", "gasse"} {
		if len(w) > len(end) && strings.HasSuffix(w, end) {
			return true
		}
	}
	return false
}

// houseNumber reports whether w is a house's number ("42", "7a", "12,").
func houseNumber(w string) bool {
	w = strings.TrimSuffix(w, ",")
	if w != "" && w[len(w)-1] >= 'a' && w[len(w)-1] <= 'z' {
		w = w[:len(w)-1]
	}
	return w != "" && len(w) <= 5 && isDigits(w, len(w))
}

func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isUpper(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < 'A' || r > 'Z' }) < 0
}

// isDigits reports whether s is n digits.
func isDigits(s string, n int) bool {
	return len(s) == n && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}
