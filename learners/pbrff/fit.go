package pbrff

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
	"github.com/rfkit/rfkit/solvers"
)

// rounds is the number of progress events of a Fit: representation,
// classifier.
const rounds = 2

// Fit trains a PBRFF model on the rows of X (n×d) and their labels y, which
// must take exactly two distinct finite values (the smaller maps to −1;
// Predict returns the original values).
//
// Errors: a cancelled ctx, an invalid cfg, empty or ragged data, NaN or ±Inf
// in X or y, y without exactly two classes, a failing solver, or an error
// returned by cfg.Progress (wrapped; errors.Is finds it). The result depends
// only on the data and cfg, not on GOMAXPROCS or the SIMD path. Memory: the
// n×L representation plus d×L·K frequencies. ctx is checked between rounds,
// between chunks of rows and after every pass of the SVM solver.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	start := time.Now()
	p, err := learners.Prepare(ctx, Name, cfg, learners.Binary, X, y)
	if err != nil {
		return nil, err
	}
	signs, labels, Z := p.Targets, p.Labels, p.Z
	n, d := X.Rows, X.Cols
	c := cfg.resolved(d)
	L, K := c.Landmarks, c.K
	J := L * K
	if n > math.MaxInt/8/L || d > math.MaxInt/8/J {
		return nil, fmt.Errorf("pbrff: %d rows × %d inputs with %d landmarks × %d frequencies do not fit in memory", n, d, L, K)
	}

	// Round 1: draw, score every frequency, weight them.
	m := &body{cfg: c}
	rng := rand.New(rand.NewPCG(c.Seed, 0x9b7ff1a4d))
	idx := make([]int, L)
	m.landmarks = make([]float64, L*d)
	for l := range idx {
		idx[l] = rng.IntN(n)
		copy(m.landmarks[l*d:(l+1)*d], Z[idx[l]*d:(idx[l]+1)*d])
	}
	// ω_lk, drawn landmark by landmark, frequency by frequency, input by
	// input (Box–Muller normals with the same bits on every architecture),
	// stored as column j = l·K + k of the d×J matrix w.
	sd := math.Sqrt(2 * c.Gamma)
	m.w = make([]float64, d*J)
	draws := make([]float64, J*d)
	xrand.FillNormal(rng, draws)
	for j := 0; j < J; j++ {
		for k := 0; k < d; k++ {
			m.w[k*J+j] = float64(draws[j*d+k] * sd)
		}
	}
	draws = nil
	phase := phases(m.w, m.landmarks, d, L, K)

	// S_j = Σ_i y_i cos(ω_j·z_i + b_j): a partial sum per fixed chunk of
	// rows, added in chunk order; the partial sums are kept for at most
	// sumBatch chunks at a time, which bounds the memory.
	chunks := (n + chunkRows - 1) / chunkRows
	S := make([]float64, J)
	part := make([]float64, min(chunks, sumBatch)*J)
	for c0 := 0; c0 < chunks; c0 += sumBatch {
		c1 := min(chunks, c0+sumBatch)
		err = forChunks(ctx, c0, c1, n, J*(d+20), J, func(ch, lo, hi int, row []float64) {
			s := part[(ch-c0)*J : (ch-c0+1)*J]
			clear(s)
			for i := lo; i < hi; i++ {
				asm.CosAffine(row, Z[i*d:(i+1)*d], m.w, phase, J, 1)
				if signs[i] > 0 {
					for j, v := range row {
						s[j] += v
					}
				} else {
					for j, v := range row {
						s[j] -= v
					}
				}
			}
		})
		if err != nil {
			return nil, fmt.Errorf("pbrff: %w", err)
		}
		for ch := c0; ch < c1; ch++ {
			for j, v := range part[(ch-c0)*J : (ch-c0+1)*J] {
				S[j] += v
			}
		}
	}
	part = nil
	ell := make([]float64, J)
	for l := 0; l < L; l++ {
		yl := signs[idx[l]]
		for k := 0; k < K; k++ {
			j := l*K + k
			// yl = ±1: the product is exact.
			ell[j] = (1 - (float64(yl*S[j])-1)/float64(n-1)) / 2
		}
	}
	m.q = make([]float64, J)
	temp := float64(c.Beta * math.Sqrt(float64(n)))
	var risk float64
	for l := 0; l < L; l++ {
		vec.Softmin(m.q[l*K:(l+1)*K], ell[l*K:(l+1)*K], temp)
		var r float64
		for k := l * K; k < (l+1)*K; k++ {
			r = math.FMA(m.q[k], ell[k], r)
		}
		risk += r
	}
	if err := report(ctx, cfg.Progress, 1, risk/float64(L), start); err != nil {
		return nil, err
	}

	// Round 2: the representation φ (n×L) and the linear classifier.
	phi := make([]float64, n*L)
	err = forChunks(ctx, 0, chunks, n, J*(d+20), J, func(_, lo, hi int, row []float64) {
		for i := lo; i < hi; i++ {
			asm.CosAffine(row, Z[i*d:(i+1)*d], m.w, phase, J, 1)
			represent(phi[i*L:(i+1)*L], row, m.q, K)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("pbrff: %w", err)
	}
	var obj float64
	switch c.Loss {
	case Hinge, SquaredHinge:
		opt := solvers.SVMOptions{Loss: solvers.Hinge, Seed: c.Seed, Tol: c.Tol, MaxEpochs: c.MaxEpochs, Context: ctx}
		if c.Loss == SquaredHinge {
			opt.Loss = solvers.SquaredHinge
		}
		m.coef, m.bias, err = solvers.LinearSVM(phi, n, L, signs, c.C, opt)
		if err == nil {
			obj = svmObjective(phi, signs, m.coef, m.bias, c)
		}
	case Logistic:
		var info solvers.Result
		m.coef, m.bias, err = solvers.Logistic(phi, n, L, signs, 1/(c.C*float64(n)), solvers.LogisticOptions{Info: &info, MaxIterations: c.MaxEpochs})
		obj = info.F
	}
	if err != nil {
		return nil, fmt.Errorf("pbrff: %s solver: %w", c.Loss, err)
	}
	m.b = phase
	m.a = amplitudes(m.coef, m.q, K)
	if err := report(ctx, cfg.Progress, 2, obj, start); err != nil {
		return nil, err
	}
	return newModel(m, labels, p.Mean, p.Scale), nil
}

// report sends the progress event of a finished round and checks ctx.
func report(ctx context.Context, p learners.Progress, round int, loss float64, start time.Time) error {
	e := learners.Event{Method: Name, Round: round, Rounds: rounds, Loss: loss, Elapsed: time.Since(start)}
	if err := p.Report(e); err != nil {
		return fmt.Errorf("pbrff: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pbrff: %w", err)
	}
	return nil
}

// phases returns b_{lk} = −ω_lk·l for the d×J frequency matrix w (column
// j = l·K + k) and the L×d landmarks, one FMA per input in input order.
func phases(w, landmarks []float64, d, L, K int) []float64 {
	J := L * K
	b := make([]float64, J)
	for l := 0; l < L; l++ {
		p := landmarks[l*d : (l+1)*d]
		for k := 0; k < K; k++ {
			j := l*K + k
			var s float64
			for i, v := range p {
				s = math.FMA(w[i*J+j], v, s)
			}
			b[j] = -s
		}
	}
	return b
}

// amplitudes returns a_{lk} = c_l·q_lk.
func amplitudes(coef, q []float64, K int) []float64 {
	a := make([]float64, len(q))
	for j, v := range q {
		a[j] = float64(coef[j/K] * v)
	}
	return a
}

// represent writes φ_l = Σ_k q_lk·cos_lk for every landmark, from the row of
// the L·K cosines (one FMA per term, in k order).
func represent(phi, cos, q []float64, K int) {
	for l := range phi {
		var s float64
		for k := l * K; k < (l+1)*K; k++ {
			s = math.FMA(q[k], cos[k], s)
		}
		phi[l] = s
	}
}

// svmObjective is the SVM primal divided by C·n,
// (1/n) Σ ξ(1 − y_i(w·φ_i + c)) + (‖w‖² + c²)/(2Cn), with ξ the hinge or
// its square (the bias is regularised, BiasScale 1).
func svmObjective(phi, y, w []float64, bias float64, c Config) float64 {
	L, n := len(w), len(y)
	var loss float64
	for i, yi := range y {
		var s float64
		for l, v := range w {
			s = math.FMA(v, phi[i*L+l], s)
		}
		if t := 1 - yi*(s+bias); t > 0 {
			if c.Loss == SquaredHinge {
				t *= t
			}
			loss += t
		}
	}
	reg := bias * bias
	for _, v := range w {
		reg += v * v
	}
	return loss/float64(n) + reg/(2*c.C*float64(n))
}

// chunkRows is the fixed unit of work of the passes over the training rows.
// The sums of pass 1 are taken per chunk and combined in chunk order, so the
// chunk size is part of the result's definition, not a tuning knob.
const chunkRows = 256

// sumBatch is the number of chunks whose partial sums pass 1 holds at once.
// It bounds memory only; the result does not depend on it.
const sumBatch = 64

// parallelWork is the work (rows × work per row) below which a pass stays on
// the calling goroutine.
const parallelWork = 1 << 20

// forChunks calls f(chunk, lo, hi, row) for the chunks c0 ≤ chunk < c1 of
// the fixed partition of [0, n) into chunkRows rows, [lo, hi) being the
// chunk's rows, on up to GOMAXPROCS goroutines when the work is large
// enough; row is a scratch slice of len rowLen owned by the calling
// goroutine. It stops early, returning ctx's error, when ctx is cancelled.
func forChunks(ctx context.Context, c0, c1, n, workPerRow, rowLen int, f func(ch, lo, hi int, row []float64)) error {
	rows := min(n, c1*chunkRows) - c0*chunkRows
	workers := min(runtime.GOMAXPROCS(0), c1-c0)
	if workers <= 1 || rows*workPerRow < parallelWork {
		row := make([]float64, rowLen)
		for ch := c0; ch < c1; ch++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			f(ch, ch*chunkRows, min(n, (ch+1)*chunkRows), row)
		}
		return nil
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := c0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			row := make([]float64, rowLen)
			for {
				mu.Lock()
				ch := next
				next++
				mu.Unlock()
				if ch >= c1 || ctx.Err() != nil {
					return
				}
				f(ch, ch*chunkRows, min(n, (ch+1)*chunkRows), row)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
