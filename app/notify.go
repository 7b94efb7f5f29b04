package app

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"chatsvc/chat"
	"chatsvc/storage"
)

// NotifyOptions are the notify.* settings.
type NotifyOptions struct {
	// WaitingAfter is how long a conversation waits for a person before the
	// team is e-mailed (default DefaultWaitingAfter).
	WaitingAfter time.Duration
	// VisitorAfter is how long an agent message may stay unseen by the
	// visitor before it is e-mailed to the contact; 0 turns this off.
	VisitorAfter time.Duration
	// AllowHTTP accepts http:// push endpoints (network.allow_private).
	AllowHTTP bool
}

// DefaultWaitingAfter is notify.waiting_after's default.
const DefaultWaitingAfter = 2 * time.Minute

func (o NotifyOptions) withDefaults() NotifyOptions {
	if o.WaitingAfter <= 0 {
		o.WaitingAfter = DefaultWaitingAfter
	}
	return o
}

// MailConversationWaiting is the template of the e-mail telling a member a
// conversation has waited for a person longer than notify.waiting_after.
const MailConversationWaiting = "conversation_waiting"

// NotifyWorker sends the alerts that have fallen due: a write schedules
// them in its own transaction (alertWaiting, oweMissedReply). Its interval is a second so an
// alert leaves at its delay, not a tick later.
func (s *Service) NotifyWorker() Worker {
	return Worker{Name: "notify", Every: time.Second, Step: s.NotifyStep}
}

// NotifyStep does one round of the notify worker: the waiting alerts and
// the missed-reply e-mails now due. more reports work left.
func (s *Service) NotifyStep(ctx context.Context) (more bool, err error) {
	waiting, err := sendDue(ctx, s, s.db.Read().DueWaitingAlerts, s.sendWaitingAlert)
	if err != nil {
		return false, err
	}
	missed, err := sendDue(ctx, s, s.db.Read().DueVisitorAlerts, s.sendMissedReply)
	return waiting || missed, err
}

// dueBatch is how many due alerts of one kind a round handles.
const dueBatch = 100

// sendDue lists the alerts of one kind due now and sends them in one
// write; it reports whether a full batch was found.
func sendDue[T any](ctx context.Context, s *Service, list func(context.Context, chat.Timestamp, int) ([]T, error),
	send func(context.Context, *storage.Q, T) error) (bool, error) {
	due, err := list(ctx, s.stamp(), dueBatch)
	if err != nil || len(due) == 0 {
		return false, err
	}
	err = s.write(ctx, func(q *storage.Q) error {
		for _, a := range due {
			if err := send(ctx, q, a); err != nil {
				return err
			}
		}
		return nil
	})
	return len(due) == dueBatch, err
}

// recipients are the members told about a conversation: its assignee, or
// everyone (nil) when it has none.
func recipients(assigneeID *string) []string {
	if assigneeID == nil {
		return nil
	}
	return []string{*assigneeID}
}

// sendWaitingAlert queues the e-mails of an alert now due, unless a person
// answered or the conversation left waiting meanwhile, and marks it done:
// each conversation is alerted about once.
func (s *Service) sendWaitingAlert(ctx context.Context, q *storage.Q, a *storage.WaitingAlert) error {
	c, err := q.Conversation(ctx, a.Mode, a.ConversationID)
	if isNotFound(err) {
		return q.SetWaitingAlertStatus(ctx, a.ConversationID, chat.AlertSkipped)
	} else if err != nil {
		return err
	}
	answered, err := q.AgentWroteSince(ctx, c.ID, a.WaitingSince)
	if err != nil {
		return err
	}
	if answered || c.Status != chat.StatusWaiting {
		return q.SetWaitingAlertStatus(ctx, c.ID, chat.AlertSkipped)
	}
	members, err := s.alertedMembers(ctx, q, c)
	if err != nil {
		return err
	}
	data, err := json.Marshal(map[string]any{"conversation": c, "title": conversationTitle(c),
		"url": s.conversationURL(c.Mode, c.ID), "waited_minutes": int(s.notify.WaitingAfter.Minutes())})
	if err != nil {
		return err
	}
	now := s.stamp()
	for _, m := range members {
		name := m.Name
		if err := q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: c.Mode, Template: MailConversationWaiting,
			ToEmail: m.Email, ToName: &name, Data: data, NextAttemptAt: now, CreatedAt: now}); err != nil {
			return err
		}
	}
	return q.SetWaitingAlertStatus(ctx, c.ID, chat.AlertSent)
}

// alertedMembers are the members a waiting conversation is e-mailed to.
func (s *Service) alertedMembers(ctx context.Context, q *storage.Q, c *chat.Conversation) ([]*chat.Member, error) {
	if c.AssigneeID != nil {
		m, err := q.Member(ctx, *c.AssigneeID)
		if err == nil {
			return []*chat.Member{m}, nil
		} else if !isNotFound(err) {
			return nil, err
		}
	}
	return q.Members(ctx)
}

// conversationURL is where the dashboard shows a conversation; the link
// names its mode, so a session showing the other mode's data switches.
func (s *Service) conversationURL(mode chat.Mode, id string) string {
	return strings.TrimRight(s.att.publicURL, "/") + "/app/conversations/" + id + "?mode=" + string(mode)
}

// conversationTitle names a conversation in a notification.
func conversationTitle(c *chat.Conversation) string {
	if c.Subject != nil && *c.Subject != "" {
		return Preview(*c.Subject, 120)
	}
	return "Conversation " + c.ID
}

// Preview cuts text to at most n characters, marking the cut, its spaces
// collapsed: a notification's line, a name made from a question.
func Preview(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	return string([]rune(text)[:n-1]) + "…"
}
