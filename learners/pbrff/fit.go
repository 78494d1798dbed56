package pbrff

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/par"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// rounds is the number of progress events of a Fit: representation,
// classifier.
const rounds = 2

// Fit trains a PBRFF model on the rows of X (n×d) and their labels y. For
// the Binary task (cfg.Task's zero value) y must take exactly two distinct
// finite values (the smaller maps to −1); for Multiclass, 3 to
// modelfile.MaxClasses finite values. Predict returns the original values.
//
// Errors: a cancelled ctx, an invalid cfg, empty or ragged data, NaN or
// ±Inf in X or y, a binary y without exactly two classes, a multiclass y
// with fewer than three or too many, a failing solver, or an error
// returned by cfg.Progress (wrapped; errors.Is finds it). The result
// depends only on the data and cfg, not on GOMAXPROCS or the SIMD path.
// Memory: the n×L representation plus d×L·K frequencies. ctx is checked
// between rounds, between chunks of rows and after every pass of the SVM
// solver.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	return FitWeighted(ctx, X, y, nil, cfg)
}

// FitWeighted is Fit with a weight per row (w == nil: none, the bits of
// Fit). The weights are frequency weights, so a weight of 2 gives the
// model of the row duplicated (up to the order of the sums) and 0 drops
// the row: they enter the standardisation (weighted mean and standard
// deviation), the landmark draw (row i with probability w_i/W, W = Σ w;
// for integer weights exactly the draw of the duplicated rows), the
// landmark losses (weighted sums over the W − 1 other units of weight:
// one copy of the landmark's row is left out, or the whole row if it
// weighs less than 1), the temperature β√W, and the classifier's loss
// (the SVM's C·Σ w_i ξ_i, liblinear's instance weights; the logistic and
// multinomial losses' weighted means with λ = 1/(C·W)). Scaling every
// weight by c is therefore not neutral: like repeating every row c times,
// it sharpens the pseudo-posterior and weakens the regularisation.
// Errors beside Fit's: len(w) != n, a negative, NaN or infinite weight,
// all weights 0.
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// γ × {1, ¼, 4} and C × {1, 1/10, 10}, each when 0 (up to 9 candidates) on
// a held-out half of the rows and fits the best on every row; a
// classifier's probabilities are calibrated on the same half unless
// Calibrate is Disabled. Cost: one fit on every row plus one on half the
// rows per candidate (about 1 + candidates/2 fits).
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, methodName, cfg.Task, X, y, w, cfg, sub, candidates(cfg, X.Cols), kit.On(cfg.Calibrate, cfg.Task != learners.Multiclass), cfg.Seed, fitWeighted)
}

// candidates are the settings the default fit compares on held-out rows
// (kit.SearchFit): γ by kit.GammaOptions and C times 1, 1/10
// and 10 when Gamma or C is 0.
func candidates(cfg Config, d int) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	return kit.Grid(
		kit.GammaOptions(cfg.Gamma, d, func(c *Config, g float64) { c.Gamma = g }),
		kit.ScaleOptions(cfg.C, defaultC, func(c *Config, v float64) { c.C = v }, 1, 0.1, 10))
}

