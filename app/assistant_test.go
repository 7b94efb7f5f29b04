package app

import (
	"context"
	"testing"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// The assistant's answer reaches the visitor's waiting request at once,
// whether it comes while the request waits (handed over in memory) or came
// before (read back), and so does the news that no answer will come.
func TestWaitReply(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	svc.assistant.replyWait = time.Minute // an answer must not wait for the timer
	queued := make(chan struct{}, 1)
	svc.assistant.waiting = func(string) { queued <- struct{}{} }
	conv := &chat.Conversation{ID: NewID(PrefixConversation), Mode: chat.Test, SiteID: "site_1",
		Status: chat.StatusOpen, Metadata: map[string]string{}}
	err := svc.write(ctx, func(q *storage.Q) error {
		if err := q.InsertSite(ctx, &chat.Site{ID: "site_1", Name: "A"}); err != nil {
			return err
		}
		return q.InsertConversation(ctx, conv)
	})
	if err != nil {
		t.Fatal(err)
	}
	ask := func() (*chat.Message, *storage.AssistantJob) {
		t.Helper()
		now := svc.stamp()
		m := &chat.Message{ID: NewID(PrefixMessage), Mode: chat.Test, ConversationID: conv.ID,
			Author: chat.Author{Type: chat.AuthorContact}, Body: "Where is my order?", CreatedAt: now}
		j := &storage.AssistantJob{MessageID: m.ID, Mode: chat.Test, ConversationID: conv.ID, NextAttemptAt: now, CreatedAt: now}
		err := svc.write(ctx, func(q *storage.Q) error {
			if err := q.InsertMessage(ctx, m); err != nil {
				return err
			}
			return q.InsertAssistantJob(ctx, j)
		})
		if err != nil {
			t.Fatal(err)
		}
		return m, j
	}
	// wait starts waiting for msg's reply, returns once the wait has found
	// the job queued or has ended, and gives what the wait gives.
	wait := func(msg *chat.Message) <-chan *chat.Message {
		got, ended := make(chan *chat.Message, 1), make(chan struct{})
		go func() {
			defer close(ended)
			r, err := svc.waitReply(ctx, chat.Test, msg)
			if err != nil {
				t.Error(err)
			}
			got <- r
		}()
		select {
		case <-queued: // it found the job queued and waits for the handover
		case <-ended: // it found the answer stored
		case <-time.After(10 * time.Second):
			t.Fatal("the wait neither began nor ended")
		}
		return got
	}
	receive := func(got <-chan *chat.Message) *chat.Message {
		t.Helper()
		select {
		case r := <-got:
			return r
		case <-time.After(10 * time.Second):
			t.Fatal("the wait did not end when the job was settled")
			return nil
		}
	}

	msg, job := ask()
	got := wait(msg)
	if err := svc.settle(ctx, job, &Answer{Body: "It ships today."}); err != nil {
		t.Fatal(err)
	}
	if r := receive(got); r == nil || r.Body != "It ships today." || r.Author.Type != chat.AuthorBot {
		t.Fatalf("handed over: %+v", r)
	}

	msg, job = ask()
	if err := svc.settle(ctx, job, &Answer{Body: "Tomorrow."}); err != nil {
		t.Fatal(err)
	}
	if r := receive(wait(msg)); r == nil || r.Body != "Tomorrow." {
		t.Fatalf("answered before the wait: %+v", r)
	}
	if _, waiting := svc.assistant.replies.Load(msg.ID); waiting {
		t.Fatal("a finished wait must forget its message")
	}

	msg, job = ask()
	got = wait(msg)
	if err := svc.settle(ctx, job, nil); err != nil { // the conversation left the assistant
		t.Fatal(err)
	}
	if r := receive(got); r != nil {
		t.Fatalf("settled without an answer: %+v", r)
	}
}
