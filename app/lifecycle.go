package app

import (
	"context"
	"fmt"

	"chatsvc/chat"
	"chatsvc/storage"
)

// A conversation's status changes here and nowhere else. The table of what
// each trigger does in each status is chat.NextStatus's; transition applies
// one step of it: the status, the assignee and the times, the write, the
// conversation's event, and the consequences the step has, each called by
// name below.

// moveInput is what a step needs beyond the conversation.
type moveInput struct {
	// member is the member the step may assign: the one a hand-off names,
	// or the author of an agent message.
	member *string
	// counted says the step comes with a new message of the caller's,
	// counted in the same write (the caller then inserts the message).
	counted bool
}

// transition applies trigger t to conversation c at now, in q's
// transaction. It refuses what the lifecycle refuses (a closed
// conversation: 409 conversation_closed), changes nothing for a step that
// stays (unless a message is counted), and otherwise writes c's new state
// with the step's times in one statement, records the conversation's
// event and calls the step's consequences. It returns the step.
func (s *Service) transition(ctx context.Context, q *storage.Q, c *chat.Conversation, t chat.Trigger,
	now chat.Timestamp, in moveInput) (chat.Step, error) {
	from := c.Status
	step := chat.NextStatus(from, t)
	if step.Refused {
		return step, closedErr(c.ID)
	}
	if step.Stays(from) && !in.counted {
		return step, nil
	}
	c.Status, c.UpdatedAt = step.To, now
	switch step.Assign {
	case chat.AssignGiven:
		c.AssigneeID = in.member
	case chat.AssignWhenNobody:
		if c.AssigneeID == nil {
			c.AssigneeID = in.member
		}
	}
	var m storage.Move
	if in.counted {
		c.MessageCount++
		c.LastMessageAt = now
	}
	if t == chat.AgentReply {
		m.FirstAgentAt = &now
	}
	if step.Event == chat.EventConversationHandedOff {
		m.HandedOffAt = &now
	}
	if step.To == chat.StatusClosed && from != chat.StatusClosed {
		m.ClosedAt = &now
	}
	m.Reopened = from == chat.StatusClosed && step.To != chat.StatusClosed
	if err := q.SaveMove(ctx, c, m); err != nil {
		return step, named(err, fmt.Sprintf("move conversation %s from %s to %s", c.ID, from, step.To))
	}
	if step.Event == "" {
		return step, nil
	}
	if err := s.emit(ctx, q, c.Mode, step.Event, c.ID, c, now); err != nil {
		return step, err
	}
	if step.Event == chat.EventConversationHandedOff && step.To == chat.StatusWaiting {
		return step, s.alertWaiting(ctx, q, c, now)
	}
	return step, nil
}

// emailReply is the trigger of a contact's e-mail answer in conversation
// c: a closed one reopens to the assignee when it has one.
func emailReply(c *chat.Conversation) chat.Trigger {
	if c.AssigneeID != nil {
		return chat.EmailReplyAssigned
	}
	return chat.EmailReply
}

// agentReplyCounts are the statuses in which an agent message changes
// nothing but the counts, so one statement counts it (see PostAgentMessage).
var agentReplyCounts = chat.StaysIn(chat.AgentReply)

// alertWaiting is the consequence of a conversation that starts waiting
// for a person: the team's e-mail alert, due notify.waiting_after later
// (sent unless a person answers first), and a push to the assignee, or to
// everyone when nobody has the conversation.
func (s *Service) alertWaiting(ctx context.Context, q *storage.Q, c *chat.Conversation, now chat.Timestamp) error {
	due := chat.At(now.Time().Add(s.notify.WaitingAfter))
	if err := q.InsertWaitingAlert(ctx, &storage.WaitingAlert{ConversationID: c.ID, Mode: c.Mode,
		WaitingSince: now, DueAt: due}); err != nil {
		return err
	}
	return s.queuePushes(ctx, q, c.Mode, recipients(c.AssigneeID), pushNote{Title: "A visitor is waiting",
		Body: conversationTitle(c), ConversationID: c.ID})
}

// pushToAssignee is the consequence of a visitor's message: a push to the
// conversation's assignee, if it has one.
func (s *Service) pushToAssignee(ctx context.Context, q *storage.Q, m *chat.Message) error {
	c, err := q.Conversation(ctx, m.Mode, m.ConversationID)
	if isNotFound(err) || (err == nil && c.AssigneeID == nil) {
		return nil
	} else if err != nil {
		return err
	}
	return s.queuePushes(ctx, q, m.Mode, []string{*c.AssigneeID}, pushNote{Title: "New message from a visitor",
		Body: Preview(m.Body, 120), ConversationID: c.ID})
}

// The other objects' statuses follow simpler rules than a conversation's;
// they too change here and nowhere else.

// moveTicket sets ticket t's status at now and keeps solved_at the time it
// was solved: set on solving, cleared when it reopens to open or pending,
// kept on closing. It reports whether the status changed.
func moveTicket(t *chat.Ticket, to string, now chat.Timestamp) bool {
	if t.Status == to {
		return false
	}
	t.Status = to
	switch to {
	case TicketSolved:
		t.SolvedAt = &now
	case TicketOpen, TicketPending:
		t.SolvedAt = nil
	}
	return true
}

// moveSource sets knowledge source k's status: indexing while a sync is
// owed or runs (its last failure kept until it ends), then ready, which
// forgets the failure, or failed with its reason.
func moveSource(k *chat.KnowledgeSource, to string, reason *string) {
	k.Status = to
	if to != SourceIndexing {
		k.FailureReason = reason
	}
}

// moveMail sets an outbox e-mail's status after an attempt: sent at
// sentAt, or failed for good with its reason.
func moveMail(ml *storage.Mail, to string, sentAt *chat.Timestamp, reason *string) {
	ml.Status, ml.LastError = to, reason
	if sentAt != nil {
		ml.SentAt = sentAt
	}
}
