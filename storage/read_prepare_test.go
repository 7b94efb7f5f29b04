package storage

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Read transactions that hold every reader connection and each run a query
// not prepared before all finish: preparing one for the cache waits for a
// free connection, which none of them gives back until it ends.
func TestReadTransactionsPrepareWithoutAFreeConnection(t *testing.T) {
	t.Parallel()
	db, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := db.read.Stats().MaxOpenConnections
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var inside, wg sync.WaitGroup
	inside.Add(n)
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- db.ReadTx(ctx, func(q *Q) error {
				inside.Done()
				inside.Wait() // every reader connection is now in a transaction
				var got int
				if err := q.row(ctx, fmt.Sprintf("SELECT %d + ?", i), 1).Scan(&got); err != nil {
					return err
				}
				if got != i+1 {
					return fmt.Errorf("query %d: got %d", i, got)
				}
				return nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
