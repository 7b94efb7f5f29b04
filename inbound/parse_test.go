package inbound_test

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"chatsvc/inbound"
)

// An HTML-only reply reads as its text, every character reference decoded,
// and a pasted screenshot (an inline image) is kept as a file.
func TestParseHTMLAndInlineImage(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// Bytes that are not UTF-8 (a raw 8-bit header, a body that lies about its
// charset) are replaced, so nothing the service stores or serves is
// invalid UTF-8.
func TestParseReplacesInvalidUTF8(t *testing.T) {
	t.Parallel()
	raw := "From: \"Ann \xff\xfe\" <ann@example.com>\r\nTo: support@example.com\r\nSubject: caf\xe9 \xc3\r\n" +
		"Message-ID: <u1@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nPrix: 5\x80 \xed\xa0\x80\r\n" +
		"--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"re\xe7u.pdf\"\r\n\r\n%PDF\r\n--b--\r\n"
	m, err := inbound.Parse([]byte(raw), inbound.Envelope{})
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]string{"subject": m.Subject, "from name": m.FromName, "text": m.Text}
	for _, f := range m.Files {
		fields["file name"] = f.Name
	}
	for name, v := range fields {
		if !utf8.ValidString(v) || !strings.ContainsRune(v, utf8.RuneError) {
			t.Errorf("%s %q: want valid UTF-8 with the bad bytes replaced", name, v)
		}
	}
}

// A References header of any length costs a bounded number of look-ups:
// the thread's first message and the newest ones are kept, with
// In-Reply-To last (tried first).
func TestParseKeepsAFewReferences(t *testing.T) {
	t.Parallel()
	var refs strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&refs, " <r%d@example.com>", i)
	}
	raw := "From: ann@example.com\r\nTo: support@example.com\r\nSubject: Re: x\r\nMessage-ID: <m@example.com>\r\n" +
		"In-Reply-To: <parent@example.com>\r\nReferences:" + refs.String() + "\r\n\r\nHello\r\n"
	m, err := inbound.Parse([]byte(raw), inbound.Envelope{})
	if err != nil {
		t.Fatal(err)
	}
	n := len(m.Refs)
	if n > 22 || m.Refs[0] != "r0@example.com" || m.Refs[n-2] != "r29999@example.com" || m.Refs[n-1] != "parent@example.com" {
		t.Fatalf("%d references kept: first %q, last %v", n, m.Refs[0], m.Refs[max(0, n-3):])
	}
}
