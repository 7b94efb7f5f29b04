package app

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Responder works out the assistant's reply to a visitor's question. The
// assistant package implements it; the queue around it lives here, so the
// rules on when the assistant may speak stay with the other state rules.
type Responder interface {
	Respond(ctx context.Context, q Question) (Answer, error)
}

// Question is a visitor message the assistant is asked to answer.
type Question struct {
	Mode           chat.Mode
	SiteID         string
	ConversationID string
	Text           string
	History        []*chat.Message // the conversation before Text, oldest first (at most HistoryLen)
	Synonyms       [][]string      // the team's synonyms of the mode (synonyms.go)
	Locale         string          // the site's widget language: the visitor's, when the text is too short to tell
}

// Answer is the assistant's reply. HandOff asks for a person: the
// conversation moves to `waiting` with the reply.
type Answer struct {
	Body    string
	Sources []chat.Source
	Scores  []float64 // per source, how well it matched (0 to 1)
	Known   bool      // the body answers from the knowledge, not a stock reply
	HandOff bool
	// Abstained: the assistant said it could not answer from the knowledge
	// (a knowledge gap for the reports), as opposed to a greeting.
	Abstained bool
}

// Assistant queue settings.
const (
	// DefaultReplyWait is how long a visitor's message waits for the reply.
	DefaultReplyWait = 5 * time.Second
	// HistoryLen is how many earlier messages a Question carries.
	HistoryLen = 10
	// respondTimeout bounds one attempt of the responder.
	respondTimeout = 30 * time.Second
	// maxThinking bounds how many questions are answered at once.
	maxThinking = 16
)

// FallbackReply is what the assistant says when it cannot answer at all.
const FallbackReply = "Sorry, I can't answer right now. A person from the team will follow up here."

// assistantQueue is the assistant's side of the Service: who answers, and
// the questions this process is answering or waiting for. What is queued
// lives in the database (assistant_jobs); this is only who holds what now.
type assistantQueue struct {
	responder Responder     // nil: visitors wait for the team
	replyWait time.Duration // how long a visitor's request waits for the answer
	claims    sync.Map      // message id -> struct{}: questions taken by this process
	claimed   atomic.Int32  // how many claims there are
	thinking  atomic.Int32  // how many answers the responder is working out
	answering sync.WaitGroup
	replies   sync.Map // message id -> chan *chat.Message: requests waiting for its answer
	// waiting, when set, is called once a request found its question
	// queued and waits for the handover; tests wait on it.
	waiting func(msgID string)
}

func newAssistantQueue(r Responder, wait time.Duration) *assistantQueue {
	if wait == 0 {
		wait = DefaultReplyWait
	}
	return &assistantQueue{responder: r, replyWait: wait}
}

// AssistantWorker answers queued visitor messages; serve runs it. Each
// question is answered in its own goroutine, so a slow answer holds up no
// other; when the worker stops it waits for them.
func (s *Service) AssistantWorker() Worker {
	return Worker{Name: "assistant", Every: 2 * time.Second, Wake: s.Wakeup(storage.QueueAssistant), Step: s.answerDue,
		Drain: s.assistant.answering.Wait}
}

// answerDue starts answering the due questions not taken yet, as many as
// there is room for. A slot frees up before the answer is stored, so the
// commit that stores it wakes the worker in time to take the next question.
func (s *Service) answerDue(ctx context.Context) (bool, error) {
	w := s.assistant
	free := maxThinking - int(w.thinking.Load())
	if w.responder == nil || free <= 0 {
		return false, nil
	}
	jobs, err := s.db.Read().DueAssistantJobs(ctx, s.stamp(), free+int(w.claimed.Load()))
	if err != nil {
		return false, err
	}
	for _, j := range jobs {
		if free == 0 {
			break
		}
		if _, taken := w.claims.LoadOrStore(j.MessageID, struct{}{}); taken {
			continue
		}
		free--
		w.claimed.Add(1)
		w.thinking.Add(1)
		w.answering.Add(1)
		go func() {
			defer w.answering.Done()
			defer func() { w.claims.Delete(j.MessageID); w.claimed.Add(-1) }()
			done := sync.OnceFunc(func() { w.thinking.Add(-1) })
			defer done()
			if err := s.answer(ctx, j, done); err != nil && ctx.Err() == nil {
				slog.Error("assistant job failed", "message_id", j.MessageID, "err", err)
			}
		}()
	}
	return false, nil
}

