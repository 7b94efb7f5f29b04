package app

import (
	"context"

	"chatsvc/chat"
)

// Notes lists a conversation's internal notes, oldest first; the team sees
// them, the visitor never does.
func (s *Service) Notes(ctx context.Context, mode chat.Mode, conversationID string) ([]*chat.Note, error) {
	if _, err := s.Conversation(ctx, mode, conversationID); err != nil {
		return nil, err
	}
	return s.db.Read().Notes(ctx, conversationID)
}

// MaxTestQuestion bounds the question of the dashboard's "test the
// assistant" box, like a visitor's message.
const MaxTestQuestion = 4000

// TestAssistant asks the assistant a question as a visitor of the site
// would (siteID "" for sources of every site), without making a conversation.
func (s *Service) TestAssistant(ctx context.Context, mode chat.Mode, siteID, text string) (*Answer, error) {
	if err := checkLen("question", text, MaxTestQuestion, true); err != nil {
		return nil, err
	}
	r := s.assistant.responder
	if r == nil {
		return nil, &Error{Kind: Forbidden, Code: CodeFeatureUnavailable, Message: "No assistant is configured."}
	}
	synonyms, err := s.teamSynonyms(ctx, mode)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, respondTimeout)
	defer cancel()
	a, err := r.Respond(ctx, Question{Mode: mode, SiteID: siteID, Text: text, Synonyms: synonyms})
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// SyncInterval says in words how often a knowledge source may be synced
// (knowledge.sync_min_interval), for pages that explain the limit.
func (s *Service) SyncInterval() string { return humanDuration(s.syncMinInterval()) }
