package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"chatsvc/chat"
)

// CopyReport says what CopyTestToLive copied and what live data it left as
// it was, by kind: knowledge sources, synonym groups, canned replies.
type CopyReport struct {
	Sources, Synonyms, Canned             int // copied
	SourcesKept, SynonymsKept, CannedKept int // already in live data: left unchanged
}

// copyLimit bounds how many objects of a kind one copy reads.
const copyLimit = 1000

// CopyTestToLive copies what a team set up in test data to live data:
// knowledge sources (crawled anew in live, their index being per mode),
// synonym groups and canned replies. Nothing live is overwritten: a live
// source with the same address (a text source: the same name), a live
// group with the same words or a live canned reply with the same shortcut
// is kept, and counted as kept. Sites belong to both modes, so their
// settings need no copy. Running it twice copies nothing the second time.
func (s *Service) CopyTestToLive(ctx context.Context) (*CopyReport, error) {
	r := &CopyReport{}
	if err := s.copySources(ctx, r); err != nil {
		return nil, fmt.Errorf("copy knowledge sources to live: %w", err)
	}
	if err := s.copySynonyms(ctx, r); err != nil {
		return nil, fmt.Errorf("copy synonyms to live: %w", err)
	}
	if err := s.copyCanned(ctx, r); err != nil {
		return nil, fmt.Errorf("copy canned replies to live: %w", err)
	}
	return r, nil
}

// sourceKey names a source for the copy: its type and address, or its
// name for a text source, which has no address.
func sourceKey(k *chat.KnowledgeSource) string {
	if k.URL != nil {
		return k.Type + " " + *k.URL
	}
	return k.Type + " " + k.Name
}

// copyMissing creates in live data each test object whose key no live
// object has, and counts what it copied and what it kept.
func copyMissing[T any](list func(chat.Mode) ([]T, error), key func(T) string, create func(T) error) (copied, kept int, err error) {
	test, err := list(chat.Test)
	if err != nil {
		return 0, 0, err
	}
	live, err := list(chat.Live)
	if err != nil {
		return 0, 0, err
	}
	have := map[string]bool{}
	for _, o := range live {
		have[key(o)] = true
	}
	for _, o := range test {
		if have[key(o)] {
			kept++
			continue
		}
		if err := create(o); err != nil {
			return copied, kept, err
		}
		have[key(o)] = true
		copied++
	}
	return copied, kept, nil
}

func (s *Service) copySources(ctx context.Context, r *CopyReport) (err error) {
	list := func(mode chat.Mode) ([]*chat.KnowledgeSource, error) {
		return Collect(copyLimit, func(lp ListParams) (List[*chat.KnowledgeSource], error) {
			return s.KnowledgeSources(ctx, mode, lp)
		})
	}
	r.Sources, r.SourcesKept, err = copyMissing(list, sourceKey, func(k *chat.KnowledgeSource) error {
		in := SourceCreate{Type: Value(k.Type), Name: Value(k.Name), Politeness: Value(k.Politeness)}
		if k.URL != nil {
			in.URL = Value(*k.URL)
		}
		if k.Content != nil {
			in.Content = Value(*k.Content)
		}
		if k.SiteID != nil {
			in.SiteID = Value(*k.SiteID)
		}
		if k.Language != nil {
			in.Lang = Value(*k.Language)
		}
		_, err := s.CreateKnowledgeSource(ctx, chat.Live, in)
		return err
	})
	return err
}

// wordsKey names a synonym group by its words, whatever their order.
func wordsKey(g *chat.Synonym) string {
	w := slices.Clone(g.Words)
	slices.Sort(w)
	return strings.Join(w, ", ")
}

func (s *Service) copySynonyms(ctx context.Context, r *CopyReport) (err error) {
	list := func(mode chat.Mode) ([]*chat.Synonym, error) {
		return Collect(copyLimit, func(lp ListParams) (List[*chat.Synonym], error) { return s.Synonyms(ctx, mode, lp) })
	}
	r.Synonyms, r.SynonymsKept, err = copyMissing(list, wordsKey, func(g *chat.Synonym) error {
		_, err := s.CreateSynonym(ctx, chat.Live, SynonymInput{Words: Value(g.Words)})
		return err
	})
	return err
}

func (s *Service) copyCanned(ctx context.Context, r *CopyReport) (err error) {
	list := func(mode chat.Mode) ([]*chat.CannedReply, error) {
		return Collect(copyLimit, func(lp ListParams) (List[*chat.CannedReply], error) { return s.CannedReplies(ctx, mode, lp) })
	}
	shortcut := func(c *chat.CannedReply) string { return c.Shortcut }
	r.Canned, r.CannedKept, err = copyMissing(list, shortcut, func(c *chat.CannedReply) error {
		in := CannedReplyInput{Shortcut: Value(c.Shortcut), Title: Value(c.Title), Body: Value(c.Body)}
		_, err := s.CreateCannedReply(ctx, chat.Live, in)
		return err
	})
	return err
}
