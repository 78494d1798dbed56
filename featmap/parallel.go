package featmap

import (
	"runtime"
	"sync"
)

// chunkRows is the fixed unit of parallel work. Rows are independent, so
// chunking affects speed only, never results.
const chunkRows = 256

// parallelWork is the work (rows × outputs × inputs) below which a call stays
// on the calling goroutine and allocates nothing.
const parallelWork = 1 << 18

// parallel reports whether a job of n rows is worth goroutines. Callers run
// small jobs inline, without building a closure, so they allocate nothing.
func parallel(n, workPerRow int) bool {
	return runtime.GOMAXPROCS(0) > 1 && n > chunkRows && n*workPerRow >= parallelWork
}

// forRows calls f on [lo, hi) row ranges covering [0, n), on up to GOMAXPROCS
// goroutines taking fixed chunks.
func forRows(n int, f func(lo, hi int)) {
	chunks := (n + chunkRows - 1) / chunkRows
	workers := min(runtime.GOMAXPROCS(0), chunks)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				c := next
				next++
				mu.Unlock()
				if c >= chunks {
					return
				}
				f(c*chunkRows, min(n, (c+1)*chunkRows))
			}
		}()
	}
	wg.Wait()
}