// answer works out and stores the reply to one question; thought is called
// once the responder is done. The transaction that stores a reply deletes
// the job, so a reply is stored at most once.
func (s *Service) answer(ctx context.Context, j *storage.AssistantJob, thought func()) error {
	q := s.db.Read()
	c, err := q.Conversation(ctx, j.Mode, j.ConversationID)
	if err != nil {
		return err
	}
	if c.Status != chat.StatusOpen {
		thought()
		return s.settle(ctx, j, nil)
	}
	msg, err := q.Message(ctx, j.Mode, j.MessageID)
	if err != nil {
		return err
	}
	history, err := q.MessagesBefore(ctx, msg, HistoryLen)
	if err != nil {
		return err
	}
	synonyms, err := s.teamSynonyms(ctx, j.Mode)
	if err != nil {
		return err
	}
	locale := ""
	if site, err := s.Site(ctx, c.SiteID); err == nil {
		locale = site.Widget.Locale
	}
	rctx, cancel := context.WithTimeout(ctx, respondTimeout)
	a, err := s.assistant.responder.Respond(rctx, Question{Mode: j.Mode, SiteID: c.SiteID, ConversationID: c.ID,
		Text: msg.Body, History: history, Synonyms: synonyms, Locale: locale})
	cancel()
	thought()
	if err != nil && ctx.Err() != nil {
		return nil // shutting down: the job stays queued for the next start
	}
	if err != nil {
		slog.Warn("assistant failed", "message_id", j.MessageID, "attempt", j.Attempts+1, "err", err)
		if next, ok := assistantRetry.Next(j.Attempts+1, j.CreatedAt.Time(), s.now()); ok {
			return s.write(ctx, func(q *storage.Q) error {
				return orGone(q.RetryAssistantJob(ctx, j.MessageID, chat.At(next), err.Error()))
			})
		}
		a = Answer{Body: FallbackReply, HandOff: true}
	}
	return s.settle(ctx, j, &a)
}

// settle removes a job and, when the conversation is still open, stores
// the answer (moving the conversation to `waiting` when it hands off), then
// hands the reply (nil when none was stored) to the request waiting for it.
func (s *Service) settle(ctx context.Context, j *storage.AssistantJob, a *Answer) error {
	// settled: the job was still there to remove; reply: the answer stored.
	type settled struct {
		ok    bool
		reply *chat.Message
	}
	done, err := writeResult(ctx, s, func(q *storage.Q) (settled, error) {
		if err := q.DeleteAssistantJob(ctx, j.MessageID); err != nil {
			return settled{}, orGone(err) // answered already
		}
		c, err := q.Conversation(ctx, j.Mode, j.ConversationID)
		if err != nil || a == nil || c.Status != chat.StatusOpen {
			return settled{ok: true}, orGone(err)
		}
		now := s.stamp()
		body := a.Body
		if a.HandOff {
			if away, ok, err := s.awayReply(ctx, q, c); err != nil {
				return settled{}, err
			} else if ok {
				body = away
			}
		}
		reply, err := s.addMessageSaving(ctx, q, c, chat.Author{Type: chat.AuthorBot}, body, a.Sources, now,
			q.UpdateConversationActivity)
		if err != nil {
			return settled{}, err
		}
		if a.HandOff {
			_, err = s.transition(ctx, q, c, chat.AssistantGivesUp, now, moveInput{})
		} else {
			err = q.InsertAssistantReply(ctx, &storage.AssistantReply{MessageID: reply.ID, Mode: j.Mode,
				ConversationID: c.ID, QuestionID: j.MessageID, Abstained: a.Abstained, CreatedAt: now})
		}
		return settled{true, reply}, err
	})
	if err == nil && done.ok {
		if ch, ok := s.assistant.replies.Load(j.MessageID); ok {
			select {
			case ch.(chan *chat.Message) <- done.reply:
			default: // never blocks: a job is settled once, into a buffer of one
			}
		}
	}
	return err
}

// waitReply waits up to the reply wait for the assistant to answer msg and
// returns the reply, or nil when it is not there in time (it then reaches
// the visitor live) or the assistant stays silent. The answer is handed
// over in memory (settle); only one given before the wait began is read
// back from the database.
func (s *Service) waitReply(ctx context.Context, mode chat.Mode, msg *chat.Message) (*chat.Message, error) {
	handed := make(chan *chat.Message, 1)
	s.assistant.replies.Store(msg.ID, handed)
	defer s.assistant.replies.Delete(msg.ID)
	q := s.db.Read()
	if _, err := q.AssistantJob(ctx, msg.ID); errors.Is(err, storage.ErrNotFound) {
		return storedReply(ctx, q, msg)
	} else if err != nil {
		return nil, err
	}
	if s.assistant.waiting != nil {
		s.assistant.waiting(msg.ID)
	}
	timer := time.NewTimer(s.assistant.replyWait)
	defer timer.Stop()
	select {
	case reply := <-handed:
		return reply, nil
	case <-timer.C:
		return nil, nil
	case <-ctx.Done():
		return nil, nil
	}
}

// storedReply returns the assistant's reply to msg, if it stored one.
func storedReply(ctx context.Context, q *storage.Q, msg *chat.Message) (*chat.Message, error) {
	rows, err := q.MessagesAfter(ctx, msg.ConversationID, msg.ID, 10)
	if err != nil {
		return nil, err
	}
	for _, m := range rows {
		if m.Author.Type == chat.AuthorBot {
			return m, nil
		}
	}
	return nil, nil
}
