package app

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/storage"
)

// DefaultInboundPerSender is how many e-mails one sender may send in an
// hour before more are refused for now.
const DefaultInboundPerSender = 30

// What became of an inbound e-mail.
const (
	InboundComment     = "comment"      // a public contact comment on its ticket
	InboundMessage     = "message"      // a contact message in the conversation a missed-reply e-mail was about
	InboundTicket      = "ticket"       // a new ticket
	InboundDuplicate   = "duplicate"    // its Message-ID was taken in before
	InboundAutoReply   = "auto_reply"   // Auto-Submitted or Precedence says no person wrote it
	InboundBounce      = "bounce"       // a delivery report
	InboundOwn         = "own"          // one of the service's own e-mails came back
	InboundNoSender    = "no_sender"    // no usable From address
	InboundRateLimited = "rate_limited" // the sender sent too much this hour; not recorded
	InboundTeamReply   = "team_reply"   // an answer to a notification to the team: nothing to file

	// Refused for good (RefusedMailError); recorded for a polled mailbox.
	InboundAttachmentTooLarge = "attachment_too_large" // an attachment over attachments.max_bytes
	InboundTooLarge           = "too_large"            // over inbound.max_bytes (SMTP refuses it unread)
	InboundUnreadable         = "unreadable"           // not a message that can be parsed
)

// InboundMail is an e-mail as the receivers (SMTP, IMAP) parsed it.
type InboundMail struct {
	MessageID     string   // without angle brackets; the receiver makes one up when missing
	From          string   // the author's address
	FromName      string   // the author's display name
	Recipients    []string // envelope recipients, or To and Cc
	Subject       string
	Refs          []string // References then In-Reply-To (the newest last), without angle brackets
	AutoSubmitted string
	Precedence    string
	Bounce        bool   // a delivery status report, or an empty return path
	Text          string // the plain-text body (text taken from HTML when there is none)
	Files         []InboundFile
	// Checkpoint, when set, is saved in the same transaction as what the
	// e-mail became: a poller's position, so no message is taken twice.
	Checkpoint *Setting
}

// InboundFile is an attachment of an inbound e-mail.
type InboundFile = FileInput

// Setting is a key and value of the settings table.
type Setting struct{ Key, Value string }

// ErrInboundFiles is returned when an e-mail's attachments cannot be kept
// for now (a disk failure, no file store).
var ErrInboundFiles = errors.New("the attachments could not be stored")

// RefusedMailError is returned for an e-mail that can never be taken as it
// is: trying it again cannot help, so a receiver refuses it for good.
type RefusedMailError struct {
	Outcome string // why, as an Inbound… outcome
	Limit   int64  // the limit it broke, in bytes
}

func (e *RefusedMailError) Error() string {
	return fmt.Sprintf("An attachment is larger than the %d bytes this service keeps", e.Limit)
}

// RefuseInbound records an e-mail refused for good (why, as outcome) and
// moves a poller past it, in one transaction.
func (s *Service) RefuseInbound(ctx context.Context, m InboundMail, outcome string) error {
	return s.db.Write(ctx, func(q *storage.Q) error {
		if err := saveCheckpoint(ctx, q, m.Checkpoint); err != nil {
			return err
		}
		_, err := q.InsertInboundMail(ctx, &storage.InboundMail{MessageID: m.MessageID, Sender: lower(m.From),
			Outcome: outcome, ReceivedAt: s.stamp()})
		return err
	})
}

