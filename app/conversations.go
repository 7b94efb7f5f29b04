package app

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Conversation returns a conversation, or a NotFound error.
func (s *Service) Conversation(ctx context.Context, mode chat.Mode, id string) (*chat.Conversation, error) {
	c, err := s.db.Read().Conversation(ctx, mode, id)
	return c, found(err, noSuch("conversation", id))
}

// statusNames are the statuses a conversation list filters by.
var statusNames = func() []string {
	out := make([]string, len(chat.Statuses))
	for i, st := range chat.Statuses {
		out[i] = string(st)
	}
	return out
}()

// ConversationQuery is the filter of GET /conversations, as received.
type ConversationQuery struct {
	Status, SiteID, ContactID string
	Rated                     string // "true", "false" or "" (either)
	Tag                       string // only conversations bearing it
	AssigneeID                string // a member id, or "none" for the unassigned
	ListParams
}

// Conversations lists conversations newest first.
func (s *Service) Conversations(ctx context.Context, mode chat.Mode, in ConversationQuery) (List[*chat.Conversation], error) {
	pg, err := in.page()
	if err != nil {
		return List[*chat.Conversation]{}, err
	}
	if in.Status != "" {
		if err := oneOf("status", in.Status, statusNames...); err != nil {
			return List[*chat.Conversation]{}, err
		}
	}
	f := storage.ConversationFilter{Mode: mode, Status: in.Status, SiteID: in.SiteID, ContactID: in.ContactID,
		Tag: in.Tag, AssigneeID: in.AssigneeID, Page: pg}
	if in.Rated != "" {
		if err := oneOf("rated", in.Rated, "true", "false"); err != nil {
			return List[*chat.Conversation]{}, err
		}
		rated := in.Rated == "true"
		f.Rated = &rated
	}
	rows, err := s.db.Read().Conversations(ctx, f)
	if err != nil {
		return List[*chat.Conversation]{}, err
	}
	return makeList(rows, pg, func(c *chat.Conversation) chat.Cursor {
		return chat.Cursor{Key: int64(c.CreatedAt), ID: c.ID}
	}), nil
}

// ConversationUpdate is the body of PATCH /conversations/{id}.
type ConversationUpdate struct {
	AssigneeID Field[string]
	Metadata   Field[map[string]*string]
	Tags       Field[[]string] // replaces the tags
}

// Conversation tag limits.
const (
	MaxConversationTags = 10
	MaxTagLength        = 50
)

// UpdateConversation assigns a conversation, changes its metadata or
// replaces its tags.
func (s *Service) UpdateConversation(ctx context.Context, mode chat.Mode, id string, in ConversationUpdate) (*chat.Conversation, error) {
	if in.Tags.Set {
		if err := checkConversationTags(in.Tags.V); err != nil {
			return nil, err
		}
	}
	return writeNamed(ctx, s, "update conversation "+id, func(q *storage.Q) (*chat.Conversation, error) {
		c, err := q.Conversation(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("conversation", id))
		}
		if in.AssigneeID.Set {
			if in.AssigneeID.has() {
				if err := member(ctx, q, "assignee_id", in.AssigneeID.V); err != nil {
					return nil, err
				}
			}
			c.AssigneeID = in.AssigneeID.ptr()
		}
		if in.Metadata.has() {
			if c.Metadata, err = mergeMetadata("metadata", c.Metadata, in.Metadata.V); err != nil {
				return nil, err
			}
		}
		c.UpdatedAt = s.stamp()
		if err := q.UpdateConversation(ctx, c); err != nil || !in.Tags.Set {
			return c, err
		}
		c.Tags = dedupe(in.Tags.V)
		return c, q.SetConversationTags(ctx, c)
	})
}

// checkConversationTags refuses more than MaxConversationTags tags, and
// empty or over-long ones, naming the tag at fault.
func checkConversationTags(tags []string) error {
	if len(tags) > MaxConversationTags {
		return invalid("tags", "A conversation can have at most %d tags.", MaxConversationTags)
	}
	for i, t := range tags {
		if err := checkLen("tags."+strconv.Itoa(i), strings.TrimSpace(t), MaxTagLength, true); err != nil {
			return err
		}
	}
	return nil
}

