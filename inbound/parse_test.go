package inbound_test

import (
	"io"
	"strings"
	"testing"

	"chatsvc/inbound"
)

// An HTML-only reply reads as its text, every character reference decoded,
// and a pasted screenshot (an inline image) is kept as a file.
func TestParseHTMLAndInlineImage(t *testing.T) {
	raw := strings.ReplaceAll(`From: Erin <erin@customer.test>
To: support@support.example.com
Subject: Re: charge
Message-ID: <p1@customer.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="outer"

--outer
Content-Type: multipart/related; boundary="rel"

--rel
Content-Type: text/html; charset=utf-8

<p>I don&#8217;t see the caf&eacute;&nbsp;&euro;5 charge &#x2014; see <img src="cid:s1"></p>
--rel
Content-Type: image/png; name="screen.png"
Content-Disposition: inline; filename="screen.png"
Content-ID: <s1>
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--rel--
--outer
Content-Type: application/pdf; name="invoice.pdf"
Content-Disposition: attachment; filename="invoice.pdf"
Content-Transfer-Encoding: base64

JVBERi0xLjQ=
--outer--
`, "\n", "\r\n")
	m, err := inbound.Parse([]byte(raw), inbound.Envelope{From: "erin@customer.test", Recipients: []string{"support@support.example.com"}, Known: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "I don’t see the café €5 charge — see"; m.Text != want {
		t.Errorf("text %q, want %q", m.Text, want)
	}
	var names []string
	for _, f := range m.Files {
		names = append(names, f.Name)
		if b, _ := io.ReadAll(f.Body); len(b) == 0 {
			t.Errorf("%s: no bytes", f.Name)
		}
	}
	if strings.Join(names, ",") != "screen.png,invoice.pdf" {
		t.Errorf("files %v, want the screenshot and the invoice", names)
	}
}

// The direct parent (In-Reply-To) comes last in Refs, which are tried from
// the end: it wins over an older reference to another thread.
func TestParseParentLast(t *testing.T) {
	raw := "From: erin@customer.test\r\nSubject: Re: x\r\nMessage-ID: <p2@customer.test>\r\n" +
		"In-Reply-To: <ticket.tkt_1@example.com>\r\nReferences: <ticket.tkt_2@example.com>\r\n\r\nHello\r\n"
	m, err := inbound.Parse([]byte(raw), inbound.Envelope{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Refs, " ") != "ticket.tkt_2@example.com ticket.tkt_1@example.com" {
		t.Errorf("refs %v, want the references, then the parent", m.Refs)
	}
}
