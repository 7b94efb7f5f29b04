package knowledge

import (
	"regexp"
	"strings"
)

// streetAddress is a street with its number or a postcode, as a page that
// says where the business is writes it: "42 Cathedral Road",
// "Hauptstraße 5", "12 rue de la Paix", "LS6 2PF", "Portland, OR 97209".
var streetAddress = regexp.MustCompile(`\b\d+[a-z]?,? (\p{Lu}\p{Ll}+ )+(Road|Rd|Street|St|Lane|Avenue|Ave|Way|Place|Square|Close|Drive|` +
	`Row|Terrace|Boulevard|Blvd|Crescent|Parade|Quay|Wharf|Court|Park)\b|\p{Ll}(straße|str\.|weg|platz|allee|gasse) \d|` +
	`\b\d+,? (rue|avenue|boulevard|place|quai|calle|avenida) |\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b|, [A-Z]{2} \d{5}\b`)

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
	if streetAddress.MatchString(text) {
		return addressMark
	}
	return ""
}
