// Package par is the worker pool of the batch learners: tasks 0..n−1 claimed
// in turn by up to GOMAXPROCS goroutines, each task writing only its own
// results, so the outcome does not depend on the number of goroutines or on
// which one runs a task.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of goroutines Each uses for tasks tasks:
// min(GOMAXPROCS, tasks), at least 1.
func Workers(tasks int) int { return max(1, min(runtime.GOMAXPROCS(0), tasks)) }

// Each runs f(t, s) for t = 0, …, tasks−1: on the calling goroutine when
// serial is set or Workers(tasks) is 1, else on Workers(tasks) goroutines.
// Every goroutine gets its own scratch s from scratch() and hands it to
// release (if not nil) when it has no task left.
func Each[S any](tasks int, serial bool, scratch func() S, release func(S), f func(t int, s S)) {
	workers := Workers(tasks)
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
