package storage

import (
	"context"
	"slices"
	"testing"

	"chatsvc/chat"
)

// Ticket numbers count from 1 in each mode: the first of a mode creates its
// counter, the next ones move it on.
func TestTicketNumbersCountPerMode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got []int64
	for _, mode := range []chat.Mode{chat.Test, chat.Test, chat.Live, chat.Test, chat.Live} {
		w, err := Write(ctx, db, func(q *Q) (int64, error) { return q.NextTicketNumber(ctx, mode) })
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, w.Result)
	}
	if want := []int64{1, 2, 1, 3, 2}; !slices.Equal(got, want) {
		t.Fatalf("numbers %v, want %v", got, want)
	}
}
