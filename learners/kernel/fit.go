package kernel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/solvers"
)

// rounds is the number of progress events of a Fit: kernel matrix, solve.
const rounds = 2

// Fit trains a model on the rows of X (n×d) and the labels or targets y
// (len n). Binary labels may be any two distinct values (the smaller maps
// to −1); Predict returns them.
//
// Errors: kit.Prepare's, a kernel matrix that is not numerically
// positive definite (λ too small), or an error returned by cfg.Progress
// (wrapped). The result depends only on the data and cfg.
// Memory: m² floats, m = min(n, Subsample); time O(m²·d + m³/3).
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// γ × {1, ¼, 4} when Gamma is 0 (kit.GammaOptions) on a held-out half
// of the rows and fits the best on every row; a classifier's probabilities
// are calibrated on the same half unless Calibrate is Disabled. Cost: one
// fit on every row plus one on half the rows per candidate (about 1 +
// candidates/2 fits).
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, methodName, cfg.Task, X, y, nil, cfg, sub, candidates(cfg, X.Cols), kit.On(cfg.Calibrate, true), cfg.Seed,
		func(ctx context.Context, X featmap.Matrix, y, _ []float64, cfg Config) (*Model, error) {
			return fit(ctx, X, y, cfg)
		})
}

// fit is Fit without the calibration.
func fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	r := kit.NewRounds(ctx, cfg.Progress, methodName, methodName, rounds)
	p, err := kit.Prepare(ctx, methodName, cfg, cfg.Task, X, y)
	if err != nil {
		return nil, err
	}
	n, d := p.N, p.D
	c := cfg.resolve(n, d)
	m := c.Subsample

	// The subsample: every row when n ≤ Subsample, else m rows drawn
	// uniformly without replacement, kept in their order in X.
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if m < n {
		r := rand.New(rand.NewPCG(c.Seed, 0x6b65726e656c)) // "kernel"
		for i := 0; i < m; i++ {
			j := i + r.IntN(n-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
		idx = idx[:m]
		sort.Ints(idx)
	}
	b := &body{cfg: c, support: make([]float64, m*d), alpha: make([]float64, m)}
	t := make([]float64, m)
	for k, i := range idx {
		copy(b.support[k*d:(k+1)*d], p.Z[i*d:(i+1)*d])
		t[k] = p.Targets[i]
	}
	var mean float64
	for _, v := range t {
		mean += v
	}
	mean /= float64(m)
	b.bias = mean
	if c.Loss == Hinge {
		return fitHinge(r, p, b, t)
	}

	// Round 1: the regularised kernel matrix K + mλI (lower triangle), or
	// K + εI for the logistic loss.
	a := make([]float64, m*m)
	diag := float64(float64(m) * c.Lambda)
	if c.Loss == Logistic {
		diag = jitter
	}
	for i := 0; i < m; i++ {
		if err := ctxEvery(ctx, i); err != nil {
			return nil, err
		}
		b.kernelRow(a[i*m:i*m+i+1], b.support[i*d:(i+1)*d])
		a[i*m+i] += diag
	}
	if err := r.End(1, math.NaN()); err != nil {
		return nil, err
	}

	if c.Loss == Logistic {
		return fitLogistic(r, p, b, a, t, int(cfg.Threads))
	}

	// Round 2: Cholesky and the two triangular solves.
	for k, v := range t {
		b.alpha[k] = v - mean
	}
	if err := cholesky(ctx, a, m, int(cfg.Threads)); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("kernel: %w", err)
		}
		return nil, fmt.Errorf("kernel: %w (Lambda = %v is too small for these data)", err, c.Lambda)
	}
	solve(a, m, b.alpha)
	// The training objective, for the progress report: with
	// α = (K + mλI)⁻¹r, the residuals are mλα and ‖f‖²_H = αᵀKα =
	// αᵀr − mλ‖α‖².
	var ar, aa float64
	for k, v := range b.alpha {
		ar += float64(v * (t[k] - mean))
		aa += float64(v * v)
	}
	ml := float64(float64(m) * c.Lambda)
	loss := float64(ml*ml)*aa/float64(m) + float64(c.Lambda*(ar-float64(ml*aa)))
	if err := r.End(2, loss); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(c.Task, kit.Clamped), b), nil
}

// ctxEvery returns ctx's error (wrapped) on every 64th row i of a loop
// over the subsample (a row of the kernel matrix is m kernel values).
func ctxEvery(ctx context.Context, i int) error {
	if i%64 != 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	return nil
}

// solve overwrites v with (L·Lᵀ)⁻¹v for the factor of cholesky.
func solve(l []float64, m int, v []float64) {
	for i := 0; i < m; i++ {
		s := v[i]
		for k := 0; k < i; k++ {
			s -= float64(l[i*m+k] * v[k])
		}
		v[i] = s / l[i*m+i]
	}
	for i := m - 1; i >= 0; i-- {
		s := v[i]
		for k := i + 1; k < m; k++ {
			s -= float64(l[k*m+i] * v[k])
		}
		v[i] = s / l[i*m+i]
	}
}

// fitLogistic is round 2 of the logistic loss: a = K + εI (lower
// triangle), t the ±1 labels of the subsample, threads Config.Threads.
func fitLogistic(r *kit.Rounds, p *kit.Prepared, b *body, a, t []float64, threads int) (*Model, error) {
	m := len(t)
	if err := cholesky(r.Context(), a, m, threads); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	for i := 0; i < m; i++ { // zero the upper triangle: a is now L
		clear(a[i*m+i+1 : (i+1)*m])
	}
	var info solvers.Result
	beta, bias, err := solvers.Logistic(a, m, m, t, b.cfg.Lambda, solvers.LogisticOptions{Info: &info})
	if err != nil {
		return nil, fmt.Errorf("kernel: logistic solver: %w", err)
	}
	backSolve(a, m, beta) // α = L⁻ᵀβ
	b.alpha, b.bias = beta, bias
	if err := r.End(2, info.F); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(b.cfg.Task, kit.Logistic), b), nil
}

// backSolve overwrites v with L⁻ᵀv for the lower-triangular factor of
// cholesky.
func backSolve(l []float64, m int, v []float64) {
	for i := m - 1; i >= 0; i-- {
		s := v[i]
		for k := i + 1; k < m; k++ {
			s -= float64(l[k*m+i] * v[k])
		}
		v[i] = s / l[i*m+i]
	}
}

// candidates are the settings the default fit compares on held-out rows
// (kit.SearchFit): γ by kit.GammaOptions when Gamma is 0.
func candidates(cfg Config, d int) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	return kit.Grid(kit.GammaOptions(cfg.Gamma, d, func(c *Config, g float64) { c.Gamma = g }))
}
