package crawler

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
)

func TestExtractKeepsMainTextUnderItsHeadings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, html, title string
		want              []Chunk
		noindex           bool
	}{
		{
			name: "main only, frame dropped",
			html: `<html><head><title> Billing  help </title><style>p{}</style></head><body>
				<header><h1>Site name</h1><p>Tagline</p></header><nav><ul><li>Home</li></ul></nav>
				<div class="sidebar"><p>Popular posts</p></div>
				<main><h1>Billing</h1><p>Invoices are sent   monthly.</p><ul><li>Card</li><li><p>Transfer</p></li></ul>
				<h2>Refunds</h2><script>var x = "no";</script><p>Refunds take 14 days.</p></main>
				<footer><p>Copyright</p></footer><div id="cookie-banner"><p>We use cookies</p></div></body></html>`,
			title: "Billing help",
			want:  []Chunk{{"Billing", "Invoices are sent monthly.\n\nCard\n\nTransfer"}, {"Refunds", "Refunds take 14 days."}},
		},
		{
			name:  "no main: the body; no title: the first h1",
			html:  `<html><body><h1>Setup</h1><div>Install the app.</div><div><p>Then sign in.</p></div></body></html>`,
			title: "Setup",
			want:  []Chunk{{"Setup", "Install the app.\n\nThen sign in."}},
		},
		{
			name: "a table row is one paragraph, its first cell saying what the others are about",
			html: `<html><body><main><h1>Delivery</h1><table><thead><tr><td>Service</td><th>Charge</th></tr></thead>
				<tbody><tr><td>Standard</td><td><p>£4.95</p></td></tr><tr><td>Next day</td><td>£7.95</td><td></td></tr>
				<tr><td>Only one cell</td></tr></tbody></table></main></body></html>`,
			title: "Delivery",
			want:  []Chunk{{"Delivery", "Service: Charge.\n\nStandard: £4.95.\n\nNext day: £7.95.\n\nOnly one cell"}},
		},
		{
			name: "in a table of two columns whose first row names them, a cell is named by its column's header",
			html: `<html><body><main><h1>Opening hours</h1><table><tr><th>Day</th><th>Collection hours</th></tr>
				<tr><td>Monday to Friday</td><td>10:00–17:00</td></tr><tr><td>Sunday</td><td>Closed</td></tr></table></main></body></html>`,
			title: "Opening hours",
			want:  []Chunk{{"Opening hours", "Monday to Friday: Collection hours 10:00–17:00.\n\nSunday: Collection hours Closed."}},
		},
		{
			name: "in a table of three columns, a cell is named by its column's header, which is not read alone",
			html: `<html><body><main><h1>Plans</h1><table><tr><th></th><th>Solo</th><th>Team</th></tr>
				<tr><th>Monthly</th><td>£9</td><td>£19</td></tr><tr><td>Yearly</td><td></td><td>£190</td></tr></table></main></body></html>`,
			title: "Plans",
			want:  []Chunk{{"Plans", "Monthly: Solo £9; Team £19.\n\nYearly: Team £190."}},
		},
		{
			name:  "text without blocks",
			html:  `<html><head><title>T</title></head><body>Just some words</body></html>`,
			title: "T",
			want:  []Chunk{{"", "Just some words"}},
		},
		{
			name:    "noindex",
			html:    `<html><head><title>T</title><meta name="robots" content="noindex, follow"></head><body><p>x</p></body></html>`,
			title:   "T",
			want:    []Chunk{{"", "x"}},
			noindex: true,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(c.html))
			if err != nil {
				t.Fatal(err)
			}
			x := extract(doc)
			if x.title != c.title || !reflect.DeepEqual(x.chunks, c.want) || x.noindex != c.noindex {
				t.Fatalf("got title %q chunks %q noindex %v\nwant %q %q %v", x.title, x.chunks, x.noindex, c.title, c.want, c.noindex)
			}
		})
	}
}

func TestChunksStayWithinBounds(t *testing.T) {
	t.Parallel()
	para := strings.Repeat("word ", 60) // 300 characters
	huge := strings.Repeat("longword ", 700)
	md := "Intro.\n\n# One\n" + strings.Repeat(para+"\n\n", 7) + "## Two\n" + huge + "\n\n```\ncode line\n\nstill code\n```\n"
	chunks := TextChunks(md)
	if chunks[0] != (Chunk{"", "Intro."}) {
		t.Fatalf("first chunk %q", chunks[0])
	}
	var headings []string
	for _, c := range chunks {
		if n := utf8.RuneCountInString(c.Text); n > chunkMax || n == 0 {
			t.Fatalf("chunk of %d characters: %.80q", n, c.Text)
		}
		if len(headings) == 0 || headings[len(headings)-1] != c.Heading {
			headings = append(headings, c.Heading)
		}
	}
	if want := []string{"", "One", "Two"}; !reflect.DeepEqual(headings, want) {
		t.Fatalf("headings %v, want %v", headings, want)
	}
	if len(chunks) < 6 {
		t.Fatalf("%d chunks: long sections were not split", len(chunks))
	}
	if last := chunks[len(chunks)-1]; !strings.Contains(last.Text, "code line still code") || last.Heading != "Two" {
		t.Fatalf("code block %q", last)
	}
}
