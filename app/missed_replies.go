package app

import (
	"context"
	"encoding/json"

	"chatsvc/chat"
	"chatsvc/storage"
)

// MailMissedReply is the template of the e-mail that brings a contact the
// agent messages they did not see in the widget within notify.visitor_after.
const MailMissedReply = "missed_reply"

// maxMissedMessages caps the messages one missed-reply e-mail holds.
const maxMissedMessages = 20

// visitorSaw records that the visitor was shown msgs of a conversation
// they had seen up to seen. It writes only when an agent message newer
// than that was among them, so polling and idle streams cost no write.
func (s *Service) visitorSaw(ctx context.Context, convID string, seen chat.Timestamp, msgs []*chat.Message) error {
	upTo := seen
	for _, m := range msgs {
		if m.Author.Type == chat.AuthorAgent && m.CreatedAt > upTo {
			upTo = m.CreatedAt
		}
	}
	if upTo == seen {
		return nil
	}
	return s.db.Write(ctx, func(q *storage.Q) error { return q.MarkVisitorSeen(ctx, convID, upTo) })
}

// oweMissedReply schedules the missed-reply e-mail of an agent message,
// unless an earlier unseen one already did.
func (s *Service) oweMissedReply(ctx context.Context, q *storage.Q, m *chat.Message) error {
	if s.notify.VisitorAfter <= 0 {
		return nil
	}
	return q.OweVisitorAlert(ctx, m.ConversationID, chat.At(m.CreatedAt.Time().Add(s.notify.VisitorAfter)))
}

// sendMissedReply queues, for an alert now due, one e-mail to the contact
// with the agent messages the visitor has not seen and that were not
// e-mailed before, then schedules the next unseen message, if any. A
// message is dealt with once: mailed_until moves past it, mailed or not.
func (s *Service) sendMissedReply(ctx context.Context, q *storage.Q, due *storage.VisitorAlert) error {
	a := *due // a write may run twice: the alert as listed stays as it was
	c, err := q.Conversation(ctx, a.Mode, a.ConversationID)
	if isNotFound(err) {
		a.DueAt = nil
		return q.SetVisitorAlert(ctx, &a)
	} else if err != nil {
		return err
	}
	seen, err := q.VisitorSeenAt(ctx, c.ID)
	if err != nil {
		return err
	}
	unseen, err := q.AgentMessagesAfter(ctx, c.ID, max(seen, a.MailedUntil), maxMissedMessages)
	if err != nil {
		return err
	}
	a.DueAt = nil
	cutoff := chat.At(s.now().Add(-s.notify.VisitorAfter))
	if len(unseen) == 0 || unseen[0].CreatedAt > cutoff { // seen meanwhile; maybe a newer one is owed
		if len(unseen) > 0 {
			due := chat.At(unseen[0].CreatedAt.Time().Add(s.notify.VisitorAfter))
			a.DueAt = &due
		}
		return q.SetVisitorAlert(ctx, &a)
	}
	a.MailedUntil = unseen[len(unseen)-1].CreatedAt
	if len(unseen) == maxMissedMessages { // more than one e-mail holds: the rest next round
		a.DueAt = &cutoff
	}
	if err := s.mailMissed(ctx, q, c, unseen); err != nil {
		return err
	}
	return q.SetVisitorAlert(ctx, &a)
}

// mailMissed queues the missed-reply e-mail of conversation c, when its
// contact has an address that is verified.
func (s *Service) mailMissed(ctx context.Context, q *storage.Q, c *chat.Conversation, msgs []*chat.Message) error {
	if ok, err := addressVerified(ctx, q, c); err != nil || !ok {
		return err
	}
	contact, err := q.Contact(ctx, c.Mode, *c.ContactID)
	if isNotFound(err) || err == nil && contact.Email == nil {
		return nil
	} else if err != nil {
		return err
	}
	type line struct {
		Author string `json:"author"`
		Body   string `json:"body"`
	}
	lines := make([]line, 0, len(msgs))
	for _, m := range msgs {
		who := "The team"
		if m.Author.Name != nil && *m.Author.Name != "" {
			who = *m.Author.Name
		}
		lines = append(lines, line{who, m.Body})
	}
	data, err := json.Marshal(map[string]any{"messages": lines, "page_url": c.PageURL, "contact_name": contact.Name})
	if err != nil {
		return err
	}
	now := s.stamp()
	return q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: c.Mode, Template: MailMissedReply,
		ToEmail: *contact.Email, ToName: contact.Name, ContactID: &contact.ID, ConversationID: &c.ID, Data: data,
		NextAttemptAt: now, CreatedAt: now})
}

// addressVerified tells whether conversation c's contact is known to be the
// person chatting: the team linked them (a conversation with no visitor),
// or the site signed the claim that named the contact (user_hash). An
// address a visitor typed may be anyone's, so it gets no chat by e-mail.
func addressVerified(ctx context.Context, q *storage.Q, c *chat.Conversation) (bool, error) {
	if c.ContactID == nil {
		return false, nil
	}
	if c.VisitorID == nil {
		return true, nil
	}
	v, err := q.Visitor(ctx, c.Mode, *c.VisitorID)
	if isNotFound(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return v.ContactVerified && v.ContactID != nil && *v.ContactID == *c.ContactID, nil
}

// mailIntoConversation adds a contact's answer to a missed-reply e-mail to
// its conversation, as the contact's message. A closed conversation goes
// back to the team (handed_off when assigned, else waiting, with
// conversation.handed_off), as a ticket reopens: the contact is answering
// the team, so the widget's rule that a closed chat stays closed does not
// fit here.
func (s *Service) mailIntoConversation(ctx context.Context, q *storage.Q, c *chat.Conversation, m InboundMail,
	files []chat.StoredFile) (*chat.Message, error) {
	contact, err := s.mailSender(ctx, q, c.Mode, m)
	if err != nil {
		return nil, err
	}
	now := s.stamp()
	c.MessageCount++
	c.LastMessageAt, c.UpdatedAt = now, now
	if err := q.UpdateConversationActivity(ctx, c); err != nil {
		return nil, err
	}
	msg, err := s.insertMessage(ctx, q, c.Mode, c.ID, chat.Author{Type: chat.AuthorContact, ID: &contact.ID, Name: contact.Name},
		clip(ReplyText(m.Text), MaxMessageBody), nil, files, now)
	if err != nil {
		return nil, err
	}
	if _, err := s.transition(ctx, q, c, emailReply(c), now, moveInput{}); err != nil {
		return nil, err
	}
	return msg, nil
}
