package storage

import (
	"context"

	"chatsvc/chat"
)

// Gauges are counts of the database's queues and stores, read for metrics.
type Gauges struct {
	Queues             map[string]int64 // work waiting, by queue
	DeliveriesOK       int64            // webhook attempts answered 2xx
	DeliveriesFailed   int64            // webhook attempts that were not
	KnowledgePages     int64
	KnowledgeChunks    int64
	KnowledgeSources   int64
	KnowledgeFailed    int64 // sources whose last sync failed
	ConversationsTotal int64
}

// ReadGauges counts, in one statement, what the metrics expose;
// failedSource is the status of a knowledge source whose last sync failed.
func (q *Q) ReadGauges(ctx context.Context, failedSource string) (*Gauges, error) {
	g := &Gauges{}
	var outbox, webhooks, assistant, syncs, index int64
	err := q.row(ctx, `SELECT
		(SELECT COUNT(*) FROM outbox WHERE status = ?),
		(SELECT COUNT(*) FROM webhook_queue),
		(SELECT COUNT(*) FROM assistant_jobs),
		(SELECT COUNT(*) FROM knowledge_sources WHERE sync_requested_at IS NOT NULL),
		(SELECT COUNT(*) FROM knowledge_index_queue),
		(SELECT COUNT(*) FROM webhook_attempts WHERE delivered = 1),
		(SELECT COUNT(*) FROM webhook_attempts WHERE delivered = 0),
		(SELECT COALESCE(SUM(page_count), 0) FROM knowledge_sources),
		(SELECT COUNT(*) FROM knowledge_chunks),
		(SELECT COUNT(*) FROM knowledge_sources),
		(SELECT COUNT(*) FROM knowledge_sources WHERE status = ?),
		(SELECT COUNT(*) FROM conversations)`, chat.MailPending, failedSource).Scan(&outbox, &webhooks, &assistant, &syncs, &index,
		&g.DeliveriesOK, &g.DeliveriesFailed, &g.KnowledgePages, &g.KnowledgeChunks, &g.KnowledgeSources,
		&g.KnowledgeFailed, &g.ConversationsTotal)
	g.Queues = map[string]int64{"outbox": outbox, "webhooks": webhooks, "assistant": assistant,
		"knowledge_syncs": syncs, "search_index": index}
	return g, err
}
