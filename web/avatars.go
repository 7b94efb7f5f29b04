package web

import (
	"strings"
	"unicode"
)

// initials are the avatar of a person or the assistant: the first letters
// of the first and last words of name, upper-cased ("Ada Lovelace" → "AL",
// "ada@example.com" → "A"). The avatar is drawn from them with no image
// fetched from elsewhere.
func initials(name string) string {
	name, _, _ = strings.Cut(name, "@")
	words := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return "?"
	}
	first := []rune(words[0])[:1]
	if len(words) == 1 {
		return strings.ToUpper(string(first))
	}
	return strings.ToUpper(string(first) + string([]rune(words[len(words)-1])[:1]))
}