// ReceiveMail turns an inbound e-mail into what it means: a reply (matched
// by its reply address's token, In-Reply-To or References) becomes a public
// contact comment on its ticket, which reopens when it was solved, closed
// or pending; other mail opens a live ticket. Auto-replies, bounces and the
// service's own e-mails become nothing, so no mail loop can start. Each
// Message-ID is taken once. It returns the outcome (Inbound…).
func (s *Service) ReceiveMail(ctx context.Context, m InboundMail) (string, error) {
	if outcome := junk(m); outcome != "" {
		return outcome, s.skipMail(ctx, m)
	}
	if s.ownMail(ctx, m) {
		return InboundOwn, s.skipMail(ctx, m)
	}
	// Refused mail writes no file: the checks run before the attachments
	// are stored, and again in the transaction for mail that raced this one.
	// Mail over its sender's limit moves no poller's position: it stays
	// unread and is offered again.
	if outcome, err := s.refusal(ctx, s.db.Read(), m); err != nil {
		return "", err
	} else if outcome == InboundDuplicate {
		return outcome, s.skipMail(ctx, m)
	} else if outcome != "" {
		return outcome, nil
	}
	stored, err := s.storeInboundFiles(ctx, m.Files)
	if err != nil {
		return "", err
	}
	outcome, err := writeResult(ctx, s, func(q *storage.Q) (string, error) {
		outcome, err := s.refusal(ctx, q, m)
		if err != nil || outcome == InboundRateLimited {
			return outcome, err
		}
		if err := saveCheckpoint(ctx, q, m.Checkpoint); err != nil || outcome != "" {
			return outcome, err
		}
		outcome, id, err := s.fileMail(ctx, q, m, stored)
		if err != nil {
			return "", err
		}
		var obj *string
		if id != "" {
			obj = &id
		}
		_, err = q.InsertInboundMail(ctx, &storage.InboundMail{MessageID: m.MessageID, Sender: lower(m.From),
			Outcome: outcome, ObjectID: obj, ReceivedAt: s.stamp()})
		return outcome, err
	})
	if err == nil && !keepsFiles(outcome) {
		err = s.removeUnheldFiles(ctx, hashesOf(stored))
	}
	return outcome, err
}

// refusal names why an e-mail is not taken now (taken before, or its
// sender over the hourly limit), or returns "".
func (s *Service) refusal(ctx context.Context, q *storage.Q, m InboundMail) (string, error) {
	if seen, err := q.InboundMailSeen(ctx, m.MessageID); err != nil || seen {
		return InboundDuplicate, err
	}
	n, err := q.InboundMailsFrom(ctx, lower(m.From), chat.At(s.now().Add(-time.Hour)))
	if err != nil || n >= s.perSender {
		return InboundRateLimited, err
	}
	return "", nil
}

// keepsFiles tells whether an outcome holds the e-mail's attachments.
func keepsFiles(outcome string) bool {
	switch outcome {
	case InboundComment, InboundMessage, InboundTicket:
		return true
	}
	return false
}

func hashesOf(files []chat.StoredFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Hash
	}
	return out
}

// junk names why an e-mail no person wrote to the team is dropped, or
// returns "".
func junk(m InboundMail) string {
	switch {
	case m.Bounce:
		return InboundBounce
	case m.AutoSubmitted != "" && !strings.EqualFold(strings.TrimSpace(m.AutoSubmitted), "no"):
		return InboundAutoReply
	}
	switch lower(m.Precedence) {
	case "bulk", "auto_reply", "junk", "list":
		return InboundAutoReply
	}
	if _, _, err := normalizeEmail("from", m.From); err != nil {
		return InboundNoSender
	}
	return ""
}

// ownMail tells whether the e-mail is one the service sent: it comes from
// the service's address, or its Message-ID names an e-mail of the outbox.
func (s *Service) ownMail(ctx context.Context, m InboundMail) bool {
	if s.ownAddress != "" && lower(m.From) == s.ownAddress {
		return true
	}
	id, _, _ := strings.Cut(m.MessageID, "@")
	if strings.HasPrefix(id, "ticket."+PrefixTicket) {
		return true
	}
	if !strings.HasPrefix(id, PrefixMail) {
		return false
	}
	_, err := s.db.Read().Mail(ctx, id)
	return err == nil
}

// bareAddress is the lower-cased address of a From such as
// "Support <help@example.com>", or "" when it has none.
func bareAddress(from string) string {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return ""
	}
	return lower(a.Address)
}

// skipMail records a dropped e-mail's checkpoint, so a poller moves on.
func (s *Service) skipMail(ctx context.Context, m InboundMail) error {
	if m.Checkpoint == nil {
		return nil
	}
	return s.SkipInbound(ctx, *m.Checkpoint)
}

