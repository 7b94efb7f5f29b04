// Package inbound takes e-mail in: a built-in SMTP receiver and an IMAP
// poller read messages and hand them, parsed, to app.Service.ReceiveMail,
// which decides what each one becomes.
package inbound

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html"
	"io"
	netmail "net/mail"
	"regexp"
	"strings"

	_ "github.com/emersion/go-message/charset" // bodies in the usual non-UTF-8 charsets
	"github.com/emersion/go-message/mail"

	"chatsvc/app"
)

// Envelope is what the transport says about a message: the return path
// ("" for a delivery report) and the recipients. An IMAP message has none;
// its headers stand in.
type Envelope struct {
	From       string
	Recipients []string
	Known      bool // From and Recipients came from SMTP
}

// maxRefs is how many ids of References a mail is threaded by.
const maxRefs = 20

// Parse reads a raw message into what the service needs of it.
func Parse(raw []byte, env Envelope) (app.InboundMail, error) {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil && r == nil {
		return app.InboundMail{}, err
	}
	defer r.Close()
	h := r.Header
	m := app.InboundMail{AutoSubmitted: h.Get("Auto-Submitted"), Precedence: h.Get("Precedence")}
	if m.MessageID, _ = h.MessageID(); m.MessageID == "" {
		m.MessageID = hashID(raw)
	}
	if from, err := h.AddressList("From"); err == nil && len(from) > 0 {
		m.From, m.FromName = from[0].Address, from[0].Name
	} else if a, err := netmail.ParseAddress(validUTF8(h.Get("From"))); err == nil { // raw 8-bit bytes in the name
		m.From, m.FromName = a.Address, a.Name
	}
	m.Subject, _ = h.Subject()
	// References, oldest first, then In-Reply-To, the direct parent: read
	// from the end, the parent is tried first. Each is looked up while the
	// mail is stored, so a header of thousands costs only maxRefs: the
	// thread's first message and the newest.
	refs, _ := h.MsgIDList("References")
	if len(refs) > maxRefs {
		refs = append(refs[:1:1], refs[len(refs)-maxRefs+1:]...)
	}
	parent, _ := h.MsgIDList("In-Reply-To")
	m.Refs = append(refs, parent[:min(len(parent), 1)]...)
	m.Recipients = recipients(h, env)
	m.Bounce = bounce(h, env, m.From)
	if err := readParts(r, &m); err != nil {
		return app.InboundMail{}, err
	}
	// Nothing invalid is stored or served: a header in raw 8-bit bytes, or
	// a body that lies about its charset, has its bad bytes replaced.
	for _, s := range []*string{&m.MessageID, &m.From, &m.FromName, &m.Subject, &m.Text} {
		*s = validUTF8(*s)
	}
	for i := range m.Files {
		m.Files[i].Name = validUTF8(m.Files[i].Name)
	}
	return m, nil
}

// validUTF8 is s with every byte sequence that is not UTF-8 replaced by
// U+FFFD.
func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// identity is what a message that is not taken is recorded by: its
// Message-ID (or the hash Parse names it by) and its sender, read from the
// header alone.
func identity(raw []byte) app.InboundMail {
	m := app.InboundMail{MessageID: hashID(raw)}
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return m
	}
	if id := strings.Trim(strings.TrimSpace(msg.Header.Get("Message-Id")), "<>"); id != "" {
		m.MessageID = validUTF8(id)
	}
	if a, err := netmail.ParseAddress(validUTF8(msg.Header.Get("From"))); err == nil {
		m.From = a.Address
	}
	return m
}

// hashID names a message without a Message-ID by a hash of its bytes.
func hashID(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:16]) + "@inbound.invalid"
}

// recipients are the envelope's, or the addresses the headers name.
func recipients(h mail.Header, env Envelope) []string {
	if env.Known {
		return env.Recipients
	}
	var out []string
	for _, key := range []string{"Delivered-To", "X-Original-To", "To", "Cc"} {
		list, _ := h.AddressList(key)
		for _, a := range list {
			out = append(out, a.Address)
		}
	}
	return out
}

// bounce tells a delivery report: an empty return path, a report body, or a
// mailer daemon as the author.
func bounce(h mail.Header, env Envelope, from string) bool {
	if env.Known && env.From == "" {
		return true
	}
	if rp := strings.TrimSpace(h.Get("Return-Path")); rp == "<>" {
		return true
	}
	if ct, _, _ := h.ContentType(); ct == "multipart/report" {
		return true
	}
	local, _, _ := strings.Cut(strings.ToLower(from), "@")
	return local == "mailer-daemon" || local == "postmaster"
}

// inlineName is an inline part's file name: its Content-Disposition's, its
// Content-Type's name, or what its type is.
func inlineName(h *mail.InlineHeader, params map[string]string) string {
	if _, dp, err := h.ContentDisposition(); err == nil && dp["filename"] != "" {
		return dp["filename"]
	}
	if params["name"] != "" {
		return params["name"]
	}
	return "inline"
}

// readParts takes the first plain-text part as the body (the text of the
// first HTML part when there is none) and every attachment, inline images
// included.
func readParts(r *mail.Reader, m *app.InboundMail) error {
	var html string
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			return err
		}
		switch h := p.Header.(type) {
		case *mail.InlineHeader:
			ct, params, _ := h.ContentType()
			switch {
			case ct == "text/plain" && m.Text == "":
				m.Text = string(body)
			case ct == "text/html" && html == "":
				html = string(body)
			case !strings.HasPrefix(ct, "text/"): // a pasted screenshot: a file like any other
				m.Files = append(m.Files, app.InboundFile{Name: inlineName(h, params), Body: bytes.NewReader(body)})
			}
		case *mail.AttachmentHeader:
			name, _ := h.Filename()
			m.Files = append(m.Files, app.InboundFile{Name: name, Body: bytes.NewReader(body)})
		}
	}
	if m.Text == "" {
		m.Text = htmlText(html)
	}
	return nil
}

var (
	htmlDrop  = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)>`)
	htmlBreak = regexp.MustCompile(`(?i)<(br|/p|/div|/li|/tr|/h[1-6])\b[^>]*>`)
	htmlQuote = regexp.MustCompile(`(?is)<blockquote\b.*?</blockquote>`)
	htmlTag   = regexp.MustCompile(`<[^>]*>`)
)

// htmlText is the readable text of an HTML body, quoted blocks left out,
// every character reference decoded (&eacute;, &#8217;, &nbsp; as a space).
func htmlText(body string) string {
	body = htmlDrop.ReplaceAllString(body, "")
	body = htmlQuote.ReplaceAllString(body, "")
	body = htmlBreak.ReplaceAllString(body, "\n")
	text := html.UnescapeString(htmlTag.ReplaceAllString(body, ""))
	return strings.TrimSpace(strings.ReplaceAll(text, "\u00a0", " "))
}
