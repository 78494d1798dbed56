package par

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

// TestEach: every task runs once on every worker count, serial or not;
// every scratch made is released.
func TestEach(t *testing.T) {
	for _, procs := range []int{1, 2, 5} {
		old := runtime.GOMAXPROCS(procs)
		for _, serial := range []bool{false, true} {
			for _, tasks := range []int{0, 1, 3, 100} {
				got := make([]int, tasks)
				var made, freed atomic.Int64
				Each(0, tasks, serial, func() *int { made.Add(1); return new(int) }, func(*int) { freed.Add(1) },
					func(i int, s *int) { got[i]++; *s++ })
				want := make([]int, tasks)
				for i := range want {
					want[i] = 1
				}
				if !slices.Equal(got, want) {
					t.Errorf("procs %d serial %v tasks %d: runs %v", procs, serial, tasks, got)
				}
				if made.Load() != freed.Load() || made.Load() < 1 || made.Load() > int64(max(1, min(procs, tasks))) {
					t.Errorf("procs %d serial %v tasks %d: %d scratches made, %d released", procs, serial, tasks, made.Load(), freed.Load())
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
	Each(0, 2, false, None, nil, func(int, struct{}) {})
}

// TestThreads: a thread limit caps the goroutines (scratches made) below
// GOMAXPROCS, and ≤ 0 means GOMAXPROCS.
func TestThreads(t *testing.T) {
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	for _, c := range []struct{ threads, want int }{{1, 1}, {2, 2}, {3, 3}, {8, 4}, {0, 4}, {-1, 4}} {
		if w := Workers(c.threads, 100); w != c.want {
			t.Errorf("Workers(%d, 100) = %d, want %d", c.threads, w, c.want)
		}
		var made atomic.Int64
		Each(c.threads, 100, false, func() struct{} { made.Add(1); return struct{}{} }, nil, func(int, struct{}) {})
		if made.Load() < 1 || made.Load() > int64(c.want) {
			t.Errorf("threads %d: %d goroutines, want at most %d", c.threads, made.Load(), c.want)
		}
	}
}
