package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Redacted replaces personal data that erasure finds in free text.
const Redacted = "[redacted]"

// DeleteContact erases a contact, in one transaction: the contact is
// deleted; its conversations (those linked to it, and the unlinked ones its
// tickets came from) are unlinked from it (and from the visitor's browser)
// and lose its name, e-mail address and phone number wherever they appear
// (message authors and bodies, subject, metadata, internal notes,
// attachment names), and their page URLs (and its visitors') lose their
// query string and fragment; its tickets lose them from subject,
// description, metadata and tags; e-mails to it not yet sent are dropped
// and those sent keep no address or content; stored idempotent responses
// that name it are removed; and the stored events of all these objects are
// scrubbed the same way. The conversations and tickets themselves stay,
// but the files the person sent (with their messages, or uploaded and not
// yet sent) are deleted. See docs/privacy.md.
func (s *Service) DeleteContact(ctx context.Context, mode chat.Mode, id string) (*Deleted, error) {
	// The hashes of the files the person sent, removed from the store
	// once the transaction is done and nothing else holds them.
	sent, err := writeResult(ctx, s, func(q *storage.Q) ([]string, error) {
		c, err := q.Contact(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("contact", id))
		}
		return eraseContact(ctx, q, mode, c)
	})
	if err != nil {
		return nil, err
	}
	if err := s.removeUnheldFiles(ctx, sent); err != nil {
		return nil, err
	}
	return &Deleted{ID: id, Object: "contact", Deleted: true}, nil
}

// eraseContact is DeleteContact's transaction; it returns the hashes of the
// files the person sent, whose rows it deleted.
func eraseContact(ctx context.Context, q *storage.Q, mode chat.Mode, c *chat.Contact) ([]string, error) {
	id := c.ID
	r := newRedactor(c)
	convs, tickets, err := heldAbout(ctx, q, mode, id)
	if err != nil {
		return nil, err
	}
	sent, err := eraseVisitors(ctx, q, r, mode, convs)
	if err != nil {
		return nil, err
	}
	for _, conv := range convs {
		hashes, err := eraseConversation(ctx, q, r, conv)
		if err != nil {
			return nil, err
		}
		sent = append(sent, hashes...)
	}
	return sent, eraseContactRest(ctx, q, r, mode, c, tickets)
}

// eraseContactRest erases the person from tickets, mail, pushes, stored
// responses and events, and deletes the contact.
func eraseContactRest(ctx context.Context, q *storage.Q, r *redactor, mode chat.Mode, c *chat.Contact, tickets []*chat.Ticket) error {
	id := c.ID
	for _, t := range tickets {
		if err := eraseTicket(ctx, q, r, t); err != nil {
			return err
		}
	}
	if err := q.ForgetMessageAuthor(ctx, id); err != nil {
		return err
	}
	if err := q.EraseMailsOf(ctx, id); err != nil {
		return err
	}
	if err := eraseTeamMails(ctx, q, r, mode); err != nil {
		return err
	}
	if err := erasePushes(ctx, q, r); err != nil {
		return err
	}
	if c.Email != nil {
		if err := q.ForgetInboundSender(ctx, lower(*c.Email)); err != nil {
			return err
		}
	}
	if err := eraseStoredResponses(ctx, q, r, mode); err != nil {
		return err
	}
	// The contact's own events keep only that it existed.
	gone, _ := json.Marshal(Deleted{ID: id, Object: "contact", Deleted: true})
	if err := rewriteEvents(ctx, q, id, func(json.RawMessage) (json.RawMessage, error) { return gone, nil }); err != nil {
		return err
	}
	return q.DeleteContact(ctx, mode, id)
}

