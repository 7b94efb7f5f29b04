package assistant_test

import (
	"embed"
	"path"
	"strings"
	"testing"

	"chatsvc/chat"
	"chatsvc/knowledge/knowledgetest"
)

// docs is a small, realistic documentation set (the product's own help
// pages) that the retrieval evaluation and the behaviour tests answer from.
//
//go:embed testdata/docs/*.md
var docs embed.FS

// docsBase is where the pages are published; a page's URL is docsBase + its name.
const docsBase = "https://docs.example.com/"

// docPages reads the documentation set as pages of one mode, available to
// all sites. The first line of each file is its title.
func docPages(t testing.TB, mode chat.Mode) []knowledgetest.Page {
	t.Helper()
	entries, err := docs.ReadDir("testdata/docs")
	if err != nil {
		t.Fatal(err)
	}
	var pages []knowledgetest.Page
	for _, e := range entries {
		raw, err := docs.ReadFile("testdata/docs/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		title, body, _ := strings.Cut(string(raw), "\n")
		name := strings.TrimSuffix(e.Name(), path.Ext(e.Name()))
		pages = append(pages, knowledgetest.Page{SourceID: "src_docs", Mode: mode, URL: docsBase + name,
			Title: strings.TrimPrefix(title, "# "), Text: body})
	}
	return pages
}

// docsIndex is the in-memory index over the documentation set, in mode.
func docsIndex(t testing.TB, mode chat.Mode) *knowledgetest.Index {
	idx := knowledgetest.New()
	for _, p := range docPages(t, mode) {
		idx.Add(p)
	}
	return idx
}