// Handoff is the body of POST /conversations/{id}/handoff.
type Handoff struct {
	AssigneeID Field[string]
	Note       Field[string]
}

// HandOff moves a conversation to a person: to `handed_off` when an
// assignee is given, else to `waiting`. The assistant stops answering.
func (s *Service) HandOff(ctx context.Context, mode chat.Mode, id string, in Handoff) (*chat.Conversation, error) {
	// The note is a note like any other (AddNote), with the same limit.
	if err := checkLen("note", strings.TrimSpace(in.Note.V), MaxMessageBody, false); err != nil {
		return nil, err
	}
	return writeNamed(ctx, s, "hand off conversation "+id, func(q *storage.Q) (*chat.Conversation, error) {
		return s.handOff(ctx, q, mode, id, in)
	})
}

// handOff is HandOff in the caller's transaction.
func (s *Service) handOff(ctx context.Context, q *storage.Q, mode chat.Mode, id string, in Handoff) (*chat.Conversation, error) {
	c, err := q.Conversation(ctx, mode, id)
	if err != nil {
		return nil, found(err, noSuch("conversation", id))
	}
	t := chat.HandOff
	if in.AssigneeID.has() {
		t = chat.HandOffTo
		// A closed conversation is refused before the assignee is looked at.
		if !chat.NextStatus(c.Status, t).Refused {
			if err := member(ctx, q, "assignee_id", in.AssigneeID.V); err != nil {
				return nil, err
			}
		}
	}
	now := s.stamp()
	if _, err := s.transition(ctx, q, c, t, now, moveInput{member: in.AssigneeID.ptr()}); err != nil {
		return nil, err
	}
	if in.Note.has() && strings.TrimSpace(in.Note.V) != "" {
		err := q.InsertNote(ctx, &chat.Note{ID: NewID(PrefixNote), Mode: mode, ConversationID: c.ID,
			AuthorID: in.AssigneeID.ptr(), Body: in.Note.V, CreatedAt: now})
		if err != nil {
			return nil, named(err, "add the hand-off note")
		}
	}
	return c, nil
}

// Close closes a conversation. Closing a closed one changes nothing.
func (s *Service) Close(ctx context.Context, mode chat.Mode, id string) (*chat.Conversation, error) {
	return writeNamed(ctx, s, "close conversation "+id, func(q *storage.Q) (*chat.Conversation, error) {
		c, err := q.Conversation(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("conversation", id))
		}
		_, err = s.transition(ctx, q, c, chat.Close, s.stamp(), moveInput{})
		return c, err
	})
}

func closedErr(id string) *Error {
	return &Error{Kind: Conflict, Code: CodeConversationClosed,
		Message: "Conversation " + id + " is closed; a visitor's next message starts a new one."}
}

// VisitorStart is a visitor's first message, which opens a conversation.
type VisitorStart struct {
	SiteID    string
	VisitorID string
	PageURL   string
	ContactID string
	Body      string
	Files     []chat.StoredFile // the visitor's uploads the message sends
}

// StartConversation opens a conversation with the visitor's first message
// and records conversation.created and message.created.
func (s *Service) StartConversation(ctx context.Context, mode chat.Mode, in VisitorStart) (*chat.Conversation, *chat.Message, error) {
	if err := checkLen("body", in.Body, MaxMessageBody, true); err != nil {
		return nil, nil, err
	}
	type started struct {
		conv *chat.Conversation
		msg  *chat.Message
	}
	out, err := writeResult(ctx, s, func(q *storage.Q) (started, error) {
		if _, err := q.Site(ctx, in.SiteID); err != nil {
			return started{}, found(err, noSuchRef("site_id", "site", in.SiteID))
		}
		conv, msg, err := s.startConversation(ctx, q, mode, in, s.stamp())
		return started{conv, msg}, err
	})
	return out.conv, out.msg, err
}

