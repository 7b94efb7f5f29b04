package knowledge

import (
	"net/url"
	"path"
	"strings"
	"unicode"
)

// leadChars bounds the lead: a page's opening says what the page is about.
const leadChars = 300

func cutWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, ' '); i > n/2 {
		s = s[:i]
	}
	return s
}

// pathWords are the words of a URL's path, without the extension: a page
// published as /help/reset-password.html is about resetting a password.
func pathWords(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Path == "" {
		return ""
	}
	clean := strings.TrimSuffix(p.Path, path.Ext(p.Path))
	return strings.Join(strings.FieldsFunc(clean, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}