// SkipInbound moves a poller past a message it leaves alone.
func (s *Service) SkipInbound(ctx context.Context, position Setting) error {
	return s.db.Write(ctx, func(q *storage.Q) error { return saveCheckpoint(ctx, q, &position) })
}

// InboundPosition is a poller's saved position, "" before its first message.
func (s *Service) InboundPosition(ctx context.Context, key string) (string, error) {
	v, err := s.db.Read().Setting(ctx, key)
	if isNotFound(err) {
		return "", nil
	}
	return v, err
}

func saveCheckpoint(ctx context.Context, q *storage.Q, c *Setting) error {
	if c == nil {
		return nil
	}
	return q.SetSetting(ctx, c.Key, c.Value)
}

// storeInboundFiles keeps an e-mail's attachments in the file store before
// its transaction (a comment pointing to a missing file would be broken).
func (s *Service) storeInboundFiles(ctx context.Context, in []InboundFile) ([]chat.StoredFile, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if s.att.store == nil {
		return nil, ErrInboundFiles
	}
	if _, err := s.signingKey(ctx); err != nil { // a message's event carries signed URLs
		return nil, err
	}
	// The files written before a failure go too: the mail is not taken.
	return s.storeFiles(ctx, in, func(_ int, _ FileInput, err error) error {
		if errors.Is(err, files.ErrTooLarge) {
			return &RefusedMailError{Outcome: InboundAttachmentTooLarge, Limit: s.att.store.MaxBytes()}
		}
		return errors.Join(ErrInboundFiles, err)
	})
}

// fileMail writes what the e-mail becomes and returns the outcome and the
// id of the object made.
func (s *Service) fileMail(ctx context.Context, q *storage.Q, m InboundMail, files []chat.StoredFile) (string, string, error) {
	th, err := threadOf(ctx, q, m)
	if err != nil {
		return "", "", err
	}
	if th.conv != nil { // an answer about a chat goes to the chat only from its verified address
		ok, err := addressVerified(ctx, q, th.conv)
		if err != nil {
			return "", "", err
		}
		if !ok { // kept for the team, as a ticket, out of the visitor's widget
			th.conv = nil
		}
	}
	switch {
	case th.team:
		return InboundTeamReply, "", nil
	case th.conv != nil:
		msg, err := s.mailIntoConversation(ctx, q, th.conv, m, files)
		if err != nil {
			return "", "", err
		}
		return InboundMessage, msg.ID, nil
	case th.ticket == nil:
		t, err := s.openTicket(ctx, q, chat.Live, mailTicket(m), s.mailTicketReceivedByMail)
		if err != nil {
			return "", "", err
		}
		if len(files) > 0 { // a ticket holds no files: its first comment keeps them, with no text
			if _, err := s.commentFromMail(ctx, q, t, m, "", files); err != nil {
				return "", "", err
			}
		}
		return InboundTicket, t.ID, nil
	}
	t := th.ticket
	c, err := s.commentFromMail(ctx, q, t, m, clip(ReplyText(m.Text), MaxTicketComment), files)
	if err != nil {
		return "", "", err
	}
	return InboundComment, c.ID, s.reopen(ctx, q, t)
}

// commentFromMail writes a public comment of the mail's sender on t.
func (s *Service) commentFromMail(ctx context.Context, q *storage.Q, t *chat.Ticket, m InboundMail, body string, files []chat.StoredFile) (*chat.TicketComment, error) {
	contact, err := s.mailSender(ctx, q, t.Mode, m)
	if err != nil {
		return nil, err
	}
	c := &chat.TicketComment{ID: NewID(PrefixTicketComment), Mode: t.Mode, TicketID: t.ID,
		Author: chat.Author{Type: chat.AuthorContact, ID: &contact.ID, Name: contact.Name},
		Body:   body, Public: true, Files: files, Via: chat.ViaEmail, CreatedAt: s.stamp()}
	return c, s.insertTicketComment(ctx, q, c)
}

