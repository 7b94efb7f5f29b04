package crawler

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
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

// extracted is what a page says, stripped of its frame.
type extracted struct {
	title    string
	chunks   []Chunk
	noindex  bool // <meta name="robots" content="noindex">
	nofollow bool // <meta name="robots" content="nofollow">
}

// row is a table row as one paragraph: its cells in order, the first
// (what the row is about) before a colon, the others apart by semicolons.
func row(tr *goquery.Selection) string {
	var cells []string
	tr.ChildrenFiltered("td, th").Each(func(_ int, td *goquery.Selection) {
		if t := collapse(td.Text()); t != "" {
			cells = append(cells, t)
		}
	})
	if len(cells) < 2 {
		return strings.Join(cells, "")
	}
	return cells[0] + ": " + strings.Join(cells[1:], "; ") + "."
}

// extract takes the title and main text of an HTML document. It reads the
// page's <main> (or <article>, or role=main) when there is one, else the
// body, after removing boilerplate; the text of innermost blocks becomes
// paragraphs, grouped into chunks under their nearest heading.
func extract(doc *goquery.Document) extracted {
	var x extracted
	robots := strings.ToLower(doc.Find(`meta[name="robots" i]`).AttrOr("content", ""))
	x.noindex = strings.Contains(robots, "noindex") || strings.Contains(robots, "none")
	x.nofollow = strings.Contains(robots, "nofollow") || strings.Contains(robots, "none")
	x.title = collapse(doc.Find("head title").First().Text())
	if x.title == "" {
		x.title = collapse(doc.Find("h1").First().Text())
	}

	body := doc.Find("body")
	body.Find(boilerplate).Remove()
	body.Find("[class], [id]").FilterFunction(func(_ int, s *goquery.Selection) bool {
		return boilerplateName.MatchString(s.AttrOr("class", "")) || boilerplateName.MatchString(s.AttrOr("id", ""))
	}).Remove()
	root := body
	for _, sel := range []string{"main", "article", "[role=main]"} {
		if m := body.Find(sel).First(); m.Length() > 0 {
			root = m
			break
		}
	}

	var c chunker
	root.Find(blocks + ", tr").Each(func(_ int, s *goquery.Selection) {
		tag := goquery.NodeName(s)
		switch {
		case len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6':
			c.head(collapse(s.Text()))
		case tag == "tr":
			c.para(row(s))
		case s.ParentsFiltered("tr").Length() > 0:
			// read with its row: "Standard Delivery: £4.95" says what a lone "£4.95" does not
		case s.Find(blocks).Length() > 0:
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
