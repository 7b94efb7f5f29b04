package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"chatsvc/chat"
	"chatsvc/storage"
)

// TestErrorsNameTheOperation: an unexpected error leaving the service says
// what failed and still matches what callers test for; a domain error is
// left as it is, so web answers it as before.
func TestErrorsNameTheOperation(t *testing.T) {
	wrapped := named(storage.ErrNotFound, "close conversation conv_1")
	if !errors.Is(wrapped, storage.ErrNotFound) || !strings.HasPrefix(wrapped.Error(), "close conversation conv_1: ") {
		t.Errorf("storage error: %v", wrapped)
	}
	closed := closedErr("conv_1")
	if got := named(closed, "close conversation conv_1"); got != error(closed) {
		t.Errorf("domain error changed: %v", got)
	}
	if named(nil, "anything") != nil {
		t.Error("nil became an error")
	}
	// Through the service, a refusal stays a refusal, its message unchanged.
	s, _ := newTestService(t)
	var ae *Error
	_, err := s.HandOff(context.Background(), chat.Test, "conv_missing", Handoff{})
	if !errors.As(err, &ae) || ae.Kind != NotFound || strings.Contains(ae.Message, "hand off") {
		t.Errorf("hand-off of a missing conversation: %v", err)
	}
}
