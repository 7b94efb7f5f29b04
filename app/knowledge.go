package app

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"sync"
	"time"

	"golang.org/x/text/language"

	"chatsvc/chat"
	"chatsvc/crawler"
	"chatsvc/knowledge"
	"chatsvc/storage"
)

// PrefixSource starts knowledge source ids.
const PrefixSource = "src_"

// Knowledge source types and statuses (docs/api.md, Knowledge sources).
const (
	SourceURL     = "url"
	SourceSitemap = "sitemap"
	SourceText    = "text"

	SourcePolite = crawler.Polite // the configured pause and parallelism
	SourceOwn    = crawler.Own    // the team's own site: no pause, a request in flight per core

	SourcePending  = "pending"
	SourceIndexing = "indexing"
	SourceReady    = "ready"
	SourceFailed   = "failed"
)

// CodeSyncRateLimited refuses a sync asked for too soon after the previous one.
const CodeSyncRateLimited = "sync_rate_limited"

// Knowledge source limits (docs/api.md, Limits): the content limit is the
// API contract's; name and url are this server's choice.
const (
	MaxSourceContent = 100000
	MaxSourceName    = 200
	MaxSourceURL     = 2048
)

// Defaults of the knowledge.* settings, used when unset.
const (
	DefaultSyncMinInterval = 10 * time.Minute
	DefaultNightlyAt       = "03:00"
)

// KnowledgeIndex is where sources' chunks are searched; knowledge.Index is one.
type KnowledgeIndex interface {
	knowledge.Searcher
	// Replace makes chunks the whole of a source's documents (none removes
	// the source), all at once from a reader's point of view.
	Replace(ctx context.Context, sourceID string, chunks []knowledge.Chunk) error
}

// Knowledge wires the assistant's knowledge into the service: the index the
// pages go to, how they are crawled and when sources are synced.
type Knowledge struct {
	Index           KnowledgeIndex
	Crawler         crawler.Options
	SyncMinInterval time.Duration // knowledge.sync_min_interval; 0: 10 minutes
	NightlyAt       string        // knowledge.nightly_at, HH:MM UTC; "": 03:00
	Every           time.Duration // how often idle workers look for work; 0: a minute
	Vectors         *Vectors      // the semantic search, when an embeddings server is configured
}

// knowledgeWork is the wiring and the state the knowledge workers share.
type knowledgeWork struct {
	Knowledge
	indexMu sync.Mutex // one source brought into the index at a time
}

// newKnowledge fills in the defaults of k, or returns nil without it.
func newKnowledge(in *Knowledge) *knowledgeWork {
	if in == nil {
		return nil
	}
	k := *in
	if k.SyncMinInterval <= 0 {
		k.SyncMinInterval = DefaultSyncMinInterval
	}
	if k.NightlyAt == "" {
		k.NightlyAt = DefaultNightlyAt
	}
	if k.Every <= 0 {
		k.Every = time.Minute
	}
	return &knowledgeWork{Knowledge: k}
}

// KnowledgeSearcher is the index the assistant searches, nil without Options.Knowledge.
func (s *Service) KnowledgeSearcher() knowledge.Searcher {
	if s.knowledge == nil {
		return nil
	}
	return s.knowledge.Index
}

func (s *Service) syncMinInterval() time.Duration {
	if s.knowledge == nil {
		return DefaultSyncMinInterval
	}
	return s.knowledge.SyncMinInterval
}

// SourceCreate is the body of POST /knowledge-sources.
type SourceCreate struct {
	Type    Field[string]
	Name    Field[string]
	URL     Field[string]
	Content Field[string]
	SiteID  Field[string]
	Lang    Field[string] // a BCP 47 tag: the language of every page; absent, each page's own
	// Politeness: SourcePolite (absent) or SourceOwn, how the site is crawled.
	Politeness Field[string]
}

// MaxSourceLanguage bounds a source's language tag.
const MaxSourceLanguage = 35

func (in *SourceCreate) validate() error {
	if in.Lang.has() {
		if err := checkLen("language", in.Lang.V, MaxSourceLanguage, true); err != nil {
			return err
		}
		tag, err := language.Parse(in.Lang.V)
		if err != nil {
			return invalid("language", "language must be a BCP 47 language tag such as 'de' or 'fr-CA' (got '%s').", in.Lang.V)
		}
		in.Lang.V = tag.String()
	}
	if !in.Type.has() {
		return missing("type")
	}
	if err := oneOf("type", in.Type.V, SourceURL, SourceSitemap, SourceText); err != nil {
		return err
	}
	if !in.Politeness.Set {
		in.Politeness.V = SourcePolite
	} else if err := oneOf("politeness", in.Politeness.V, SourcePolite, SourceOwn); err != nil {
		return err
	}
	if !in.Name.has() {
		return missing("name")
	}
	if err := checkLen("name", in.Name.V, MaxSourceName, true); err != nil {
		return err
	}
	if in.Type.V == SourceText {
		if in.URL.has() {
			return invalid("url", "url is only for sources of type url or sitemap.")
		}
		if !in.Content.has() {
			return missing("content")
		}
		return checkLen("content", in.Content.V, MaxSourceContent, true)
	}
	if in.Content.Set {
		return invalid("content", "content is only for sources of type text.")
	}
	if !in.URL.has() {
		return missing("url")
	}
	if err := checkLen("url", in.URL.V, MaxSourceURL, true); err != nil {
		return err
	}
	u, err := url.Parse(in.URL.V)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return invalid("url", "url must be an absolute http or https URL (got '%s').", in.URL.V)
	}
	return nil
}

