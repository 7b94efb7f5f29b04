package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"chatsvc/bench/helpsite"
)

// topics are the knowledge the assistant answers from: one text source
// with a section per topic, and a visitor question for each.
var topics = []struct{ section, question string }{
	{"Billing. Invoices are sent on the first day of each month. Changing the plan takes effect at the next invoice, and unused days are credited.", "When is the invoice sent?"},
	{"Refunds. A refund is paid within five working days to the card used for the payment. Annual plans are refunded pro rata.", "How long does a refund take?"},
	{"Seats. Each team member uses one seat. Adding seats is possible at any time from the billing page; removing them applies at renewal.", "How do I add seats for my team?"},
	{"Export. Conversations and contacts can be exported as CSV from the settings page. Exports include attachments as links.", "Can I export my conversations?"},
	{"Security. Data is encrypted at rest and in transit. Two-factor sign-in can be required for the whole team.", "Is two-factor sign-in available?"},
	{"Widget. The chat widget loads asynchronously and adds about 30 kB to the page. It can be hidden on chosen pages.", "Does the widget slow down my page?"},
}

var questions = func() []string {
	q := make([]string, len(topics))
	for i, t := range topics {
		q[i] = t.question
	}
	return q
}()

// waitKnowledge creates a text knowledge source for the assistant and waits
// until it is indexed.
func waitKnowledge(base string, auth map[string]string) error {
	var text []string
	for _, t := range topics {
		text = append(text, t.section)
	}
	body, _ := json.Marshal(map[string]string{"type": "text", "name": "Help centre", "content": strings.Join(text, "\n\n")})
	c := &http.Client{Timeout: 10 * time.Second}
	var b []byte
	if err := call(c, "POST", base+"/v1/knowledge-sources", auth, string(body), 201, &b); err != nil {
		return err
	}
	var src struct{ ID, Status string }
	if err := json.Unmarshal(b, &src); err != nil {
		return err
	}
	// The server is another process and sends no signal when a source is
	// indexed: look at the source on a ticker until a deadline.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); <-tick.C {
		if err := call(c, "GET", base+"/v1/knowledge-sources/"+src.ID, auth, "", 200, &b); err != nil {
			return err
		}
		if err := json.Unmarshal(b, &src); err != nil {
			return err
		}
		switch src.Status {
		case "ready":
			return nil
		case "failed":
			return fmt.Errorf("knowledge source %s failed to index", src.ID)
		}
	}
	return fmt.Errorf("knowledge source %s not indexed within 30s", src.ID)
}

// crawlSitePages is the size of the local site the crawl rows read: a home
// page, 10 section pages and 189 pages, each linked from its section.
const crawlSitePages = 200

// serveCrawlSite serves that site on a free loopback port.
func serveCrawlSite() (url string, stop func(), err error) {
	const sections = 10
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: helpsite.Handler(sections, crawlSitePages-1-sections)}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// crawlRow creates a url source for the site at siteURL with the given
// politeness and measures pages/s from its creation until it is ready:
// the crawl and the indexing of its pages, as a team would wait for them.
func crawlRow(base string, auth map[string]string, siteURL, politeness string) (result, error) {
	name := fmt.Sprintf("crawl + index, %d-page site, %s", crawlSitePages, politeness)
	body, _ := json.Marshal(map[string]string{"type": "url", "name": "Site " + politeness, "url": siteURL + "/",
		"politeness": politeness})
	c := &http.Client{Timeout: 10 * time.Second}
	var b []byte
	began := time.Now()
	if err := call(c, "POST", base+"/v1/knowledge-sources", auth, string(body), 201, &b); err != nil {
		return result{}, err
	}
	var src struct {
		ID, Status string
		PageCount  int `json:"page_count"`
	}
	if err := json.Unmarshal(b, &src); err != nil {
		return result{}, err
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for deadline := began.Add(2 * time.Minute); time.Now().Before(deadline); <-tick.C {
		if err := call(c, "GET", base+"/v1/knowledge-sources/"+src.ID, auth, "", 200, &b); err != nil {
			return result{}, err
		}
		if err := json.Unmarshal(b, &src); err != nil {
			return result{}, err
		}
		switch src.Status {
		case "ready":
			r := result{name: name, n: src.PageCount, elapsed: time.Since(began)}
			if src.PageCount != crawlSitePages {
				r.errors = crawlSitePages - src.PageCount
			}
			logf("%s: %d pages in %v, %.0f pages/s", name, src.PageCount, r.elapsed.Round(time.Millisecond), r.rate())
			return r, nil
		case "failed":
			return result{}, fmt.Errorf("knowledge source %s failed to index", src.ID)
		}
	}
	return result{}, fmt.Errorf("knowledge source %s not indexed within 2 minutes", src.ID)
}
