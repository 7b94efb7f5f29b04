package app

import (
	"context"
	"errors"
	"testing"

	"chatsvc/chat"
	"chatsvc/storage"
)

// A visitor's live updates are signalled by writes to their own
// conversations only; the dashboard's, by every write; nobody by a write
// that failed.
func TestChangesFollowConversations(t *testing.T) {
	ctx := context.Background()
	svc, _ := newTestService(t)
	signalled := func(sub *Subscription) bool {
		select {
		case <-sub.C:
			return true
		default:
			return false
		}
	}
	visitor := "vis_1"
	newConv := func(id string) error {
		return svc.write(ctx, func(q *storage.Q) error {
			return q.InsertConversation(ctx, &chat.Conversation{ID: id, Mode: chat.Test, SiteID: "site_1",
				VisitorID: &visitor, Status: chat.StatusOpen, Metadata: map[string]string{}})
		})
	}
	addMessage := func(convID string) error {
		return svc.write(ctx, func(q *storage.Q) error {
			return q.InsertMessage(ctx, &chat.Message{ID: NewID(PrefixMessage), Mode: chat.Test, ConversationID: convID,
				Author: chat.Author{Type: chat.AuthorAgent}, Body: "Hello"})
		})
	}
	if err := svc.write(ctx, func(q *storage.Q) error { return q.InsertSite(ctx, &chat.Site{ID: "site_1", Name: "A"}) }); err != nil {
		t.Fatal(err)
	}
	all, ofVisitor, ofA, ofB := svc.Changes(), svc.ChangesOf(visitor), svc.ChangesOf("conv_a"), svc.ChangesOf("conv_b")
	defer all.Stop()
	defer ofVisitor.Stop()
	defer ofA.Stop()
	defer ofB.Stop()

	if err := newConv("conv_a"); err != nil {
		t.Fatal(err)
	}
	if !signalled(all) || !signalled(ofVisitor) || !signalled(ofA) || signalled(ofB) {
		t.Error("a new conversation must signal its visitor and itself, and no other conversation")
	}
	if err := addMessage("conv_a"); err != nil {
		t.Fatal(err)
	}
	if !signalled(all) || signalled(ofVisitor) || !signalled(ofA) || signalled(ofB) {
		t.Error("a message must signal its conversation only")
	}
	failed := svc.write(ctx, func(q *storage.Q) error {
		if err := q.InsertMessage(ctx, &chat.Message{ID: NewID(PrefixMessage), Mode: chat.Test, ConversationID: "conv_a",
			Author: chat.Author{Type: chat.AuthorAgent}, Body: "Hello"}); err != nil {
			return err
		}
		return errors.New("changed its mind")
	})
	if failed == nil || signalled(all) || signalled(ofA) {
		t.Error("a write that failed must signal nobody")
	}
	// Following another conversation drops the first.
	ofA.Follow("conv_b")
	if err := addMessage("conv_a"); err != nil {
		t.Fatal(err)
	}
	if signalled(ofA) {
		t.Error("a subscription signalled for a conversation it no longer follows")
	}
	ofA.Stop()
	if err := newConv("conv_b"); err != nil {
		t.Fatal(err)
	}
	if signalled(ofA) || !signalled(ofB) {
		t.Error("a stopped subscription was signalled, or a followed one was not")
	}
}