// startConversation does StartConversation's work in the caller's
// transaction, for a site known to exist.
func (s *Service) startConversation(ctx context.Context, q *storage.Q, mode chat.Mode, in VisitorStart,
	now chat.Timestamp) (*chat.Conversation, *chat.Message, error) {
	conv := &chat.Conversation{ID: NewID(PrefixConversation), Mode: mode,
		SiteID: in.SiteID, Status: chat.StatusOpen, PageURL: in.PageURL, Metadata: map[string]string{}, Tags: []string{},
		Subject: subjectOf(in.Body), LastMessageAt: now, CreatedAt: now, UpdatedAt: now}
	if in.VisitorID != "" {
		conv.VisitorID = &in.VisitorID
	}
	if in.ContactID != "" {
		conv.ContactID = &in.ContactID
	}
	author, err := contactAuthor(ctx, q, mode, conv.ContactID)
	if err != nil {
		return nil, nil, err
	}
	// The conversation is stored with its first message counted, and
	// conversation.created comes before that message's message.created.
	conv.MessageCount = 1
	if err := q.InsertConversation(ctx, conv); err != nil {
		return nil, nil, err
	}
	if err := s.emit(ctx, q, mode, chat.EventConversationCreated, conv.ID, conv, now); err != nil {
		return nil, nil, err
	}
	msg, err := s.insertMessage(ctx, q, mode, conv.ID, author, in.Body, nil, in.Files, now)
	return conv, msg, err
}

// contactAuthor is the author of a visitor's message: the contact, with
// the name it has now, once the visitor is known as one.
func contactAuthor(ctx context.Context, q *storage.Q, mode chat.Mode, contactID *string) (chat.Author, error) {
	a := chat.Author{Type: chat.AuthorContact, ID: contactID}
	if contactID == nil {
		return a, nil
	}
	ct, err := q.Contact(ctx, mode, *contactID)
	if errors.Is(err, storage.ErrNotFound) {
		return a, nil
	}
	if err != nil {
		return a, err
	}
	a.Name = ct.Name
	return a, nil
}

// subjectOf makes a short subject from a first message: its first sentence
// that is more than a greeting, cut at a word boundary to 80 characters.
func subjectOf(body string) *string {
	text := strings.Join(strings.Fields(body), " ")
	for {
		first, rest := firstSentence(text)
		if rest == "" || !greeting(first) {
			text = first
			break
		}
		text = rest // "Hi! Do you ship to Canada?" is about shipping
	}
	if r := []rune(text); len(r) > 80 {
		r = r[:80]
		if i := lastSpace(r); i > 40 {
			r = r[:i]
		}
		text = strings.TrimRight(string(r), " ,;:") + "…"
	}
	if text == "" {
		return nil
	}
	return &text
}

// firstSentence splits text after its first sentence (ended by . ? or !
// before a space).
func firstSentence(text string) (first, rest string) {
	for i := 0; i+1 < len(text); i++ {
		if strings.IndexByte(".?!", text[i]) >= 0 && text[i+1] == ' ' {
			return text[:i+1], text[i+2:]
		}
	}
	return text, ""
}

// greeting tells a sentence that only greets ("Hi!", "Hello there.",
// "Good morning team!"), which says nothing of what a conversation is about.
func greeting(sentence string) bool {
	words := strings.Fields(strings.ToLower(strings.Trim(sentence, ".!?, ")))
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	for _, w := range words {
		if !greetingWords[strings.Trim(w, ",")] {
			return false
		}
	}
	return true
}

var greetingWords = map[string]bool{"hi": true, "hello": true, "hey": true, "hiya": true, "there": true, "good": true,
	"morning": true, "afternoon": true, "evening": true, "dear": true, "team": true, "all": true, "everyone": true,
	"folks": true, "guys": true, "greetings": true, "hallo": true, "moin": true, "bonjour": true, "hola": true,
	"hoi": true, "ciao": true, "salut": true, "guten": true, "tag": true, "morgen": true, "buenos": true, "días": true}

func lastSpace(r []rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == ' ' {
			return i
		}
	}
	return -1
}
