package search

import (
	"net/url"
	"path"
	"strings"
	"unicode"
)

// leadChars bounds the lead: a page's opening says what the page is about.
const leadChars = 300

// leads remembers the first passage of the page being read; the chunks of
// a page come one after the other.
type leads struct {
	page, lead string
}

// of returns the lead of c's page: its first chunk's text, cut short.
func (l *leads) of(c Chunk) string {
	key := c.SourceID + "\x00" + c.URL + "\x00" + c.Title
	if key != l.page {
		l.page, l.lead = key, cutWords(c.Text, leadChars)
	}
	return l.lead
}

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
