package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/cv"
)

// split is one seed's protocol for a data set, as row indices into it.
type split struct {
	train, test []int
	folds       [][]int // cross-validation folds, positions into train
}

// group is the work for one (data set, seed, method): the grid's
// candidates × folds, then the refit of the winner on the training part.
type group struct {
	set, seed int // index into the loaded sets; the seed itself
	meth      method
	ds        *dataset.Dataset
	sp        *split
	cands     []cv.Candidate
	scores    [][]float64 // [candidate][fold] validation accuracy
	left      int         // cross-validation fits not finished
	work      time.Duration

	// Results, set by the refit.
	best   int     // winning candidate
	cvMean float64 // its mean validation accuracy
	test   float64 // its test accuracy after the refit
	cached bool    // the results come from the -cache file
}

// task is one fit: a candidate on a fold, or the refit (fold < 0).
type task struct {
	g          *group
	cand, fold int
}

// newSplit applies the protocol's splits for one seed.
// The training part is subsampled (stratified) to maxTrain rows if it is
// larger and maxTrain > 0.
func newSplit(ds *dataset.Dataset, seed uint64, maxTrain, folds int) (*split, error) {
	train, test := dataset.StratifiedSplit(ds.Y, 0.3, seed)
	if maxTrain > 0 && len(train) > maxTrain {
		keep, _ := dataset.StratifiedSplit(pick(ds.Y, train), 1-float64(maxTrain)/float64(len(train)), seed+0x5a5a)
		sub := make([]int, len(keep))
		for i, k := range keep {
			sub[i] = train[k]
		}
		train = sub
	}
	parts, err := dataset.StratifiedKFold(pick(ds.Y, train), folds, 1<<32+seed)
	if err != nil {
		return nil, err
	}
	return &split{train: train, test: test, folds: parts}, nil
}

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// rows copies the rows idx of ds into a dense matrix and their labels.
func rows(ds *dataset.Dataset, idx []int) (featmap.Matrix, []float64) {
	X := make([]float64, len(idx)*ds.D)
	for r, i := range idx {
		copy(X[r*ds.D:(r+1)*ds.D], ds.Row(i))
	}
	return featmap.Dense(len(idx), ds.D, X), pick(ds.Y, idx)
}

// execute runs every group on o.workers goroutines and returns them in
// (set, seed, method) order with their results.
func execute(ctx context.Context, o *options, sets []*dataset.Dataset, c *cache, stderr io.Writer) ([]*group, error) {
	var groups []*group
	var queue []task
	for si, ds := range sets {
		for s := o.seed0; s < o.seed0+o.seeds; s++ {
			splits := map[int]*split{} // by row limit
			for _, m := range o.methods {
				limit := o.maxTrainFor(m.Key)
				sp := splits[limit]
				if sp == nil {
					var err error
					if sp, err = newSplit(ds, uint64(s), limit, o.folds); err != nil {
						return nil, fmt.Errorf("%s, seed %d: %w", o.sets[si], s, err)
					}
					splits[limit] = sp
				}
				cands, err := candidates(m, ds.D, o, uint64(s))
				if err != nil {
					return nil, err
				}
				g := &group{set: si, seed: s, meth: m, ds: ds, sp: sp, cands: cands,
					scores: make([][]float64, len(cands)), left: len(cands) * o.folds}
				for c := range cands {
					g.scores[c] = make([]float64, o.folds)
				}
				groups = append(groups, g)
				if c.lookup(g, o) {
					continue
				}
				for f := 0; f < o.folds; f++ {
					for c := range cands {
						queue = append(queue, task{g: g, cand: c, fold: f})
					}
				}
			}
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		cond     = sync.NewCond(&mu)
		refits   []task
		next     int
		pending  = len(queue)
		firstErr error
		done     int
		start    = time.Now()
	)
	for _, g := range groups {
		if g.cached {
			done++
		} else {
			pending++ // its refit
		}
	}
	if done > 0 {
		fmt.Fprintf(stderr, "reproduce-gbrff: %d of %d groups from the cache\n", done, len(groups))
	}
	worker := func() {
		for {
			mu.Lock()
			for len(refits) == 0 && next >= len(queue) && pending > 0 && firstErr == nil {
				cond.Wait()
			}
			if pending == 0 || firstErr != nil {
				mu.Unlock()
				return
			}
			var t task
			if len(refits) > 0 {
				t, refits = refits[0], refits[1:]
			} else {
				t = queue[next]
				next++
			}
			mu.Unlock()

			t0 := time.Now()
			acc, err := runTask(ctx, t)
			dt := time.Since(t0)

			mu.Lock()
			pending--
			g := t.g
			g.work += dt
			switch {
			case err != nil:
				if firstErr == nil {
					firstErr = fmt.Errorf("%s, seed %d, %s: %w", o.sets[g.set], g.seed, g.meth.Key, err)
					cancel()
				}
			case t.fold >= 0:
				g.scores[t.cand][t.fold] = acc
				if g.left--; g.left == 0 {
					g.best, g.cvMean = bestCandidate(g.scores)
					refits = append(refits, task{g: g, fold: -1})
				}
			default:
				g.test = acc
				done++
				if err := c.store(g, o); err != nil && firstErr == nil {
					firstErr = fmt.Errorf("-cache: %w", err)
					cancel()
				}
				fmt.Fprintf(stderr, "[%d/%d %s] %-13s seed %2d %-6s cv %5.1f%%  test %5.1f%%  (%s)  %.1fs of fits\n",
					done, len(groups), time.Since(start).Round(time.Second), o.sets[g.set], g.seed, g.meth.Title,
					100*g.cvMean, 100*g.test, prettyName(g.cands[g.best].Name, g.ds.D), g.work.Seconds())
			}
			cond.Broadcast()
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range o.workers {
		wg.Add(1)
		go func() { defer wg.Done(); worker() }()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return groups, nil
}

// bestCandidate returns the candidate with the highest mean score (the first
// on ties) and that mean.
func bestCandidate(scores [][]float64) (int, float64) {
	best, bestMean := 0, math.Inf(-1)
	for c, s := range scores {
		var m float64
		for _, v := range s {
			m += v
		}
		m /= float64(len(s))
		if m > bestMean {
			best, bestMean = c, m
		}
	}
	return best, bestMean
}

// runTask fits one candidate and returns its accuracy on the held-out part.
func runTask(ctx context.Context, t task) (float64, error) {
	g := t.g
	var trainIdx, testIdx []int
	if t.fold >= 0 {
		for _, p := range dataset.TrainIndices(g.sp.folds, t.fold) {
			trainIdx = append(trainIdx, g.sp.train[p])
		}
		for _, p := range g.sp.folds[t.fold] {
			testIdx = append(testIdx, g.sp.train[p])
		}
	} else {
		trainIdx, testIdx = g.sp.train, g.sp.test
	}
	c := g.cands[t.cand]
	if t.fold < 0 {
		c = g.cands[g.best]
	}
	Xtr, ytr := rows(g.ds, trainIdx)
	m, err := c.Fit(ctx, Xtr, ytr)
	if err != nil {
		return 0, fmt.Errorf("candidate %s: %w", c.Name, err)
	}
	Xte, yte := rows(g.ds, testIdx)
	return cv.Accuracy(m, Xte, yte)
}
