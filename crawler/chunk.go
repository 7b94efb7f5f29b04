package crawler

import (
	"strings"
	"unicode/utf8"
)

// Chunk is a passage of a few paragraphs under one heading: the unit the
// assistant retrieves and cites.
type Chunk struct {
	Heading string // nearest heading above the passage ("" before the first)
	Text    string
}

// Chunk sizes in characters: a passage grows paragraph by paragraph to
// about chunkTarget and never beyond chunkMax, so it is long enough to
// answer from and short enough to quote.
const (
	chunkTarget = 900
	chunkMax    = 1500
)

// chunker gathers paragraphs into chunks, starting a new chunk at each
// heading and whenever the current one is full.
type chunker struct {
	heading string
	paras   []string
	size    int
	out     []Chunk
}

// head starts a new section.
func (c *chunker) head(h string) {
	c.flush()
	c.heading = h
}

// para adds a paragraph (whitespace already collapsed).
func (c *chunker) para(p string) {
	if p == "" {
		return
	}
	for utf8.RuneCountInString(p) > chunkMax { // one huge paragraph: cut at a word boundary
		cut := cutAt(p, chunkTarget)
		c.para(p[:cut])
		p = strings.TrimSpace(p[cut:])
	}
	n := utf8.RuneCountInString(p)
	if c.size > 0 && c.size+n > chunkMax {
		c.flush()
	}
	c.paras = append(c.paras, p)
	c.size += n + 2
	if c.size >= chunkTarget {
		c.flush()
	}
}

func (c *chunker) flush() {
	if len(c.paras) > 0 {
		c.out = append(c.out, Chunk{Heading: c.heading, Text: strings.Join(c.paras, "\n\n")})
	}
	c.paras, c.size = nil, 0
}

func (c *chunker) chunks() []Chunk {
	c.flush()
	return c.out
}

// cutAt returns a byte offset near the runes-th character, moved back to
// the last space before it when there is one.
func cutAt(s string, runes int) int {
	i, n := 0, 0
	for i < len(s) && n < runes {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		n++
	}
	if sp := strings.LastIndexByte(s[:i], ' '); sp > i/2 {
		return sp
	}
	return i
}

// collapse trims s and turns every run of white space into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// TextChunks splits text sent by the caller (Markdown) into chunks: lines
// starting with # are headings, blank lines separate paragraphs.
func TextChunks(markdown string) []Chunk {
	var c chunker
	var para []string
	end := func() {
		c.para(collapse(strings.Join(para, " ")))
		para = para[:0]
	}
	inCode := false
	for _, line := range strings.Split(strings.ReplaceAll(markdown, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"):
			inCode = !inCode
			end()
		case inCode:
			para = append(para, t)
		case t == "":
			end()
		case strings.HasPrefix(t, "#"):
			end()
			c.head(collapse(strings.TrimLeft(t, "# ")))
		default:
			para = append(para, t)
		}
	}
	end()
	return c.chunks()
}