// heldAbout lists a contact's conversations and tickets in mode: the
// conversations linked to it, and the unlinked ones its tickets came from
// (a conversation linked to someone else stays theirs).
func heldAbout(ctx context.Context, q *storage.Q, mode chat.Mode, id string) ([]*chat.Conversation, []*chat.Ticket, error) {
	convs, err := q.ConversationsOfContact(ctx, mode, id)
	if err != nil {
		return nil, nil, err
	}
	all, err := q.TicketsOfContact(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, conv := range convs {
		seen[conv.ID] = true
	}
	var tickets []*chat.Ticket
	for _, t := range all {
		if t.Mode != mode {
			continue
		}
		tickets = append(tickets, t)
		if t.ConversationID == nil || seen[*t.ConversationID] {
			continue
		}
		conv, err := q.Conversation(ctx, mode, *t.ConversationID)
		if isNotFound(err) {
			continue
		} else if err != nil {
			return nil, nil, err
		}
		seen[conv.ID] = true
		if conv.ContactID == nil {
			convs = append(convs, conv)
		}
	}
	return convs, tickets, nil
}

// eraseVisitors scrubs the page last seen of the contact's visitors and
// of the browsers its conversations came from, and deletes the files they
// uploaded and did not send; it returns those files' hashes.
func eraseVisitors(ctx context.Context, q *storage.Q, r *redactor, mode chat.Mode, convs []*chat.Conversation) ([]string, error) {
	vs, err := q.VisitorsOfContact(ctx, mode, r.contactID)
	if err != nil {
		return nil, err
	}
	for _, c := range convs {
		if c.VisitorID == nil {
			continue
		}
		v, err := q.Visitor(ctx, mode, *c.VisitorID)
		if isNotFound(err) {
			continue
		} else if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	ids := make([]string, len(vs))
	for i, v := range vs {
		ids[i] = v.ID
		if err := q.SetVisitorPageURL(ctx, mode, v.ID, r.pageURL(v.PageURL)); err != nil {
			return nil, err
		}
	}
	return q.DeleteUploadsOf(ctx, mode, ids)
}

// eraseStoredResponses removes the responses kept for Idempotency-Keys that
// name the contact (its id, or its personal data), so that no replay
// returns them.
func eraseStoredResponses(ctx context.Context, q *storage.Q, r *redactor, mode chat.Mode) error {
	stored, err := q.StoredResponses(ctx, mode)
	if err != nil {
		return err
	}
	for _, s := range stored {
		if !bytes.Contains(s.Body, []byte(r.contactID)) && !r.finds(string(s.Body)) {
			continue
		}
		if err := q.EraseStoredResponse(ctx, mode, s.Key); err != nil {
			return err
		}
	}
	return nil
}

// eraseConversation scrubs a conversation of the person and deletes the
// files they sent in it; it returns those files' hashes.
func eraseConversation(ctx context.Context, q *storage.Q, r *redactor, c *chat.Conversation) ([]string, error) {
	c.PageURL = r.pageURL(c.PageURL)
	c.Subject = r.ptr(c.Subject)
	c.Metadata = r.metadata(c.Metadata)
	if c.Rating != nil {
		c.Rating.Comment = r.ptr(c.Rating.Comment)
	}
	if err := q.ScrubConversation(ctx, c); err != nil {
		return nil, err
	}
	if tags := r.tags(c.Tags); !slices.Equal(tags, c.Tags) {
		c.Tags = tags
		if err := q.SetConversationTags(ctx, c); err != nil {
			return nil, err
		}
	}
	if err := rewriteEvents(ctx, q, c.ID, r.event); err != nil {
		return nil, err
	}
	msgs, err := q.AllMessages(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	var sent []string
	for _, m := range msgs {
		if m.Author.Type == chat.AuthorContact && len(m.Files) > 0 {
			hashes, err := q.DropMessageFiles(ctx, m.ID)
			if err != nil {
				return nil, err
			}
			sent, m.Files = append(sent, hashes...), nil
		}
		m.Body = r.authored(&m.Author, m.Body)
		for i := range m.Files {
			if name := r.str(m.Files[i].Name); name != m.Files[i].Name {
				m.Files[i].Name = name
				if err := q.RenameAttachment(ctx, m.Files[i].ID, name); err != nil {
					return nil, err
				}
			}
		}
		if err := q.ScrubMessage(ctx, m); err != nil {
			return nil, err
		}
		if err := rewriteEvents(ctx, q, m.ID, r.event); err != nil {
			return nil, err
		}
	}
	notes, err := q.Notes(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		if body := r.str(n.Body); body != n.Body {
			if err := q.SetNoteBody(ctx, n.ID, body); err != nil {
				return nil, err
			}
		}
	}
	return sent, nil
}

// erasePushes scrubs the person out of the pushes queued for the team (a
// new message's first words). Pushes have no mode: they are few, and all
// are read.
func erasePushes(ctx context.Context, q *storage.Q, r *redactor) error {
	pushes, err := q.QueuedPushes(ctx)
	if err != nil {
		return err
	}
	for id, payload := range pushes {
		if !r.finds(payload) {
			continue
		}
		scrubbed, err := r.event(json.RawMessage(payload))
		if err != nil {
			return err
		}
		if err := q.SetPushPayload(ctx, id, string(scrubbed)); err != nil {
			return err
		}
	}
	return nil
}

// eraseTeamMails scrubs the person out of the team's e-mails, sent or not
// (an alert quoting the conversation's first words).
func eraseTeamMails(ctx context.Context, q *storage.Q, r *redactor, mode chat.Mode) error {
	mails, err := q.TeamMails(ctx, mode)
	if err != nil {
		return err
	}
	for _, m := range mails {
		if !r.finds(string(m.Data)) {
			continue
		}
		data, err := r.event(m.Data)
		if err != nil {
			return err
		}
		if err := q.SetMailData(ctx, m.ID, data); err != nil {
			return err
		}
	}
	return nil
}

// tags are the labels with the person's data removed, without repeats.
func (r *redactor) tags(in []string) []string {
	out := make([]string, len(in))
	for i, tag := range in {
		out[i] = r.str(tag)
	}
	return dedupe(out)
}

func eraseTicket(ctx context.Context, q *storage.Q, r *redactor, t *chat.Ticket) error {
	t.Subject = r.str(t.Subject)
	t.Description = r.ptr(t.Description)
	t.Metadata = r.metadata(t.Metadata)
	t.Tags = r.tags(t.Tags)
	if err := q.UpdateTicket(ctx, t, true); err != nil {
		return err
	}
	if err := eraseComments(ctx, q, r, t.ID); err != nil {
		return err
	}
	return rewriteEvents(ctx, q, t.ID, r.event)
}

// authored forgets the contact as an author and returns body without the
// person's data.
func (r *redactor) authored(a *chat.Author, body string) string {
	if a.Type == chat.AuthorContact {
		a.ID, a.Name = nil, nil
	}
	return r.str(body)
}

// eraseComments scrubs a ticket's comments as messages are: the contact's
// own comments lose their author, every body and file name the person's data.
func eraseComments(ctx context.Context, q *storage.Q, r *redactor, ticketID string) error {
	cs, err := q.TicketComments(ctx, ticketID, storage.Page{Limit: -1})
	if err != nil {
		return err
	}
	for _, c := range cs {
		c.Body = r.authored(&c.Author, c.Body)
		for i := range c.Files {
			c.Files[i].Name = r.str(c.Files[i].Name)
		}
		if err := q.ScrubTicketComment(ctx, c); err != nil {
			return err
		}
		if err := rewriteEvents(ctx, q, c.ID, r.event); err != nil {
			return err
		}
	}
	return nil
}

// rewriteEvents replaces the stored data of every event about objectID.
func rewriteEvents(ctx context.Context, q *storage.Q, objectID string, fn func(json.RawMessage) (json.RawMessage, error)) error {
	evs, err := q.EventsOf(ctx, objectID)
	if err != nil {
		return err
	}
	for _, ev := range evs {
		data, err := fn(ev.Data)
		if err != nil {
			return err
		}
		if err := q.SetEventData(ctx, ev.Seq, data); err != nil {
			return err
		}
	}
	return nil
}

// redactor finds one contact's personal data in text.
type redactor struct {
	contactID string
	patterns  []*regexp.Regexp
}

// newRedactor looks for the contact's e-mail address (any case), full name
// (any case and spacing) and each word of it of three letters or more,
// phone number (its digits, whatever separators are written between them)
// and external_id; each also as a URL writes it (ada%40example.com,
// Ada+Lovelace), since page URLs and pasted links carry them encoded.
func newRedactor(c *chat.Contact) *redactor {
	r := &redactor{contactID: c.ID}
	add := func(expr string) { r.patterns = append(r.patterns, regexp.MustCompile(expr)) }
	if c.Email != nil && *c.Email != "" {
		add(`(?i)` + anyEncoding(*c.Email))
	}
	// Whole values before the words of the name: "user-gauss-77" goes as
	// one, not as "user-[redacted]-77".
	if c.ExternalID != nil && utf8.RuneCountInString(*c.ExternalID) >= 3 {
		add(anyEncoding(*c.ExternalID))
	}
	if c.Name != nil {
		if words := strings.Fields(*c.Name); len(words) > 0 {
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = anyEncoding(w)
			}
			add(`(?i)` + strings.Join(quoted, urlSpace))
			for _, w := range words {
				if utf8.RuneCountInString(strings.TrimFunc(w, isPunct)) >= 3 {
					add(`(?i)(^|[^\pL\pN])` + anyEncoding(strings.TrimFunc(w, isPunct)) + `($|[^\pL\pN])`)
				}
			}
		}
	}
	if c.Phone != nil {
		var digits []string
		for _, ch := range *c.Phone {
			if ch >= '0' && ch <= '9' {
				digits = append(digits, string(ch))
			}
		}
		if len(digits) >= 5 { // shorter runs of digits are not a phone number worth the false hits
			add(`(?i)(?:\+|%2B)?` + strings.Join(digits, `(?:[\s\-./()+]|%20|%2[BF]|%28|%29)*`))
		}
		if strings.TrimSpace(*c.Phone) != "" {
			add(`(?i)` + anyEncoding(strings.TrimSpace(*c.Phone)))
		}
	}
	return r
}

// urlSpace matches the space between words, written plainly or in a URL.
const urlSpace = `(?:\s|\+|%20)+`

// anyEncoding matches s as written, or as a query string or a path encodes it.
func anyEncoding(s string) string {
	forms := []string{regexp.QuoteMeta(s)}
	for _, enc := range []string{url.QueryEscape(s), url.PathEscape(s)} {
		if q := regexp.QuoteMeta(enc); enc != s && !slices.Contains(forms, q) {
			forms = append(forms, q)
		}
	}
	if len(forms) == 1 {
		return forms[0]
	}
	return `(?:` + strings.Join(forms, `|`) + `)`
}

func isPunct(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }

// str replaces every match in s with Redacted; the separators that the
// word patterns match around a name are kept.
func (r *redactor) str(s string) string {
	for _, p := range r.patterns {
		if p.NumSubexp() == 2 {
			s = p.ReplaceAllString(s, "${1}"+Redacted+"${2}")
			s = p.ReplaceAllString(s, "${1}"+Redacted+"${2}") // overlapping neighbours ("Ada Ada")
			continue
		}
		s = p.ReplaceAllLiteralString(s, Redacted)
	}
	return s
}

// finds reports whether s holds any of the contact's personal data.
func (r *redactor) finds(s string) bool {
	for _, p := range r.patterns {
		if p.MatchString(s) {
			return true
		}
	}
	return false
}

// pageURL keeps of a page address its origin and path, with the contact's
// data redacted from the path: query strings and fragments are where
// forms and sign-in links put e-mail addresses and names, so they go.
func (r *redactor) pageURL(u string) string {
	if k := strings.IndexAny(u, "?#"); k >= 0 {
		u = u[:k]
	}
	return r.str(u)
}

func (r *redactor) ptr(s *string) *string {
	if s == nil {
		return nil
	}
	v := r.str(*s)
	return &v
}

// metadata redacts values and drops keys that hold personal data.
func (r *redactor) metadata(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if r.str(k) != k {
			continue
		}
		out[k] = r.str(v)
	}
	return out
}

// event scrubs the stored object of an event about a conversation, message
// or ticket: every string is redacted, a conversation loses its contact_id
// and a visitor's message its author.
func (r *redactor) event(data json.RawMessage) (json.RawMessage, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers come back as written
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	v = r.walk(v)
	if obj, ok := v.(map[string]any); ok {
		switch obj["object"] {
		case "conversation":
			obj["contact_id"] = nil
			if u, ok := obj["page_url"].(string); ok {
				obj["page_url"] = r.pageURL(u)
			}
			if tags, ok := obj["tags"].([]any); ok { // as the conversation keeps them: without repeats
				obj["tags"] = dedupe(tags)
			}
		case "ticket_comment":
			if a, ok := obj["author"].(map[string]any); ok && a["type"] == chat.AuthorContact {
				a["id"], a["name"] = nil, nil
			}
		case "message":
			if a, ok := obj["author"].(map[string]any); ok && a["type"] == chat.AuthorContact {
				a["id"], a["name"] = nil, nil
				obj["attachments"] = []any{} // the person's files are deleted
			}
			// The name is also in the download URL, escaped. The URL's
			// signature dies with it; DeliveryPayload signs a new one.
			atts, _ := obj["attachments"].([]any)
			for _, a := range atts {
				if a, ok := a.(map[string]any); ok {
					u, _ := a["url"].(string)
					name, _ := a["name"].(string)
					a["url"] = renameInURL(u, name)
				}
			}
		}
	}
	return json.Marshal(v)
}

// renameInURL puts name in place of the last path segment of a file URL.
func renameInURL(u, name string) string {
	query := ""
	if k := strings.IndexByte(u, '?'); k >= 0 {
		u, query = u[:k], u[k:]
	}
	j := strings.LastIndexByte(u, '/')
	if j < 0 || !strings.Contains(u[:j], "/files/") {
		return u + query
	}
	return u[:j+1] + url.PathEscape(name) + query
}

func (r *redactor) walk(v any) any {
	switch x := v.(type) {
	case string:
		return r.str(x)
	case []any:
		for i := range x {
			x[i] = r.walk(x[i])
		}
	case map[string]any:
		for k, e := range x {
			if r.str(k) != k {
				delete(x, k)
				continue
			}
			x[k] = r.walk(e)
		}
	}
	return v
}