// mailSender is the contact of an inbound e-mail's sender, found or made.
func (s *Service) mailSender(ctx context.Context, q *storage.Q, mode chat.Mode, m InboundMail) (*chat.Contact, error) {
	return s.ticketContact(ctx, q, mode, TicketCreate{Contact: Value(ContactRef{Email: Value(m.From),
		Name: nameField(m.FromName)})}, s.stamp())
}

// reopen moves a ticket the contact answered back to open.
func (s *Service) reopen(ctx context.Context, q *storage.Q, t *chat.Ticket) error {
	if t.Status == TicketOpen {
		return nil
	}
	now := s.stamp()
	moveTicket(t, TicketOpen, now)
	t.UpdatedAt = now
	if err := q.UpdateTicket(ctx, t, false); err != nil {
		return err
	}
	return s.emit(ctx, q, t.Mode, chat.EventTicketUpdated, t.ID, t, now)
}

// thread is what an inbound e-mail answers: a ticket, or the conversation
// of a missed-reply e-mail; neither when it answers nothing.
type thread struct {
	ticket *chat.Ticket
	conv   *chat.Conversation
	team   bool // it answers an e-mail to the team (an alert), about no ticket
}

// threadOf finds what an e-mail answers: by the token of a reply+TOKEN@
// recipient, then by the Message-IDs it refers to, newest first.
func threadOf(ctx context.Context, q *storage.Q, m InboundMail) (thread, error) {
	var ids []string
	for _, r := range m.Recipients {
		local, _, _ := strings.Cut(r, "@")
		if len(local) > len(ReplyAddressPrefix) && strings.EqualFold(local[:len(ReplyAddressPrefix)], ReplyAddressPrefix) {
			ids = append(ids, local[len(ReplyAddressPrefix):])
		}
	}
	for i := len(m.Refs) - 1; i >= 0; i-- {
		id, _, _ := strings.Cut(m.Refs[i], "@")
		ids = append(ids, id)
	}
	for _, id := range ids {
		th, err := threadOfRef(ctx, q, id)
		if th.ticket != nil || th.conv != nil || th.team || err != nil {
			return th, err
		}
	}
	return thread{}, nil
}

// ReplyAddressPrefix starts the local part of the Reply-To address of every
// e-mail the service sends: reply+<outbox id>@inbound.domain.
const ReplyAddressPrefix = "reply+"

// threadOfRef resolves an outbox e-mail id or a ticket's thread root
// (ticket.<id>) to its ticket, or to the conversation of a missed-reply
// e-mail.
func threadOfRef(ctx context.Context, q *storage.Q, ref string) (thread, error) {
	ticketID, ok := strings.CutPrefix(ref, "ticket.")
	if !ok {
		ml, err := q.Mail(ctx, ref)
		if isNotFound(err) {
			return thread{}, nil
		} else if err != nil {
			return thread{}, err
		}
		if ml.ConversationID != nil {
			c, err := orNil(q.Conversation(ctx, ml.Mode, *ml.ConversationID))
			return thread{conv: c}, err
		}
		if ml.TicketID == nil {
			return thread{team: ml.ContactID == nil}, nil
		}
		ticketID = *ml.TicketID
	}
	for _, mode := range []chat.Mode{chat.Live, chat.Test} {
		t, err := q.Ticket(ctx, mode, ticketID)
		if err == nil || !isNotFound(err) {
			return thread{ticket: t}, err
		}
	}
	return thread{}, nil
}

// mailTicket is the ticket a new e-mail opens.
func mailTicket(m InboundMail) TicketCreate {
	subject := clip(strings.Join(strings.Fields(m.Subject), " "), MaxTicketSubject)
	if subject == "" {
		subject = "(no subject)"
	}
	in := TicketCreate{Subject: Value(subject), Contact: Value(ContactRef{Email: Value(m.From), Name: nameField(m.FromName)})}
	if body := clip(strings.TrimSpace(m.Text), MaxTicketDescription); body != "" {
		in.Description = Value(body)
	}
	return in
}

func nameField(name string) Field[string] {
	if name = strings.TrimSpace(name); name != "" {
		return Value(name)
	}
	return Field[string]{}
}
