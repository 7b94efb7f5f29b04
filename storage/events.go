package storage

import (
	"context"
	"encoding/json"

	"chatsvc/chat"
)

const eventCols = `seq, id, mode, type, object_id, data, created_at`

func scanEvent(s interface{ Scan(...any) error }) (*chat.Event, error) {
	e := &chat.Event{}
	var data string
	if err := s.Scan(&e.Seq, &e.ID, &e.Mode, &e.Type, &e.ObjectID, &data, &e.CreatedAt); err != nil {
		return nil, notFound(err)
	}
	e.Data = json.RawMessage(data)
	return e, nil
}

// InsertEvent stores an event and sets its Seq.
func (q *Q) InsertEvent(ctx context.Context, e *chat.Event) error {
	q.queued(QueueEvents)
	res, err := q.exec(ctx, `INSERT INTO events (id, mode, type, object_id, data, created_at) VALUES (?,?,?,?,?,?)`,
		e.ID, e.Mode, e.Type, e.ObjectID, string(e.Data), e.CreatedAt)
	if err != nil {
		return err
	}
	e.Seq, err = res.LastInsertId()
	return err
}

// EventsOf lists the events of one object, oldest first.
func (q *Q) EventsOf(ctx context.Context, objectID string) ([]*chat.Event, error) {
	rows, err := q.query(ctx, `SELECT `+eventCols+` FROM events WHERE object_id = ? ORDER BY seq`, objectID)
	return collect(rows, err, scanEvent)
}

// EventsAfter lists up to limit events with seq greater than after, in order.
func (q *Q) EventsAfter(ctx context.Context, after int64, limit int) ([]*chat.Event, error) {
	rows, err := q.query(ctx, `SELECT `+eventCols+` FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
	return collect(rows, err, scanEvent)
}
