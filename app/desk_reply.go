package app

import (
	"context"

	"chatsvc/chat"
)

// ReplyFromDesk is a team member's reply written in the dashboard: a
// conversation nobody has is first assigned to the replier, so that the
// member's "Mine" view holds what they answered; then the message is sent
// as PostAgentMessage sends it, with the same state rules. The REST API's
// messages keep their own rule (only a reply to an open conversation
// assigns it).
func (s *Service) ReplyFromDesk(ctx context.Context, mode chat.Mode, convID string, in AgentMessage) (*chat.Message, error) {
	if err := in.validate(&s.att); err != nil {
		return nil, err
	}
	c, err := s.Conversation(ctx, mode, convID)
	if err != nil {
		return nil, err
	}
	if c.AssigneeID == nil && c.Status != chat.StatusClosed {
		if _, err := s.UpdateConversation(ctx, mode, convID, ConversationUpdate{AssigneeID: Value(in.AuthorID.V)}); err != nil {
			return nil, err
		}
	}
	return s.PostAgentMessage(ctx, mode, convID, in)
}