// fitWeighted is FitWeighted without the calibration.
func fitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	p, err := kit.PrepareWeighted(ctx, methodName, cfg, cfg.Task, X, y, w)
	if err != nil {
		return nil, err
	}
	targets, Z, wts := p.Targets, p.Z, p.Weights
	n, d := p.N, p.D
	c := cfg.resolved(d)
	L, K := c.Landmarks, c.K
	J := L * K
	if n > math.MaxInt/8/L || d > math.MaxInt/8/J {
		return nil, fmt.Errorf("pbrff: %d rows × %d inputs with %d landmarks × %d frequencies do not fit in memory", n, d, L, K)
	}
	// W is the total weight, the sample size of the temperature and of the
	// landmark losses (n without weights).
	W := float64(n)
	if wts != nil {
		W = 0
		for _, v := range wts {
			W += v
		}
	}

	// Round 1: draw, score every frequency, weight them.
	m := &body{cfg: c}
	rng := rand.New(rand.NewPCG(c.Seed, 0x9b7ff1a4d))
	idx := drawLandmarks(rng, n, L, wts)
	m.landmarks = make([]float64, L*d)
	for l, i := range idx {
		copy(m.landmarks[l*d:(l+1)*d], Z[i*d:(i+1)*d])
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

	// The agreement sums A_j = Σ_i w_i λ_il cos(ω_j·z_i + b_j), λ_il = +1
	// when row i has landmark l's class, −1 otherwise.
	var lab []int // multiclass: each landmark's class
	if p.Classes != nil {
		lab = make([]int, L)
		for l, i := range idx {
			lab[l] = int(targets[i])
		}
	}
	A, err := agreement(ctx, cfg.Threads, Z, n, d, m.w, phase, K, targets, lab, wts)
	if err != nil {
		return nil, err
	}
	ell := make([]float64, J)
	for l := 0; l < L; l++ {
		// one copy of the landmark's row leaves the sum: its term is its
		// weight (cos 0 = 1, λ = +1) times the copy's share, 1 or all of it
		own := 1.0
		if wts != nil {
			own = math.Min(1, wts[idx[l]])
		}
		yl := 1.0
		if lab == nil {
			yl = targets[idx[l]]
		}
		for k := 0; k < K; k++ {
			j := l*K + k
			// yl = ±1: the product is exact.
			ell[j] = (1 - (float64(yl*A[j])-own)/(W-own)) / 2
		}
	}
	m.q = make([]float64, J)
	temp := float64(c.Beta * math.Sqrt(W))
	var risk float64
	for l := 0; l < L; l++ {
		vec.Softmin(m.q[l*K:(l+1)*K], ell[l*K:(l+1)*K], temp)
		var r float64
		for k := l * K; k < (l+1)*K; k++ {
			r = math.FMA(m.q[k], ell[k], r)
		}
		risk += r
	}
	if err := report(ctx, cfg.Progress, 1, risk/float64(L), p.Start); err != nil {
		return nil, err
	}

	// Round 2: the representation φ (n×L) and the linear classifier.
	phi := make([]float64, n*L)
	chunks := (n + chunkRows - 1) / chunkRows
	ap := asm.NewAffinePanels(m.w, d, J, J)
	err = forChunks(ctx, cfg.Threads, 0, chunks, n, J*(d+20), blockRows*J, func(_, lo, hi int, rows []float64) {
		for i0 := lo; i0 < hi; i0 += blockRows {
			nb := min(blockRows, hi-i0)
			asm.CosAffineRows(rows, J, Z[i0*d:], d, nb, ap, phase, 1)
			for i := i0; i < i0+nb; i++ {
				represent(phi[i*L:(i+1)*L], rows[(i-i0)*J:(i-i0+1)*J], m.q, K)
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("pbrff: %w", err)
	}
	obj, err := m.classifier(ctx, phi, n, p, W)
	if err != nil {
		return nil, fmt.Errorf("pbrff: %s solver: %w", c.Loss, err)
	}
	m.b = phase
	if p.Classes == nil {
		m.a = amplitudes(m.coef, m.q, K)
	}
	if err := report(ctx, cfg.Progress, 2, obj, p.Start); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(c.Task, c.link()), m), nil
}

// drawLandmarks draws the L landmark rows with replacement: uniformly
// without weights (rng.IntN(n), the draws of the builds before weights),
// else row i with probability w_i/W. For integer weights with W ≤ 2⁵³ a
// draw is rng.Uint64N(W) mapped through the cumulative weights: the same
// stream values and rows as rng.IntN(W) on the data with each row
// repeated w_i times, in order. Otherwise it is W·u, u = rng.Float64(),
// mapped the same way.
func drawLandmarks(rng *rand.Rand, n, L int, w []float64) []int {
	idx := make([]int, L)
	if w == nil {
		for l := range idx {
			idx[l] = rng.IntN(n)
		}
		return idx
	}
	cum := make([]float64, n)
	var W float64
	integers := true
	for i, v := range w {
		W += v
		cum[i] = W
		integers = integers && v == math.Trunc(v)
	}
	integers = integers && W <= 1<<53
	for l := range idx {
		var u float64
		if integers {
			u = float64(rng.Uint64N(uint64(W)))
		} else {
			u = float64(W * rng.Float64())
		}
		// the first row whose cumulative weight exceeds u (u < W, and a
		// rounding at the top end falls back on the last row of weight > 0)
		i, _ := slices.BinarySearch(cum, u)
		for i < n && cum[i] <= u {
			i++
		}
		if i == n {
			i = n - 1
			for w[i] == 0 {
				i--
			}
		}
		idx[l] = i
	}
	return idx
}

// agreement returns A_j = Σ_i w_i λ_i cos(ω_j·z_i + b_j) over the n
// standardised rows Z (w_i = 1 without weights). Binary (lab nil): λ_i =
// t_i = ±1, and landmark l's loss takes y_l·A_j. Multiclass: λ_i = +1 when
// t_i (a class index) is lab[l], the class of landmark l = j/K, else −1.
// Each fixed chunk of rows has its partial sums, added in chunk order; the
// partial sums are kept for at most sumBatch chunks at a time, which
// bounds the memory.
func agreement(ctx context.Context, threads learners.Threads, Z []float64, n, d int, w, phase []float64, K int, t []float64, lab []int, wts []float64) ([]float64, error) {
	J := len(phase)
	chunks := (n + chunkRows - 1) / chunkRows
	A := make([]float64, J)
	ap := asm.NewAffinePanels(w, d, J, J)
	part := make([]float64, min(chunks, sumBatch)*J)
	for c0 := 0; c0 < chunks; c0 += sumBatch {
		c1 := min(chunks, c0+sumBatch)
		err := forChunks(ctx, threads, c0, c1, n, J*(d+20), blockRows*J, func(ch, lo, hi int, rows []float64) {
			s := part[(ch-c0)*J : (ch-c0+1)*J]
			clear(s)
			for i := lo; i < hi; i++ {
				if (i-lo)%blockRows == 0 {
					asm.CosAffineRows(rows, J, Z[i*d:], d, min(blockRows, hi-i), ap, phase, 1)
				}
				row := rows[(i-lo)%blockRows*J : ((i-lo)%blockRows+1)*J]
				if wts != nil {
					for j, v := range row {
						row[j] = float64(wts[i] * v)
					}
				}
				if lab != nil {
					for l, c := range lab {
						blk, acc := row[l*K:(l+1)*K], s[l*K:(l+1)*K]
						if c == int(t[i]) {
							for k, v := range blk {
								acc[k] += v
							}
						} else {
							for k, v := range blk {
								acc[k] -= v
							}
						}
					}
					continue
				}
				// s ± row: fma(±1, v, s) is s ± v rounded once, the bits of
				// s[j] += v (−= v), in the vector kernel.
				if t[i] > 0 {
					asm.AxpyF64(1, row, s)
				} else {
					asm.AxpyF64(-1, row, s)
				}
			}
		})
		if err != nil {
			return nil, fmt.Errorf("pbrff: %w", err)
		}
		for ch := c0; ch < c1; ch++ {
			for j, v := range part[(ch-c0)*J : (ch-c0+1)*J] {
				A[j] += v
			}
		}
	}
	return A, nil
}

// classifier fits the linear classifier on the n×L representation phi of
// the prepared rows p (total weight W) and returns its training
// objective: the SVM's primal divided by C·W (svmObjective), or the
// logistic or multinomial solver's objective.
func (m *body) classifier(ctx context.Context, phi []float64, n int, p *kit.Prepared, W float64) (obj float64, err error) {
	c := m.cfg
	L := c.Landmarks
	lambda := 1 / (c.C * W)
	var info solvers.Result
	switch {
	case p.Classes != nil:
		m.coef, m.biases, err = solvers.Multinomial(phi, n, L, p.Targets, len(p.Classes), lambda,
			solvers.MultinomialOptions{Weights: p.Weights, MaxIterations: c.MaxEpochs, Info: &info})
		return info.F, err
	case c.Loss == Logistic && p.Weights != nil:
		m.coef, m.bias, err = solvers.LogisticWeighted(phi, n, L, p.Targets, p.Weights, lambda, solvers.LogisticOptions{Info: &info, MaxIterations: c.MaxEpochs})
		return info.F, err
	case c.Loss == Logistic: // W = n
		m.coef, m.bias, err = solvers.Logistic(phi, n, L, p.Targets, lambda, solvers.LogisticOptions{Info: &info, MaxIterations: c.MaxEpochs})
		return info.F, err
	}
	// Float32: the coordinate descent reads φ rounded to float32 (φ ∈ [−1, 1]
	// already carries the cosines' ≤ 1 ULP error), half the bytes of its
	// random row visits, its arithmetic still float64.
	opt := solvers.SVMOptions{Loss: solvers.Hinge, Seed: c.Seed, Tol: c.Tol, MaxEpochs: c.MaxEpochs, Context: ctx, Weights: p.Weights, Float32: true}
	if c.Loss == SquaredHinge {
		opt.Loss = solvers.SquaredHinge
	}
	m.coef, m.bias, err = solvers.LinearSVM(phi, n, L, p.Targets, c.C, opt)
	if err != nil {
		return 0, err
	}
	return svmObjective(phi, p.Targets, p.Weights, m.coef, m.bias, c), nil
}

// report sends the progress event of a finished round and checks ctx.
func report(ctx context.Context, p learners.Progress, round int, loss float64, start time.Time) error {
	e := learners.Event{Method: methodName, Round: round, Rounds: rounds, Loss: loss, Elapsed: time.Since(start)}
	if err := kit.Report(p, e); err != nil {
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

// svmObjective is the SVM primal divided by C·W,
// (1/W) Σ w_i ξ(1 − y_i(w·φ_i + c)) + (‖w‖² + c²)/(2CW), with ξ the hinge
// or its square (the bias is regularised, BiasScale 1), w_i = 1 and W = n
// without weights.
func svmObjective(phi, y, wts, w []float64, bias float64, c Config) float64 {
	L, n := len(w), len(y)
	var loss float64
	W := float64(n)
	if wts != nil {
		W = 0
	}
	for i, yi := range y {
		var s float64
		for l, v := range w {
			s = math.FMA(v, phi[i*L+l], s)
		}
		t := 1 - yi*(s+bias)
		if t > 0 && c.Loss == SquaredHinge {
			t *= t
		}
		if wts != nil {
			W += wts[i]
			t = float64(wts[i] * t)
		}
		if t > 0 {
			loss += t
		}
	}
	reg := bias * bias
	for _, v := range w {
		reg += v * v
	}
	return loss/W + reg/(2*c.C*W)
}

// chunkRows is the fixed unit of work of the passes over the training rows.
// The sums of pass 1 are taken per chunk and combined in chunk order, so the
// chunk size is part of the result's definition, not a tuning knob.
const chunkRows = 256

// blockRows is the number of rows whose features the passes over the
// training rows compute at once (asm.CosAffineRows: the bits of CosAffine
// on each row, each W load feeding several rows).
const blockRows = 8

// sumBatch is the number of chunks whose partial sums pass 1 holds at once.
// It bounds memory only; the result does not depend on it.
const sumBatch = 64

// parallelWork is the work (rows × work per row) below which a pass stays on
// the calling goroutine.
const parallelWork = 1 << 20

// forChunks calls f(chunk, lo, hi, row) for the chunks c0 ≤ chunk < c1 of
// the fixed partition of [0, n) into chunkRows rows, [lo, hi) being the
// chunk's rows, on up to par.Workers(threads, …) goroutines (0:
// GOMAXPROCS) when the work is large enough; row is a scratch slice of len rowLen owned by the calling
// goroutine. It stops early, returning ctx's error, when ctx is cancelled.
func forChunks(ctx context.Context, threads learners.Threads, c0, c1, n, workPerRow, rowLen int, f func(ch, lo, hi int, row []float64)) error {
	rows := min(n, c1*chunkRows) - c0*chunkRows
	workers := par.Workers(int(threads), c1-c0)
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