// CreateKnowledgeSource stores a source, pending, and owes it its first
// sync, which the sync worker starts at once.
func (s *Service) CreateKnowledgeSource(ctx context.Context, mode chat.Mode, in SourceCreate) (*chat.KnowledgeSource, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	return writeNamed(ctx, s, "create knowledge source", func(q *storage.Q) (*chat.KnowledgeSource, error) {
		if in.SiteID.has() {
			if _, err := q.Site(ctx, in.SiteID.V); err != nil {
				return nil, found(err, noSuchRef("site_id", "site", in.SiteID.V))
			}
		}
		now := s.stamp()
		k := &chat.KnowledgeSource{ID: NewID(PrefixSource), Type: in.Type.V,
			Name: in.Name.V, URL: in.URL.ptr(), Status: SourcePending, CreatedAt: now, Mode: mode,
			SiteID: in.SiteID.ptr(), Content: in.Content.ptr(), Language: in.Lang.ptr(), Politeness: in.Politeness.V,
			SyncRequestedAt: &now, LastSyncRequestAt: now}
		if err := q.InsertKnowledgeSource(ctx, k); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// KnowledgeSource returns a source, or a NotFound error.
func (s *Service) KnowledgeSource(ctx context.Context, mode chat.Mode, id string) (*chat.KnowledgeSource, error) {
	k, err := s.db.Read().KnowledgeSource(ctx, mode, id)
	return k, found(err, noSuch("knowledge source", id))
}

// KnowledgeSources lists sources newest first.
func (s *Service) KnowledgeSources(ctx context.Context, mode chat.Mode, p ListParams) (List[*chat.KnowledgeSource], error) {
	pg, err := p.page()
	if err != nil {
		return List[*chat.KnowledgeSource]{}, err
	}
	rows, err := s.db.Read().KnowledgeSources(ctx, mode, pg)
	if err != nil {
		return List[*chat.KnowledgeSource]{}, err
	}
	return makeList(rows, pg, func(k *chat.KnowledgeSource) chat.Cursor {
		return chat.Cursor{Key: int64(k.CreatedAt), ID: k.ID}
	}), nil
}

// DeleteKnowledgeSource removes a source and its pages; the index worker
// then removes them from search.
func (s *Service) DeleteKnowledgeSource(ctx context.Context, mode chat.Mode, id string) (*Deleted, error) {
	return writeNamed(ctx, s, "delete knowledge source "+id, func(q *storage.Q) (*Deleted, error) {
		var out *Deleted
		if err := found(q.DeleteKnowledgeSource(ctx, mode, id), noSuch("knowledge source", id)); err != nil {
			return nil, err
		}
		out = &Deleted{ID: id, Object: "knowledge_source", Deleted: true}
		return out, q.QueueKnowledgeIndex(ctx, id)
	})
}

// SyncKnowledgeSource owes a source a new sync and marks it indexing. It is
// RateLimited within sync_min_interval of the previous sync (the first one
// being the creation's), with the wait in RetryAfter, unless that sync
// failed: the interval spares a site repeated crawls, and a failed one is
// retried at once (one at a time: the source is indexing meanwhile).
func (s *Service) SyncKnowledgeSource(ctx context.Context, mode chat.Mode, id string) (*chat.KnowledgeSource, error) {
	return writeNamed(ctx, s, "sync knowledge source "+id, func(q *storage.Q) (*chat.KnowledgeSource, error) {
		k, err := q.KnowledgeSource(ctx, mode, id)
		if err != nil {
			return nil, found(err, noSuch("knowledge source", id))
		}
		now := s.now()
		every := s.syncMinInterval()
		if wait := k.LastSyncRequestAt.Time().Add(every).Sub(now); wait > 0 && k.Status != SourceFailed {
			secs := int64(math.Ceil(wait.Seconds()))
			return nil, &Error{Kind: RateLimited, Code: CodeSyncRateLimited, RetryAfter: wait,
				Message: fmt.Sprintf("A knowledge source can be synced once every %s; try again in %d seconds.",
					humanDuration(every), secs)}
		}
		at := chat.At(now)
		moveSource(k, SourceIndexing, nil)
		if k.SyncRequestedAt == nil {
			k.SyncRequestedAt = &at
		}
		k.LastSyncRequestAt = at
		if err := q.UpdateKnowledgeSource(ctx, k); err != nil {
			return nil, err
		}
		return k, nil
	})
}

// humanDuration writes d in words: "10 minutes", "1 hour", "90 seconds".
func humanDuration(d time.Duration) string {
	n, unit := int64(d/time.Second), "second"
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		n, unit = int64(d/time.Hour), "hour"
	case d >= time.Minute && d%time.Minute == 0:
		n, unit = int64(d/time.Minute), "minute"
	}
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// SyncInterval says in words how often a knowledge source may be synced
// (knowledge.sync_min_interval), for pages that explain the limit.
func (s *Service) SyncInterval() string { return humanDuration(s.syncMinInterval()) }
