package exploss

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// ChunkLen is the number of samples per chunk of every sum. It is part of
// the definition of the result (the summation order), not a tuning knob.
// At d = 20 a chunk is 640 KiB of X, which fits the per-core L2 of the
// machines rfkit is tuned on, and 10⁵ samples make 25 chunks, enough to
// balance two to eight workers.
const ChunkLen = 4096

func numChunks(n int) int { return (n + ChunkLen - 1) / ChunkLen }

func chunkRange(c, n int) (lo, hi int) {
	lo = c * ChunkLen
	return lo, min(lo+ChunkLen, n)
}

// A sweep is one forChunks call shared with the worker pool. The caller
// claims chunks from the front, the workers from the back, until none are
// left; each chunk writes only its own results, so which goroutine runs a
// chunk never changes the bits.
//
// Front and back, not one shared counter: on two cores the caller then
// sweeps nearly the same leading chunks of every vector, sweep after
// sweep, and the worker the trailing ones, so each core finds its part in
// its own cache. With a shared counter the chunks went to either core at
// random; at n = 10⁵ (vectors of 800 KB, written by one sweep and read by
// the next) the correlation and weight-update sweeps took longer on two
// cores than on one (a GBRFF2 fit's 300 rounds: 22 against 17 ms and 20
// against 21 ms; front and back: 12 and 14 ms).
type sweep struct {
	f     func(c, lo, hi int)
	n, nc int
	// claim holds the chunks not yet claimed, [lo, hi): lo in its low 32
	// bits, hi in its high 32 (numChunks is far below 2³² for any n that
	// fits in memory)
	claim atomic.Uint64
	// state counts the goroutines inside the sweep (the caller included
	// until it closes it) and carries closedBit once the caller has done
	// its share: a worker that picks the sweep up after that must not join,
	// and the last one to leave a closed sweep signals done.
	state atomic.Int64
	done  chan struct{}
}

const closedBit = 1 << 62

// work runs chunks of s until none is left: the first unclaimed one each
// time when front, else the last.
func (s *sweep) work(front bool) {
	for {
		v := s.claim.Load()
		lo, hi := uint32(v), uint32(v>>32)
		if lo >= hi {
			return
		}
		c := lo
		nv := uint64(hi)<<32 | uint64(lo+1)
		if !front {
			c = hi - 1
			nv = uint64(hi-1)<<32 | uint64(lo)
		}
		if !s.claim.CompareAndSwap(v, nv) {
			continue
		}
		a, b := chunkRange(int(c), s.n)
		s.f(int(c), a, b)
	}
}

// enter reports whether a worker may join s (it is not closed yet).
func (s *sweep) enter() bool {
	for {
		v := s.state.Load()
		if v&closedBit != 0 {
			return false
		}
		if s.state.CompareAndSwap(v, v+1) {
			return true
		}
	}
}

func (s *sweep) leave() {
	if s.state.Add(-1) == closedBit {
		s.done <- struct{}{}
	}
}

// The pool: long-lived goroutines, started on first need and never more
// than GOMAXPROCS − 1 at any time of the process, that wait for sweeps on
// jobs. A sweep offers itself once per extra worker it wants; offers that
// no worker takes before the caller has finished its share are dropped
// when a worker finally reads them (enter fails), so a busy pool never
// delays a sweep: the caller then simply does more chunks itself.
var pool struct {
	mu      sync.Mutex
	started atomic.Int32
	jobs    chan *sweep
}

func init() { pool.jobs = make(chan *sweep, 256) }

func ensureWorkers(k int) {
	if int(pool.started.Load()) >= k {
		return
	}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	for int(pool.started.Load()) < k {
		pool.started.Add(1)
		go worker()
	}
}

func worker() {
	for {
		s := nextJob()
		if s.enter() {
			s.work(false)
			s.leave()
		}
	}
}

// spinFor is how long a worker keeps polling for the next sweep before it
// parks. Waking a parked goroutine on another core costs tens of µs (the
// scheduler must wake an OS thread), as much as a whole sweep over a
// GBRFF2 subsample of 2·10⁴ rows; an optimiser's evaluations come back to
// back, and the serial parts between a round's sweeps (the line search, the
// phase steps, drawing the next subsample) take up to about 100 µs, so a
// worker that polls through them joins the next sweep at once. Measured on
// two cores, a sweep of five 10 µs chunks after 100 µs of serial work:
// 54.7 µs with 50 µs of polling (the worker had parked: no faster than one
// core's 53.2), 34.8 µs with 300 µs. The price is CPU time: a worker polls
// for up to spinFor after the last sweep of a fit.
const spinFor = 300 * time.Microsecond

// nextJob returns the next sweep offered to the pool: polling (and yielding
// the processor between polls) for up to spinFor, then blocking.
func nextJob() *sweep {
	select {
	case s := <-pool.jobs:
		return s
	default:
	}
	start := time.Now()
	for i := 0; ; i++ {
		runtime.Gosched()
		select {
		case s := <-pool.jobs:
			return s
		default:
		}
		if i%16 == 15 && time.Since(start) > spinFor {
			return <-pool.jobs
		}
	}
}

// workers is the number of goroutines a sweep of nc chunks uses under the
// thread limit threads (≤ 0: GOMAXPROCS; never more than GOMAXPROCS).
func workers(threads, nc int) int {
	w := runtime.GOMAXPROCS(0)
	if threads > 0 {
		w = min(w, threads)
	}
	return min(w, nc)
}

// forChunks runs f on every chunk of n samples, on up to `workers(threads)`
// goroutines (the caller and pool workers); f must write only its own
// chunk's results. It returns when every chunk is done.
func forChunks(threads, n int, f func(c, lo, hi int)) {
	nc := numChunks(n)
	w := workers(threads, nc)
	if w <= 1 {
		for c := 0; c < nc; c++ {
			lo, hi := chunkRange(c, n)
			f(c, lo, hi)
		}
		return
	}
	ensureWorkers(w - 1)
	s := &sweep{f: f, n: n, nc: nc, done: make(chan struct{}, 1)}
	s.state.Store(1) // the caller
	s.claim.Store(uint64(nc) << 32)
	for i := 0; i < w-1; i++ {
		select {
		case pool.jobs <- s:
		default: // the queue is full: fewer helpers
		}
	}
	s.work(true)
	if s.state.Add(closedBit-1) != closedBit {
		s.wait() // a worker is still on its last chunk
	}
}

// wait returns when every worker has left the closed sweep s. Like a
// worker between sweeps it polls first, for up to spinFor: the last chunk
// of the other worker ends within one chunk's time (tens of µs), and
// parking the caller would add the wake-up of its OS thread on top. Only
// then does it block on done. The last worker's send on done never blocks
// (the channel holds one), whether or not the caller still receives it.
func (s *sweep) wait() {
	start := time.Now()
	for i := 0; ; i++ {
		if s.state.Load() == closedBit {
			return
		}
		runtime.Gosched()
		if i%16 == 15 && time.Since(start) > spinFor {
			<-s.done
			return
		}
	}
}
