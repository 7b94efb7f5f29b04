package web

import (
	"bytes"
	"sync"
)

// indent appends src, compact JSON as encoding/json writes it, to dst with
// the layout of json.Indent(dst, src, "", "  "). encoding/json's own
// indenting re-reads its output through the full JSON state machine, which
// profiles of list responses showed costing more than encoding them; src
// is known to be valid, so only strings need tracking here.
func indent(dst, src []byte) []byte {
	depth := 0
	open := false // after { or [: the line break waits, so empty ones stay {} and []
	inString, escaped := false, false
	for _, c := range src {
		if inString {
			dst = append(dst, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = newline(dst, depth)
		}
		switch c {
		case '"':
			inString = true
			dst = append(dst, c)
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, ':', ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newline(dst, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// buffers are reused across responses: a list response is tens of
// kilobytes, and growing fresh buffers for each showed in profiles.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for reuse; rare huge responses
// should not pin their memory.
const maxPooled = 1 << 20
