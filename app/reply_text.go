package app

import (
	"regexp"
	"strings"
)

// quoteHeader matches the line a mail client writes above the history it
// quotes ("On Mon, 2 Mar 2026 at 10:00, Support <…> wrote:", and the same
// in a few other languages), and the separators Outlook uses.
var quoteHeader = regexp.MustCompile(`(?i)^(on\b.*\bwrote:?|le\b.*\ba écrit\s?:?|am\b.*\bschrieb.*:|el\b.*\bescribió:?|op\b.*\bschreef.*:|-{2,}\s*original message\s*-{2,}|_{10,})\s*$`)

// ReplyText is what a person wrote in an e-mail reply: the text above the
// quoted history ("On … wrote:" and what follows, or lines starting with
// ">") and above a "-- " signature. A mail that is all quote is kept whole,
// so nothing sent is lost.
func ReplyText(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Split(text, "\n")
	var kept []string
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if l == "-- " || quoteHeader.MatchString(trimmed) || startsWrappedHeader(lines, i) {
			break
		}
		if strings.HasPrefix(trimmed, ">") {
			continue
		}
		kept = append(kept, strings.TrimRight(l, " \t"))
	}
	out := strings.TrimSpace(strings.Join(kept, "\n"))
	if out == "" {
		return strings.TrimSpace(text)
	}
	return out
}

// startsWrappedHeader tells whether line i and the next form an "On …
// wrote:" header that the client wrapped over two lines.
func startsWrappedHeader(lines []string, i int) bool {
	if i+1 >= len(lines) {
		return false
	}
	first := strings.TrimSpace(lines[i])
	return strings.HasPrefix(strings.ToLower(first), "on ") &&
		quoteHeader.MatchString(first+" "+strings.TrimSpace(lines[i+1]))
}
