package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/crawler"
	"chatsvc/knowledge"
	"chatsvc/lang"
	"chatsvc/storage"
)

// settingNightlyRun stores the scheduled time of the last nightly sync
// (RFC 3339), so a restart neither skips nor repeats one.
const settingNightlyRun = "knowledge.nightly_last_run"

// indexBatch is how many queued sources one index step handles.
const indexBatch = 16

// KnowledgeWorkers returns the workers that keep knowledge fresh: sync
// (crawls or re-reads owed sources), index (brings the search index in line
// with the database) and nightly (owes every source a sync at nightly_at).
// They need Options.Knowledge; without it there are none.
func (s *Service) KnowledgeWorkers() []Worker {
	k := s.knowledge
	if k == nil {
		return nil
	}
	ws := []Worker{
		{Name: "knowledge-sync", Every: k.Every, Wake: s.Wakeup(storage.QueueKnowledge), Step: s.syncLane(storage.CrawledSources)},
		{Name: "knowledge-sync-text", Every: k.Every, Wake: s.Wakeup(storage.QueueKnowledge), Step: s.syncLane(storage.TextSources)},
		{Name: "knowledge-index", Every: k.Every, Wake: s.Wakeup(storage.QueueKnowledge), Step: s.IndexStep},
		{Name: "knowledge-nightly", Every: k.Every, Step: s.NightlyStep},
	}
	if k.Vectors != nil {
		ws = append(ws, Worker{Name: "knowledge-embed", Every: k.Every, Wake: s.Wakeup(storage.QueueKnowledge), Step: k.Vectors.Step})
	}
	return ws
}

// SyncStep syncs the source owed a sync the longest: pending or owed ones
// become indexing, then ready (its pages replaced) or failed (its previous
// pages kept, the reason stored and logged). New pages go into the index
// before the database records ready, so ready means searchable. A sync cut
// short (ctx, a crash) is still owed, so it is done again at the next start.
// The workers run it in two lanes (syncLane), text sources apart.
func (s *Service) SyncStep(ctx context.Context) (bool, error) {
	return s.syncNext(ctx, storage.AnySources)
}

// syncLane is the step of a worker that syncs the sources of one lane.
func (s *Service) syncLane(lane storage.SyncLane) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) { return s.syncNext(ctx, lane) }
}

