// Package loadgen is the one load loop of the benchmarks and the load
// harness: several clients call an operation for a while, each call timed.
package loadgen

import (
	"slices"
	"sync"
	"time"
)

// Result is what a run measured.
type Result struct {
	Latencies []time.Duration // of the calls that succeeded, sorted
	Errors    int
	FirstErr  error
	Elapsed   time.Duration
}

// Rate is the successful calls per second.
func (r Result) Rate() float64 { return float64(len(r.Latencies)) / r.Elapsed.Seconds() }

// Quantile is the latency below which the fraction q of the calls fall (0
// when none succeeded).
func (r Result) Quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	return r.Latencies[int(float64(len(r.Latencies))*q)]
}

// Op is one call by client c, its nth (from 0). It returns when its timed
// part began, so work it does first (a new session) is not counted.
type Op func(c, n int) (began time.Time, err error)

// Timed is an Op timed whole.
func Timed(f func(c, n int) error) Op {
	return func(c, n int) (time.Time, error) {
		began := time.Now()
		return began, f(c, n)
	}
}

// Run calls op from clients goroutines until d has passed.
func Run(clients int, d time.Duration, op Op) Result {
	var mu sync.Mutex
	var r Result
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, 4096)
			var errs int
			var first error
			for n := 0; time.Since(start) < d; n++ {
				began, err := op(c, n)
				if err != nil {
					if errs++; first == nil {
						first = err
					}
					continue
				}
				mine = append(mine, time.Since(began))
			}
			mu.Lock()
			r.Latencies = append(r.Latencies, mine...)
			if r.Errors += errs; r.FirstErr == nil {
				r.FirstErr = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.Elapsed = time.Since(start)
	slices.Sort(r.Latencies)
	return r
}
