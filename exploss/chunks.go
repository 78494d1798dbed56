package exploss

import (
	"runtime"
	"sync"
)

// ChunkLen is the number of samples per chunk of every sum. It is part of
// the definition of the result (the summation order), not a tuning knob.
const ChunkLen = 4096

func numChunks(n int) int { return (n + ChunkLen - 1) / ChunkLen }

func chunkRange(c, n int) (lo, hi int) {
	lo = c * ChunkLen
	return lo, min(lo+ChunkLen, n)
}

// forChunks runs f on every chunk of n samples, on up to GOMAXPROCS
// goroutines; f must write only its own chunk's results.
func forChunks(n int, f func(c, lo, hi int)) {
	nc := numChunks(n)
	workers := min(runtime.GOMAXPROCS(0), nc)
	if workers <= 1 {
		for c := 0; c < nc; c++ {
			lo, hi := chunkRange(c, n)
			f(c, lo, hi)
		}
		return
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			// A fixed stride assignment: which goroutine does a chunk does
			// not matter to the result, only that each chunk is done once.
			for c := w; c < nc; c += workers {
				lo, hi := chunkRange(c, n)
				f(c, lo, hi)
			}
		}()
	}
	wg.Wait()
}
