// Package knowledge is the assistant's knowledge index: chunks of the team's
// pages, searchable by site and mode. The index is derived data, rebuilt
// from the database by `chatsvc reindex`.
package knowledge

import (
	"context"

	"chatsvc/chat"
)

// Query asks for the pages best matching Text among the sources of one
// site plus the all-site sources, in one mode: the best passage of each.
type Query struct {
	Mode   chat.Mode
	SiteID string // "" searches only all-site sources
	Text   string
	Limit  int // pages at most
	// Lang is the question's language (lang.Supported); "" detects it
	// from Text.
	Lang string
	// Synonyms are the team's groups of words or expressions that mean the
	// same to its customers ("stash", "put aside"), searched like the
	// built-in thesaurus's, before it.
	Synonyms [][]string
}

// MorePassages is how many further chunks of a page a Passage carries.
const MorePassages = 6

// Passage is one indexed chunk of a page, with where it came from.
type Passage struct {
	SourceID string
	URL      string // the page's canonical URL ("" for text sources)
	Title    string // the page's (or text source's) title
	Heading  string // the nearest heading above the chunk
	Text     string
	// More are the texts of the page's next best matching chunks, best
	// first (at most MorePassages): the answer may be a few lines further.
	More []string
	// MoreHeadings are the headings above More's chunks, in its order.
	MoreHeadings []string
	Lang         string  // the page's language
	Score        float64 // the page's rank: higher is better; comparable within one result only
	// Match is the share of the question's words (weighted by rarity, a
	// synonym counting) that the passage's page has: 0 to 1.
	Match float64
}

// Searcher finds passages. The bleve index implements it; the assistant
// depends only on this.
type Searcher interface {
	Search(ctx context.Context, q Query) ([]Passage, error)
}