// syncNext is SyncStep for the sources of lane.
func (s *Service) syncNext(ctx context.Context, lane storage.SyncLane) (bool, error) {
	// The worker runs after every commit, and most times nothing is owed:
	// finding that out on a reader keeps the writer free. A write here would
	// also wake every worker again, this one included, so an idle server
	// would spin.
	if _, err := s.db.Read().NextDueKnowledgeSource(ctx, lane); isNotFound(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	k, err := writeResult(ctx, s, func(q *storage.Q) (*chat.KnowledgeSource, error) {
		k, err := orNil(q.NextDueKnowledgeSource(ctx, lane))
		if err != nil || k == nil || k.Status == SourceIndexing {
			return k, err
		}
		moveSource(k, SourceIndexing, nil)
		return k, q.UpdateKnowledgeSource(ctx, k)
	})
	if err != nil || k == nil {
		return false, err
	}
	owed := *k.SyncRequestedAt
	started := time.Now()
	chunks, pages, reason, err := s.readSource(ctx, k)
	if err != nil {
		return false, err
	}
	if reason == "" {
		// Held until the commit, so the index worker cannot put back, from
		// the database, the pages this sync replaces.
		s.knowledge.indexMu.Lock()
		defer s.knowledge.indexMu.Unlock()
		if err := s.knowledge.Index.Replace(ctx, k.ID, searchChunks(k, chunks)); err != nil {
			return false, fmt.Errorf("index source %s: %w", k.ID, err)
		}
	}
	deleted, err := writeResult(ctx, s, func(q *storage.Q) (deleted bool, err error) {
		cur, err := q.KnowledgeSourceByID(ctx, k.ID)
		if isNotFound(err) {
			// Deleted while it was read: its pages must leave the index again.
			return true, q.QueueKnowledgeIndex(ctx, k.ID)
		} else if err != nil {
			return false, err
		}
		now := s.stamp()
		if cur.SyncRequestedAt != nil && *cur.SyncRequestedAt == owed {
			cur.SyncRequestedAt = nil // else another sync was asked for meanwhile: still owed
		}
		event := chat.EventKnowledgeSourceReady
		if reason == "" {
			if err := q.ReplaceKnowledgeChunks(ctx, cur.ID, chunks); err != nil {
				return false, err
			}
			moveSource(cur, SourceReady, nil)
			cur.PageCount, cur.LastSyncedAt = pages, &now
		} else {
			event = chat.EventKnowledgeSourceFailed
			moveSource(cur, SourceFailed, &reason)
			// The kept pages are put back in the index, in case an earlier
			// attempt indexed pages and then died before recording them.
			if err := q.QueueKnowledgeIndex(ctx, cur.ID); err != nil {
				return false, err
			}
		}
		if err := q.UpdateKnowledgeSource(ctx, cur); err != nil {
			return false, err
		}
		return false, s.emit(ctx, q, cur.Mode, event, cur.ID, cur, now)
	})
	if err != nil {
		return false, err
	}
	s.knowledge.Vectors.changed()
	took := time.Since(started).Round(time.Millisecond)
	switch {
	case deleted:
		slog.Info("knowledge source deleted during its sync", "source", k.ID)
	case reason != "":
		slog.Warn("knowledge source sync failed", "source", k.ID, "type", k.Type, "reason", reason, "took", took)
	default:
		slog.Info("knowledge source synced", "source", k.ID, "type", k.Type, "pages", pages, "chunks", len(chunks), "took", took)
	}
	return true, nil
}

// readSource reads a source's pages into chunks. A source that cannot be
// read gives a reason for the team; err is only for an interrupted read.
func (s *Service) readSource(ctx context.Context, k *chat.KnowledgeSource) (chunks []storage.KnowledgeChunk, pages int, reason string, err error) {
	if k.Type == SourceText {
		for _, c := range crawler.TextChunks(deref(k.Content)) {
			chunks = append(chunks, storage.KnowledgeChunk{SourceID: k.ID, Title: k.Name, Heading: c.Heading, Text: c.Text})
		}
		setLang(chunks, deref(k.Language))
		if len(chunks) == 0 {
			return nil, 0, "The content has no text.", nil
		}
		return chunks, 1, "", nil
	}
	res, err := crawler.Crawl(ctx, s.crawlOptions(k), k.Type, deref(k.URL))
	var f *crawler.Failure
	switch {
	case errors.As(err, &f):
		return nil, 0, f.Reason, nil
	case err != nil && ctx.Err() != nil:
		return nil, 0, "", err
	case err != nil:
		return nil, 0, fmt.Sprintf("The crawl failed: %v.", err), nil
	}
	for url, why := range res.Skipped {
		slog.Debug("knowledge page skipped", "source", k.ID, "url", url, "reason", why)
	}
	for _, p := range res.Pages {
		page := make([]storage.KnowledgeChunk, 0, len(p.Chunks))
		for _, c := range p.Chunks {
			page = append(page, storage.KnowledgeChunk{SourceID: k.ID, URL: p.URL, Title: p.Title,
				Heading: c.Heading, Text: c.Text})
		}
		setLang(page, cmp.Or(deref(k.Language), p.Lang))
		chunks = append(chunks, page...)
	}
	return chunks, len(res.Pages), "", nil
}

// crawlOptions are the crawler's settings for k: the configured ones, or
// those for the team's own site.
func (s *Service) crawlOptions(k *chat.KnowledgeSource) crawler.Options {
	if k.Politeness == SourceOwn {
		return s.knowledge.Crawler.ForOwnSite()
	}
	return s.knowledge.Crawler
}

// setLang gives one page's chunks its language: the one the team or the
// page said, when the index reads it, else the one its text is in.
func setLang(page []storage.KnowledgeChunk, said string) {
	l := lang.Base(said)
	if l == "" {
		var sample strings.Builder
		for _, c := range page {
			if sample.Len() > 2000 {
				break
			}
			sample.WriteString(c.Title + " " + c.Heading + " " + c.Text + " ")
		}
		l = lang.Detect(sample.String(), "")
	}
	for i := range page {
		page[i].Lang = l
	}
}

// searchChunks gives a source's chunks what the index filters on.
func searchChunks(k *chat.KnowledgeSource, chunks []storage.KnowledgeChunk) []knowledge.Chunk {
	docs := make([]knowledge.Chunk, len(chunks))
	for i, c := range chunks {
		docs[i] = knowledge.Chunk{SourceID: k.ID, SiteID: deref(k.SiteID), Mode: k.Mode, URL: c.URL, Title: c.Title,
			Heading: c.Heading, Text: c.Text, Lang: c.Lang}
	}
	return docs
}

// IndexStep brings queued sources' documents in the search index in line
// with the database: a source's chunks replace its documents, a deleted
// source's documents go.
func (s *Service) IndexStep(ctx context.Context) (bool, error) {
	jobs, err := s.db.Read().KnowledgeIndexQueue(ctx, indexBatch)
	if err != nil {
		return false, err
	}
	for _, j := range jobs {
		if err := s.indexSource(ctx, j); err != nil {
			return false, err
		}
	}
	return len(jobs) == indexBatch, nil
}

func (s *Service) indexSource(ctx context.Context, j storage.IndexJob) error {
	s.knowledge.indexMu.Lock()
	defer s.knowledge.indexMu.Unlock()
	var docs []knowledge.Chunk
	err := s.db.ReadTx(ctx, func(q *storage.Q) error {
		k, err := q.KnowledgeSourceByID(ctx, j.SourceID)
		if isNotFound(err) {
			return nil // deleted: no documents
		} else if err != nil {
			return err
		}
		chunks, err := q.KnowledgeChunks(ctx, k.ID)
		docs = searchChunks(k, chunks)
		return err
	})
	if err != nil {
		return err
	}
	if err := s.knowledge.Index.Replace(ctx, j.SourceID, docs); err != nil {
		return fmt.Errorf("index source %s: %w", j.SourceID, err)
	}
	s.knowledge.Vectors.changed()
	// Not s.write: this commit is no news for the workers.
	return s.db.Write(ctx, func(q *storage.Q) error { return q.DoneKnowledgeIndex(ctx, j) })
}

// NightlyStep owes every source a sync (failed ones included) once the
// day's nightly_at has passed and that run is not yet recorded. The first
// time it runs on a database it only records the latest scheduled time, so
// the first nightly sync is the next one. A server that was down at
// nightly_at catches up once when it starts.
func (s *Service) NightlyStep(ctx context.Context) (bool, error) {
	slot, err := lastSlot(s.now(), s.knowledge.NightlyAt)
	if err != nil {
		return false, err
	}
	done, err := s.db.Read().Setting(ctx, settingNightlyRun)
	if err != nil && !isNotFound(err) {
		return false, err
	}
	if last, perr := time.Parse(time.RFC3339, done); perr == nil && !last.Before(slot) {
		return false, nil
	}
	// n is the number of sources asked to sync, or -1 on a first run.
	n, err := writeResult(ctx, s, func(q *storage.Q) (n int64, err error) {
		n = -1
		done, err := q.Setting(ctx, settingNightlyRun)
		switch {
		case isNotFound(err):
		case err != nil:
			return 0, err
		default:
			if last, perr := time.Parse(time.RFC3339, done); perr == nil && last.Before(slot) {
				if n, err = q.RequestAllKnowledgeSyncs(ctx, s.stamp()); err != nil {
					return 0, err
				}
			}
		}
		return n, q.SetSetting(ctx, settingNightlyRun, slot.Format(time.RFC3339))
	})
	if err == nil && n >= 0 {
		slog.Info("nightly knowledge sync", "scheduled", slot.Format(time.RFC3339), "sources", n)
	}
	return false, err
}

// lastSlot is the latest time of day at (HH:MM, UTC) not after now.
func lastSlot(now time.Time, at string) (time.Time, error) {
	hm, err := time.Parse("15:04", at)
	if err != nil {
		return time.Time{}, fmt.Errorf("knowledge.nightly_at %q: %w", at, err)
	}
	now = now.UTC()
	slot := time.Date(now.Year(), now.Month(), now.Day(), hm.Hour(), hm.Minute(), 0, 0, time.UTC)
	if slot.After(now) {
		slot = slot.AddDate(0, 0, -1)
	}
	return slot, nil
}

// KnowledgeChunks calls fn with every stored chunk, as the index holds it:
// what `chatsvc reindex` rebuilds the index from.
func (s *Service) KnowledgeChunks(ctx context.Context, fn func(knowledge.Chunk) error) error {
	return s.db.ReadTx(ctx, func(q *storage.Q) error {
		return q.EachKnowledgeChunk(ctx, func(k *chat.KnowledgeSource, c storage.KnowledgeChunk) error {
			return fn(searchChunks(k, []storage.KnowledgeChunk{c})[0])
		})
	})
}

// RefillKnowledgeIndex queues every source with pages for the index
// worker: for an index that was lost or started empty beside a database
// that has pages. It returns how many sources were queued.
func (s *Service) RefillKnowledgeIndex(ctx context.Context) (int64, error) {
	return writeResult(ctx, s, func(q *storage.Q) (int64, error) { return q.QueueAllKnowledgeIndex(ctx) })
}
