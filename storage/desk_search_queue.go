package storage

import (
	"context"
	"database/sql"
)

// searchSources are the texts search finds through the queue, by the table
// it names, each as (id, mode, type, target_id, created_at, body) read from
// that table: a note finds its conversation, a ticket or comment its
// ticket, a contact itself. Messages have a table of their own
// (search_messages), indexed by rowid.
var searchSources = []struct{ table, text string }{
	{"notes", `SELECT id, mode, 'conversation' AS type, conversation_id AS target_id, created_at, body FROM notes`},
	{"tickets", `SELECT id, mode, 'ticket' AS type, id AS target_id, created_at,
		subject || ' ' || COALESCE(description, '') AS body FROM tickets`},
	{"ticket_comments", `SELECT id, mode, 'ticket' AS type, ticket_id AS target_id, created_at, body FROM ticket_comments`},
	{"contacts", `SELECT id, mode, 'contact' AS type, id AS target_id, created_at,
		COALESCE(name, '') || ' ' || COALESCE(email, '') AS body FROM contacts`},
}

// queueSearch queues a newly inserted text of table for the desk-search-index
// worker, unless its insert failed (err). It is written here rather than
// by a trigger: a table with an INSERT trigger costs every insert into it
// a statement journal.
func (q *Q) queueSearch(ctx context.Context, err error, table, id string) error {
	if err != nil {
		return err
	}
	_, err = q.exec(ctx, `INSERT INTO search_queue (source_id, source) VALUES (?, ?)`, id, table)
	return err
}

// searchIndexSQL are the statements that index the queued texts up to
// seq ?1 and take them off the queue. Each text is looked up in the table
// the queue names and read as it is now, so a text deleted since it was
// queued indexes nothing and one rewritten (erased) indexes its new words
// only. A text queued twice is indexed once; a document keeps its number,
// so rowid order stays write order.
var searchIndexSQL = func() []string {
	docs, text := "", ""
	for i, src := range searchSources {
		if i > 0 {
			docs += " UNION ALL "
			text += " UNION ALL "
		}
		queued := `(SELECT DISTINCT source_id FROM search_queue WHERE seq <= ?1 AND source = '` + src.table + `')`
		// CROSS JOIN: the few queued ids lead, each text is looked up by id.
		docs += `SELECT q.seq, s.id, s.mode, s.type, s.target_id, s.created_at
			FROM search_queue q CROSS JOIN (` + src.text + `) s ON s.id = q.source_id
			WHERE q.seq <= ?1 AND q.source = '` + src.table + `'`
		text += `SELECT d.doc, s.body FROM ` + queued + ` q CROSS JOIN search_docs d ON d.source_id = q.source_id
			CROSS JOIN (` + src.text + `) s ON s.id = q.source_id`
	}
	return []string{
		`INSERT OR IGNORE INTO search_docs (source_id, mode, type, target_id, created_at)
			SELECT id, mode, type, target_id, created_at FROM (` + docs + `) ORDER BY seq`,
		`INSERT INTO search_text (rowid, body) SELECT * FROM (` + text + `) ORDER BY 1`,
		`DELETE FROM search_queue WHERE seq <= ?1`,
	}
}()

// IndexSearchQueue indexes up to n of the oldest queued texts and up to n
// messages not yet in search_messages, and reports how many it indexed.
func (q *Q) IndexSearchQueue(ctx context.Context, n int) (int, error) {
	messages, err := q.indexMessages(ctx, n)
	if err != nil {
		return 0, err
	}
	var last sql.NullInt64
	var count int
	if err := q.row(ctx, `SELECT MAX(seq), COUNT(*) FROM (SELECT seq FROM search_queue ORDER BY seq LIMIT ?)`, n).
		Scan(&last, &count); err != nil || count == 0 {
		return messages, err
	}
	for _, stmt := range searchIndexSQL {
		if _, err := q.exec(ctx, stmt, last.Int64); err != nil {
			return 0, err
		}
	}
	return messages + count, nil
}

// indexMessages indexes up to n messages after the search position, in
// rowid order (the order they were written in), and moves the position.
func (q *Q) indexMessages(ctx context.Context, n int) (int, error) {
	var from int64
	if err := q.row(ctx, `SELECT last FROM search_positions WHERE name = 'messages'`).Scan(&from); err != nil {
		return 0, err
	}
	var to sql.NullInt64
	var count int
	if err := q.row(ctx, `SELECT MAX(rowid), COUNT(*) FROM (SELECT rowid FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?)`,
		from, n).Scan(&to, &count); err != nil || count == 0 {
		return 0, err
	}
	if _, err := q.exec(ctx, `INSERT INTO search_messages (rowid, body) SELECT rowid, body FROM messages
		WHERE rowid > ? AND rowid <= ? ORDER BY rowid`, from, to.Int64); err != nil {
		return 0, err
	}
	_, err := q.exec(ctx, `UPDATE search_positions SET last = ? WHERE name = 'messages'`, to.Int64)
	return count, err
}

// SearchQueued reports whether texts wait to be indexed.
func (q *Q) SearchQueued(ctx context.Context) (bool, error) {
	var queued bool
	err := q.row(ctx, `SELECT EXISTS (SELECT 1 FROM search_queue) OR EXISTS (SELECT 1 FROM messages
		WHERE rowid > (SELECT last FROM search_positions WHERE name = 'messages'))`).Scan(&queued)
	return queued, err
}
