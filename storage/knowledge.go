package storage

import (
	"context"

	"chatsvc/chat"
)

const sourceCols = `id, type, name, url, status, page_count, last_synced_at, created_at, mode, site_id, content,
	failure_reason, sync_requested_at, last_sync_request_at, language, politeness`

func scanSource(s interface{ Scan(...any) error }) (*chat.KnowledgeSource, error) {
	k := &chat.KnowledgeSource{}
	err := s.Scan(&k.ID, &k.Type, &k.Name, &k.URL, &k.Status, &k.PageCount, &k.LastSyncedAt, &k.CreatedAt, &k.Mode,
		&k.SiteID, &k.Content, &k.FailureReason, &k.SyncRequestedAt, &k.LastSyncRequestAt, &k.Language, &k.Politeness)
	if err != nil {
		return nil, notFound(err)
	}
	return k, nil
}

// InsertKnowledgeSource stores a new source.
func (q *Q) InsertKnowledgeSource(ctx context.Context, k *chat.KnowledgeSource) error {
	q.queued(QueueKnowledge)
	_, err := q.exec(ctx, `INSERT INTO knowledge_sources (`+sourceCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		k.ID, k.Type, k.Name, k.URL, k.Status, k.PageCount, k.LastSyncedAt, k.CreatedAt, k.Mode, k.SiteID, k.Content,
		k.FailureReason, k.SyncRequestedAt, k.LastSyncRequestAt, k.Language, k.Politeness)
	return err
}

// UpdateKnowledgeSource writes the sync state of k: status, page count,
// times, failure reason and whether a sync is owed.
func (q *Q) UpdateKnowledgeSource(ctx context.Context, k *chat.KnowledgeSource) error {
	q.queued(QueueKnowledge)
	res, err := q.exec(ctx, `UPDATE knowledge_sources SET status = ?, page_count = ?, last_synced_at = ?,
		failure_reason = ?, sync_requested_at = ?, last_sync_request_at = ? WHERE id = ?`,
		k.Status, k.PageCount, k.LastSyncedAt, k.FailureReason, k.SyncRequestedAt, k.LastSyncRequestAt, k.ID)
	return affected(res, err)
}

// KnowledgeSource returns the source with id in mode, or ErrNotFound.
func (q *Q) KnowledgeSource(ctx context.Context, mode chat.Mode, id string) (*chat.KnowledgeSource, error) {
	return scanSource(q.row(ctx, `SELECT `+sourceCols+` FROM knowledge_sources WHERE id = ? AND mode = ?`, id, mode))
}

// KnowledgeSourceByID returns the source with id in either mode, or ErrNotFound.
func (q *Q) KnowledgeSourceByID(ctx context.Context, id string) (*chat.KnowledgeSource, error) {
	return scanSource(q.row(ctx, `SELECT `+sourceCols+` FROM knowledge_sources WHERE id = ?`, id))
}

// KnowledgeSources lists a mode's sources newest first.
func (q *Q) KnowledgeSources(ctx context.Context, mode chat.Mode, p Page) ([]*chat.KnowledgeSource, error) {
	conds, args := equal(mode)
	where, tail, args := keyset("created_at", true, p, conds, args)
	rows, err := q.query(ctx, `SELECT `+sourceCols+` FROM knowledge_sources`+where+tail, args...)
	return collect(rows, err, scanSource)
}

// DeleteKnowledgeSource removes a source and its chunks.
func (q *Q) DeleteKnowledgeSource(ctx context.Context, mode chat.Mode, id string) error {
	q.queued(QueueKnowledge)
	res, err := q.exec(ctx, `DELETE FROM knowledge_sources WHERE id = ? AND mode = ?`, id, mode)
	return affected(res, err)
}

// NextDueKnowledgeSource returns the source whose sync has been owed the
// longest, or ErrNotFound when none is.
func (q *Q) NextDueKnowledgeSource(ctx context.Context, lane SyncLane) (*chat.KnowledgeSource, error) {
	return scanSource(q.row(ctx, `SELECT `+sourceCols+` FROM knowledge_sources
		WHERE sync_requested_at IS NOT NULL`+laneFilter[lane]+` ORDER BY sync_requested_at, id LIMIT 1`))
}

// SyncLane is a kind of source synced apart from the others: a text
// source is read in a moment and never waits behind a crawl.
type SyncLane int

const (
	AnySources     SyncLane = iota
	TextSources             // type text
	CrawledSources          // type url or sitemap
)

var laneFilter = map[SyncLane]string{AnySources: "", TextSources: ` AND type = 'text'`, CrawledSources: ` AND type <> 'text'`}

