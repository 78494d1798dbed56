// Package par is the worker pool of the batch learners: tasks 0..n−1 claimed
// in turn by up to min(threads, GOMAXPROCS) goroutines (threads is the
// learner's Config.Threads, 0 meaning GOMAXPROCS), each task writing only
// its own results, so the outcome does not depend on the number of
// goroutines or on which one runs a task.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of goroutines Each uses for tasks tasks under the
// thread limit threads (≤ 0: GOMAXPROCS): min(threads, GOMAXPROCS, tasks),
// at least 1.
func Workers(threads, tasks int) int {
	w := runtime.GOMAXPROCS(0)
	if threads > 0 {
		w = min(w, threads)
	}
	return max(1, min(w, tasks))
}

// Each runs f(t, s) for t = 0, …, tasks−1: on the calling goroutine when
// serial is set or Workers(threads, tasks) is 1, else on that many
// goroutines. Every goroutine gets its own scratch s from scratch() and
// hands it to release (if not nil) when it has no task left.
func Each[S any](threads, tasks int, serial bool, scratch func() S, release func(S), f func(t int, s S)) {
	workers := Workers(threads, tasks)
	if serial || workers <= 1 {
		s := scratch()
		for t := 0; t < tasks; t++ {
			f(t, s)
		}
		if release != nil {
			release(s)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := scratch()
			for {
				t := int(next.Add(1) - 1)
				if t >= tasks {
					break
				}
				f(t, s)
			}
			if release != nil {
				release(s)
			}
		}()
	}
	wg.Wait()
}

// None is the scratch of tasks that need none.
func None() struct{} { return struct{}{} }
