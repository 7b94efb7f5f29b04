package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"chatsvc/chat"
	"chatsvc/storage"
)

// TestLifecycleEveryPair applies every trigger to a conversation in every
// status through the service's own entry points (the widget's hand-off, the
// API's hand-off and close, an agent message, the assistant giving up, an
// e-mail reply that may reopen) and checks that the service does what the
// lifecycle table says: the status after, the refusal, the conversation's
// event, the assignee, and the waiting alert of a conversation that starts
// waiting.
func TestLifecycleEveryPair(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestService(t)
	const mode, member, other = chat.Test, "mem_a", "mem_b"
	site := &chat.Site{ID: "site_1", Name: "A"}
	err := s.write(ctx, func(q *storage.Q) error {
		if err := q.InsertSite(ctx, site); err != nil {
			return err
		}
		for _, id := range []string{member, other} {
			if err := q.InsertMember(ctx, &chat.Member{ID: id, Name: id, Email: id + "@example.com", Role: "agent"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// apply runs trigger tr on conversation c through the service.
	apply := func(t *testing.T, c *chat.Conversation, v *chat.Visitor, tr chat.Trigger) error {
		switch tr {
		case chat.VisitorAsks:
			_, err := s.VisitorHandOff(ctx, &Visit{Mode: mode, Site: site, Visitor: v})
			return err
		case chat.HandOff:
			_, err := s.HandOff(ctx, mode, c.ID, Handoff{})
			return err
		case chat.HandOffTo:
			_, err := s.HandOff(ctx, mode, c.ID, Handoff{AssigneeID: Value(member)})
			return err
		case chat.AgentReply:
			_, err := s.PostAgentMessage(ctx, mode, c.ID, AgentMessage{Body: Value("Hello, I can help."), AuthorID: Value(member)})
			return err
		case chat.AssistantGivesUp:
			now := s.stamp()
			m := &chat.Message{ID: NewID(PrefixMessage), Mode: mode, ConversationID: c.ID,
				Author: chat.Author{Type: chat.AuthorContact}, Body: "Where is my order?", CreatedAt: now}
			j := &storage.AssistantJob{MessageID: m.ID, Mode: mode, ConversationID: c.ID, NextAttemptAt: now, CreatedAt: now}
			err := s.write(ctx, func(q *storage.Q) error {
				if err := q.InsertMessage(ctx, m); err != nil {
					return err
				}
				return q.InsertAssistantJob(ctx, j)
			})
			if err != nil {
				t.Fatal(err)
			}
			return s.settle(ctx, j, &Answer{Body: FallbackReply, HandOff: true})
		case chat.EmailReply, chat.EmailReplyAssigned:
			return s.write(ctx, func(q *storage.Q) error {
				cur, err := q.Conversation(ctx, mode, c.ID)
				if err != nil {
					return err
				}
				_, err = s.mailIntoConversation(ctx, q, cur, InboundMail{From: "visitor@example.com", Text: "Thanks, one more question."}, nil)
				return err
			})
		case chat.Close:
			_, err := s.Close(ctx, mode, c.ID)
			return err
		}
		t.Fatalf("no way to apply %v", tr)
		return nil
	}
	n := 0
	for _, tr := range chat.Triggers {
		for _, from := range chat.Statuses {
			step := chat.NextStatus(from, tr)
			t.Run(fmt.Sprintf("%s/%s", from, triggerNames[tr]), func(t *testing.T) {
				n++
				now := s.stamp()
				v := &chat.Visitor{ID: fmt.Sprintf("vis_%d", n), Mode: mode, SiteID: site.ID, PageURL: "https://example.com/", CreatedAt: now}
				c := &chat.Conversation{ID: NewID(PrefixConversation), Mode: mode, SiteID: site.ID, VisitorID: &v.ID,
					Status: from, PageURL: v.PageURL, Metadata: map[string]string{}, Tags: []string{},
					LastMessageAt: now, CreatedAt: now, UpdatedAt: now}
				if tr == chat.EmailReplyAssigned || tr == chat.AgentReply {
					c.AssigneeID = ptr(other) // an agent reply keeps an assignee; an e-mail reopens to it
				}
				err := s.write(ctx, func(q *storage.Q) error {
					if err := q.InsertVisitor(ctx, v); err != nil {
						return err
					}
					return q.InsertConversation(ctx, c)
				})
				if err != nil {
					t.Fatal(err)
				}
				err = apply(t, c, v, tr)
				var ae *Error
				switch {
				case step.Refused && (!errors.As(err, &ae) || ae.Code != CodeConversationClosed):
					t.Fatalf("got %v, want 409 %s", err, CodeConversationClosed)
				case !step.Refused && err != nil:
					t.Fatal(err)
				}
				got, err := s.Conversation(ctx, mode, c.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.Status != step.To {
					t.Errorf("status %s, want %s", got.Status, step.To)
				}
				wantAssignee := c.AssigneeID
				if step.Assign == chat.AssignGiven {
					wantAssignee = ptr(member)
				}
				if (got.AssigneeID == nil) != (wantAssignee == nil) || (got.AssigneeID != nil && *got.AssigneeID != *wantAssignee) {
					t.Errorf("assignee %v, want %v", deref(got.AssigneeID), deref(wantAssignee))
				}
				for _, ev := range []string{chat.EventConversationHandedOff, chat.EventConversationClosed} {
					want := 0
					if ev == step.Event {
						want = 1
					}
					if n := conversationEvents(t, s, c.ID, ev); n != want {
						t.Errorf("%d %s events, want %d", n, ev, want)
					}
				}
				alerted := waitingAlerted(t, s, c.ID)
				if want := step.Event == chat.EventConversationHandedOff && step.To == chat.StatusWaiting; alerted != want {
					t.Errorf("waiting alert scheduled: %v, want %v", alerted, want)
				}
			})
		}
	}
	if want := len(chat.Triggers) * len(chat.Statuses); n != want {
		t.Errorf("%d pairs tried, want %d", n, want)
	}
}

// TestAgentReplyAssignsTheAuthorWhenNobody: an agent's reply to an open,
// unassigned conversation gives it to the author (the one pair where the
// assignee depends on the conversation).
func TestAgentReplyAssignsTheAuthorWhenNobody(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestService(t)
	err := s.write(ctx, func(q *storage.Q) error {
		if err := q.InsertSite(ctx, &chat.Site{ID: "site_1", Name: "A"}); err != nil {
			return err
		}
		return q.InsertMember(ctx, &chat.Member{ID: "mem_a", Name: "Ann", Email: "ann@example.com", Role: "agent"})
	})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := s.StartConversation(ctx, chat.Test, VisitorStart{SiteID: "site_1", PageURL: "https://example.com/", Body: "Hello?"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PostAgentMessage(ctx, chat.Test, c.ID, AgentMessage{Body: Value("Hi"), AuthorID: Value("mem_a")}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Conversation(ctx, chat.Test, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != chat.StatusHandedOff || deref(got.AssigneeID) != "mem_a" || got.MessageCount != 2 {
		t.Errorf("after the take-over: %s, assignee %s, %d messages", got.Status, deref(got.AssigneeID), got.MessageCount)
	}
}

var triggerNames = map[chat.Trigger]string{chat.VisitorAsks: "visitor_asks", chat.HandOff: "handoff",
	chat.HandOffTo: "handoff_to", chat.AgentReply: "agent_reply", chat.AssistantGivesUp: "assistant_gives_up",
	chat.EmailReply: "email_reply", chat.EmailReplyAssigned: "email_reply_assigned", chat.Close: "close"}

func ptr[T any](v T) *T { return &v }

// conversationEvents counts the events of type typ recorded about
// conversation id.
func conversationEvents(t *testing.T, s *Service, id, typ string) int {
	t.Helper()
	l, err := s.Events(context.Background(), chat.Test, EventQuery{Type: typ, ListParams: ListParams{Limit: "100"}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range l.Data {
		var obj struct{ ID string }
		if err := json.Unmarshal(e.Data.Object, &obj); err != nil {
			t.Fatal(err)
		}
		if obj.ID == id {
			n++
		}
	}
	return n
}

// waitingAlerted tells whether a waiting alert is scheduled for
// conversation id.
func waitingAlerted(t *testing.T, s *Service, id string) bool {
	t.Helper()
	due, err := s.db.Read().DueWaitingAlerts(context.Background(), chat.At(s.now().AddDate(1, 0, 0)), 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range due {
		if a.ConversationID == id {
			return true
		}
	}
	return false
}
