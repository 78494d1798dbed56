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
				Each(tasks, serial, func() *int { made.Add(1); return new(int) }, func(*int) { freed.Add(1) },
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
	Each(2, false, None, nil, func(int, struct{}) {})
}
