package storage

import (
	"context"

	"chatsvc/chat"
)

// EventFilter selects one mode's events; an empty Type does not filter.
type EventFilter struct {
	Mode chat.Mode
	Type string
	Page Page // the cursor key is the event's seq
}

// Events lists events newest first (by seq, the order they were written).
func (q *Q) Events(ctx context.Context, f EventFilter) ([]*chat.Event, error) {
	conds, args := equal(f.Mode, "type", f.Type)
	where, tail, args := keyset("seq", true, f.Page, conds, args)
	rows, err := q.query(ctx, `SELECT `+eventCols+` FROM events`+where+tail, args...)
	return collect(rows, err, scanEvent)
}

// Event returns the event with id in mode, or ErrNotFound.
func (q *Q) Event(ctx context.Context, mode chat.Mode, id string) (*chat.Event, error) {
	return scanEvent(q.row(ctx, `SELECT `+eventCols+` FROM events WHERE id = ? AND mode = ?`, id, mode))
}