// RequestAllKnowledgeSyncs owes a sync of every source, in both modes, as
// of at; sources already owed one keep their place in line.
func (q *Q) RequestAllKnowledgeSyncs(ctx context.Context, at chat.Timestamp) (int64, error) {
	q.queued(QueueKnowledge)
	res, err := q.exec(ctx, `UPDATE knowledge_sources
		SET sync_requested_at = COALESCE(sync_requested_at, ?), last_sync_request_at = ?`, at, at)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// KnowledgeChunk is a passage of a source's page as stored.
type KnowledgeChunk struct {
	SourceID string
	URL      string
	Title    string
	Heading  string
	Text     string
	Lang     string // the page's language as read ("" : not said)
}

// ReplaceKnowledgeChunks makes chunks the whole text of a source.
func (q *Q) ReplaceKnowledgeChunks(ctx context.Context, sourceID string, chunks []KnowledgeChunk) error {
	if _, err := q.exec(ctx, `DELETE FROM knowledge_chunks WHERE source_id = ?`, sourceID); err != nil {
		return err
	}
	for i, c := range chunks {
		if _, err := q.exec(ctx, `INSERT INTO knowledge_chunks (source_id, seq, url, title, heading, text, lang)
			VALUES (?,?,?,?,?,?,?)`, sourceID, i, c.URL, c.Title, c.Heading, c.Text, c.Lang); err != nil {
			return err
		}
	}
	return nil
}

// KnowledgeChunks returns a source's chunks in order.
func (q *Q) KnowledgeChunks(ctx context.Context, sourceID string) ([]KnowledgeChunk, error) {
	rows, err := q.query(ctx, `SELECT source_id, url, title, heading, text, lang FROM knowledge_chunks
		WHERE source_id = ? ORDER BY seq`, sourceID)
	return collect(rows, err, scanChunk)
}

func scanChunk(s interface{ Scan(...any) error }) (KnowledgeChunk, error) {
	var c KnowledgeChunk
	err := s.Scan(&c.SourceID, &c.URL, &c.Title, &c.Heading, &c.Text, &c.Lang)
	return c, err
}

// EachKnowledgeChunk calls fn with every chunk of every source, source by
// source and in order, with the source it belongs to.
func (q *Q) EachKnowledgeChunk(ctx context.Context, fn func(*chat.KnowledgeSource, KnowledgeChunk) error) error {
	rows, err := q.query(ctx, `SELECT `+sourceCols+` FROM knowledge_sources ORDER BY id`)
	srcs, err := collect(rows, err, scanSource)
	if err != nil {
		return err
	}
	for _, s := range srcs {
		chunks, err := q.KnowledgeChunks(ctx, s.ID)
		if err != nil {
			return err
		}
		for _, c := range chunks {
			if err := fn(s, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// QueueKnowledgeIndex asks for a source's documents in the search index
// to be brought in line with the database.
func (q *Q) QueueKnowledgeIndex(ctx context.Context, sourceID string) error {
	q.queued(QueueKnowledge)
	_, err := q.exec(ctx, `INSERT INTO knowledge_index_queue (source_id) VALUES (?)
		ON CONFLICT (source_id) DO UPDATE SET version = version + 1`, sourceID)
	return err
}

// IndexJob is a queued source with the version it was queued at.
type IndexJob struct {
	SourceID string
	Version  int64
}

// KnowledgeIndexQueue lists up to limit queued sources.
func (q *Q) KnowledgeIndexQueue(ctx context.Context, limit int) ([]IndexJob, error) {
	rows, err := q.query(ctx, `SELECT source_id, version FROM knowledge_index_queue ORDER BY source_id LIMIT ?`, limit)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (IndexJob, error) {
		var j IndexJob
		return j, s.Scan(&j.SourceID, &j.Version)
	})
}

// DoneKnowledgeIndex removes a queued source, unless it was queued again
// since version was read.
func (q *Q) DoneKnowledgeIndex(ctx context.Context, j IndexJob) error {
	_, err := q.exec(ctx, `DELETE FROM knowledge_index_queue WHERE source_id = ? AND version = ?`, j.SourceID, j.Version)
	return err
}

// QueueAllKnowledgeIndex queues every source that has chunks, so an index
// found empty is filled again from the database.
func (q *Q) QueueAllKnowledgeIndex(ctx context.Context) (int64, error) {
	q.queued(QueueKnowledge)
	res, err := q.exec(ctx, `INSERT INTO knowledge_index_queue (source_id)
		SELECT DISTINCT source_id FROM knowledge_chunks WHERE true
		ON CONFLICT (source_id) DO UPDATE SET version = version + 1`)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
