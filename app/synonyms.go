package app

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Synonym limits (docs/api.md, Synonyms).
const (
	MinSynonymWords  = 2
	MaxSynonymWords  = 20
	MaxSynonymLength = 50  // characters of one word or expression
	MaxSynonymGroups = 500 // per mode
)

// synonymPattern: a word, or an expression of up to four words, of letters,
// digits, hyphens and apostrophes.
var synonymPattern = regexp.MustCompile(`^[\p{L}\p{N}'-]+( [\p{L}\p{N}'-]+){0,3}$`)

// SynonymInput is the body of POST and PATCH /synonyms.
type SynonymInput struct {
	Words Field[[]string]
}

// words checks the group and returns it lower-cased, spaces collapsed.
func (in SynonymInput) words() ([]string, error) {
	if !in.Words.has() {
		return nil, missing("words")
	}
	if n := len(in.Words.V); n < MinSynonymWords || n > MaxSynonymWords {
		return nil, invalid("words", "words must hold %d to %d words or expressions (got %d).", MinSynonymWords, MaxSynonymWords, n)
	}
	out := make([]string, len(in.Words.V))
	seen := map[string]bool{}
	for i, w := range in.Words.V {
		param := "words." + strconv.Itoa(i)
		w = strings.Join(strings.Fields(strings.ToLower(w)), " ")
		if err := checkLen(param, w, MaxSynonymLength, true); err != nil {
			return nil, err
		}
		if !synonymPattern.MatchString(w) {
			return nil, invalid(param, "%s must be a word or an expression of up to four words, of letters, digits, hyphens and apostrophes (got '%s').", param, w)
		}
		if seen[w] {
			return nil, invalid(param, "'%s' is in words twice.", w)
		}
		seen[w] = true
		out[i] = w
	}
	return out, nil
}

// CreateSynonym stores a new group of synonyms.
func (s *Service) CreateSynonym(ctx context.Context, mode chat.Mode, in SynonymInput) (*chat.Synonym, error) {
	words, err := in.words()
	if err != nil {
		return nil, err
	}
	g, err := writeResult(ctx, s, func(q *storage.Q) (*chat.Synonym, error) {
		n, err := q.CountSynonyms(ctx, mode)
		if err != nil {
			return nil, err
		}
		if n >= MaxSynonymGroups {
			return nil, conflictErr("words", "The team has %d groups of synonyms, the most there can be: delete one first.", n)
		}
		now := s.stamp()
		g := &chat.Synonym{ID: NewID(PrefixSynonym), Mode: mode, Words: words, CreatedAt: now, UpdatedAt: now}
		return g, q.InsertSynonym(ctx, g)
	})
	s.synonyms.forget(mode)
	return g, err
}

// UpdateSynonym replaces a group's words.
func (s *Service) UpdateSynonym(ctx context.Context, mode chat.Mode, id string, in SynonymInput) (*chat.Synonym, error) {
	words, err := in.words()
	if err != nil {
		return nil, err
	}
	g, err := writeResult(ctx, s, func(q *storage.Q) (*chat.Synonym, error) {
		g, err := q.Synonym(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("synonym", id))
		}
		g.Words, g.UpdatedAt = words, s.stamp()
		return g, q.UpdateSynonym(ctx, g)
	})
	s.synonyms.forget(mode)
	return g, err
}

// DeleteSynonym removes a group.
func (s *Service) DeleteSynonym(ctx context.Context, mode chat.Mode, id string) (*Deleted, error) {
	d, err := writeResult(ctx, s, func(q *storage.Q) (*Deleted, error) {
		err := q.DeleteSynonym(ctx, mode, id)
		return &Deleted{ID: id, Object: "synonym", Deleted: true}, found(err, noSuch("synonym", id))
	})
	s.synonyms.forget(mode)
	return d, err
}

// Synonym reads one group.
func (s *Service) Synonym(ctx context.Context, mode chat.Mode, id string) (*chat.Synonym, error) {
	g, err := s.db.Read().Synonym(ctx, mode, id)
	return g, found(err, noSuch("synonym", id))
}

// Synonyms lists a mode's groups, newest first.
func (s *Service) Synonyms(ctx context.Context, mode chat.Mode, in ListParams) (List[*chat.Synonym], error) {
	pg, err := in.page()
	if err != nil {
		return List[*chat.Synonym]{}, err
	}
	rows, err := s.db.Read().Synonyms(ctx, mode, pg)
	if err != nil {
		return List[*chat.Synonym]{}, err
	}
	return makeList(rows, pg, func(g *chat.Synonym) chat.Cursor {
		return chat.Cursor{Key: int64(g.CreatedAt), ID: g.ID}
	}), nil
}

// synonymCache keeps each mode's groups for the assistant, which reads
// them for every question; a write forgets its mode's.
type synonymCache struct {
	mu     sync.Mutex
	groups map[chat.Mode][][]string
	gen    uint64 // counts forgets, so a read that began before one is not kept
}

// teamSynonyms returns a mode's groups, from the cache when it has them.
func (s *Service) teamSynonyms(ctx context.Context, mode chat.Mode) ([][]string, error) {
	c := &s.synonyms
	c.mu.Lock()
	g, ok := c.groups[mode]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		return g, nil
	}
	g, err := s.db.Read().AllSynonyms(ctx, mode)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen {
		if c.groups == nil {
			c.groups = map[chat.Mode][][]string{}
		}
		c.groups[mode] = g
	}
	return g, nil
}

func (c *synonymCache) forget(mode chat.Mode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.groups, mode)
	c.gen++
}
