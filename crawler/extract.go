package crawler

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// boilerplate matches the elements that frame a page rather than say
// something: navigation, headers and footers, sidebars, scripts, forms.
const boilerplate = `script, style, noscript, template, svg, canvas, iframe, object, form, button, select, ` +
	`nav, header, footer, aside, dialog, ` +
	`[role=navigation], [role=banner], [role=contentinfo], [role=search], [role=complementary], ` +
	`[aria-hidden=true], [hidden]`

// boilerplateName matches class names and ids of framing elements that are
// plain divs, as many sites and themes write them.
var boilerplateName = regexp.MustCompile(`(?i)(^|[\s_-])(nav|navbar|navigation|menu|sidebar|breadcrumbs?|` +
	`site-header|site-footer|footer|cookies?|cookie-banner|banner|skip-link|share|social|comments?)([\s_-]|$)`)

// blocks are the elements whose text forms paragraphs; headings start sections.
const blocks = `h1, h2, h3, h4, h5, h6, p, li, pre, blockquote, dt, dd, td, th, figcaption, div, section`

// The selectors a page is read with, compiled once: goquery's Find
// compiles its selector again at every call, once per page and, for the
// blocks, once per block.
var (
	selBase        = cascadia.MustCompile("base[href]")
	selLinks       = cascadia.MustCompile("a[href]")
	selCanonical   = cascadia.MustCompile(`link[rel="canonical" i][href]`)
	selHTML        = cascadia.MustCompile("html")
	selRobots      = cascadia.MustCompile(`meta[name="robots" i]`)
	selTitle       = cascadia.MustCompile("head title")
	selH1          = cascadia.MustCompile("h1")
	selBody        = cascadia.MustCompile("body")
	selBoilerplate = cascadia.MustCompile(boilerplate)
	selNamed       = cascadia.MustCompile("[class], [id]")
	selBlocks      = cascadia.MustCompile(blocks)
	selRow         = cascadia.MustCompile("tr")
	selCell        = cascadia.MustCompile("td, th")
	// selBlocksAndRows: a table row is read whole, as one paragraph (row).
	selBlocksAndRows = cascadia.MustCompile(blocks + ", tr")
	// selMain are the elements that hold a page's main text, the first
	// found first.
	selMain = []goquery.Matcher{cascadia.MustCompile("main"), cascadia.MustCompile("article"),
		cascadia.MustCompile("[role=main]")}
)

// extracted is what a page says, stripped of its frame.
type extracted struct {
	title    string
	chunks   []Chunk
	noindex  bool // <meta name="robots" content="noindex">
	nofollow bool // <meta name="robots" content="nofollow">
}

// row is a table row as one paragraph: its cells in order, the first
// (what the row is about) before a colon, the others apart by semicolons.
// In a table whose first row names the columns, each of the others is
// named by its column's header ("Monthly: Solo £9; Team £19", "Sunday:
// Collection hours 10:00–15:00"): a bare figure does not say what it is.
func row(tr *goquery.Selection, header []string) string {
	var cells []string
	tr.ChildrenMatcher(selCell).Each(func(i int, td *goquery.Selection) {
		t := collapse(td.Text())
		if t == "" {
			return
		}
		if i > 0 && i < len(header) && header[i] != "" && header[i] != t {
			t = header[i] + " " + t
		}
		cells = append(cells, t)
	})
	if len(cells) < 2 {
		return strings.Join(cells, "")
	}
	return cells[0] + ": " + strings.Join(cells[1:], "; ") + "."
}

// columns are the names of each table's columns, read once a table: the
// texts of its first row when that row is made only of header cells, two
// or more, and rows follow it.
type columns map[*html.Node]named

// named is a table's column names (nil without them) and the row that
// names them.
type named struct {
	names []string
	row   *html.Node
}

// of returns the column names of tr's table, and whether tr is the row
// that names them.
func (c columns) of(tr *goquery.Selection) (names []string, naming bool) {
	table := tr.Closest("table")
	if table.Length() == 0 {
		return nil, false
	}
	t, seen := c[table.Get(0)]
	if !seen {
		rows := table.FindMatcher(selRow)
		cells := rows.First().ChildrenMatcher(selCell)
		if rows.Length() > 1 && cells.Length() >= 2 && cells.Length() == cells.Filter("th").Length() {
			t = named{cells.Map(func(_ int, th *goquery.Selection) string { return collapse(th.Text()) }), rows.Get(0)}
		}
		c[table.Get(0)] = t
	}
	return t.names, t.names != nil && tr.Get(0) == t.row
}

// extract takes the title and main text of an HTML document. It reads the
// page's <main> (or <article>, or role=main) when there is one, else the
// body, after removing boilerplate; the text of innermost blocks becomes
// paragraphs, grouped into chunks under their nearest heading.
func extract(doc *goquery.Document) extracted {
	var x extracted
	robots := strings.ToLower(doc.FindMatcher(selRobots).AttrOr("content", ""))
	x.noindex = strings.Contains(robots, "noindex") || strings.Contains(robots, "none")
	x.nofollow = strings.Contains(robots, "nofollow") || strings.Contains(robots, "none")
	x.title = collapse(doc.FindMatcher(selTitle).First().Text())
	if x.title == "" {
		x.title = collapse(doc.FindMatcher(selH1).First().Text())
	}

	body := doc.FindMatcher(selBody)
	body.FindMatcher(selBoilerplate).Remove()
	body.FindMatcher(selNamed).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return boilerplateName.MatchString(s.AttrOr("class", "")) || boilerplateName.MatchString(s.AttrOr("id", ""))
	}).Remove()
	root := body
	for _, sel := range selMain {
		if m := body.FindMatcher(sel).First(); m.Length() > 0 {
			root = m
			break
		}
	}

	var c chunker
	cols := columns{}
	root.FindMatcher(selBlocksAndRows).Each(func(_ int, s *goquery.Selection) {
		tag := goquery.NodeName(s)
		switch {
		case len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6':
			c.head(collapse(s.Text()))
		case tag == "tr":
			if names, naming := cols.of(s); !naming { // the naming row is read with every other
				c.para(row(s, names))
			}
		case s.ParentsMatcher(selRow).Length() > 0:
			// read with its row: "Standard Delivery: £4.95" says what a lone "£4.95" does not
		case hasDescendant(s.Get(0), selBlocks):
			// not innermost: its inner blocks speak for it
		default:
			c.para(collapse(s.Text()))
		}
	})
	x.chunks = c.chunks()
	if len(x.chunks) == 0 { // text with no block structure at all
		x.chunks = TextChunks(root.Text())
	}
	return x
}

// hasDescendant reports whether an element below n matches m, stopping at
// the first.
func hasDescendant(n *html.Node, m cascadia.Matcher) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (m.Match(c) || hasDescendant(c, m)) {
			return true
		}
	}
	return false
}
