package mfga

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/trig"
)

// Settings of the logistic refit (solvers.LBFGS on the preconditioned
// weights) and of the collinearity test.
const (
	lbfgsMaxIter  = 500
	lbfgsGradTol  = 1e-7
	lbfgsFuncTol  = 1e-12
	pivotTol      = 1e-10
	scaleRelFloor = 1e-12
)

// Fit trains a model on the rows of X (n×d) and the labels or targets y
// (len n). Binary labels may be any two distinct values (the smaller maps
// to −1), multiclass ones 3..modelfile.MaxClasses finite values; Predict
// returns them.
//
// Errors: a cancelled ctx, an invalid cfg, empty or ragged data, NaN or
// ±Inf in X or y, a binary y without exactly two classes, a dictionary or
// active set too large for memory, a failing solver, or an error returned
// by cfg.Progress (wrapped). The result depends only on the data and cfg,
// not on GOMAXPROCS. Memory: n×min(M, M₀) for the active columns plus
// O(n·d + 64·M₀). ctx is checked after every greedy step.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	return FitWeighted(ctx, X, y, nil, cfg)
}

// FitWeighted is Fit with a weight per row (w == nil: none). The weights
// enter the standardisation, the column statistics of the dictionary, the
// greedy scores and the losses as weighted means, so a weight of 2 gives
// the model of the row duplicated (up to the order of the sums) and 0
// drops the row — except for the σ rule of thumb, which looks at the rows
// kept, unweighted: set Sigma for the exact equivalence. Errors beside
// Fit's: len(w) != n, a negative, NaN or infinite weight, all weights 0.
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// the dictionary bandwidth of the σ rule × {1, ½, 2} when Sigma is 0 and,
// for a classifier, the dictionary degrees 1 and 2 when Degree is 0 (all
// combinations: up to 6 candidates) on a held-out half of the rows and
// fits the best on every row; a classifier's probabilities are calibrated
// on the same half unless Calibrate is Disabled. Cost: one fit on every
// row plus one on half the rows per candidate (about 1 + candidates/2
// fits; a degree-2 fit costs more than a degree-1 one, its dictionary
// having d(d+1)/2 more candidates).
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, methodName, cfg.Task, X, y, w, cfg, sub, settings(cfg), kit.On(cfg.Calibrate, cfg.Task != learners.Multiclass), cfg.Seed, fitWeighted)
}

// settings are the settings the default fit compares on held-out rows
// (kit.SearchFit): the dictionary bandwidth σ of the 50th-neighbour
// rule times 1, ½ and 2 when Sigma is 0, and for a classifier degree 1 and
// 2 when Degree is 0 (up to 6 candidates).
func settings(cfg Config) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	var sigma, degree []kit.Setting[Config]
	if cfg.Sigma == 0 {
		sigma = kit.Options(func(c *Config, f float64) {
			if f != 1 {
				c.sigmaFactor = f
			}
		}, 1, 0.5, 2)
	}
	if cfg.Degree == 0 && cfg.Task != learners.Regression {
		degree = kit.Options(func(c *Config, p int) { c.Degree = p }, 0, 2)
	}
	if sigma == nil && degree == nil {
		return nil
	}
	return kit.Grid(sigma, degree)
}

// fitWeighted is FitWeighted without the calibration.
func fitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	p, err := kit.PrepareWeighted(ctx, methodName, cfg, cfg.Task, X, y, w)
	if err != nil {
		return nil, err
	}
	n, d, c := p.N, p.D, cfg.resolve()
	m0 := candidates(d, c.Degree)
	if m0 < 0 {
		return nil, fmt.Errorf("mfga: %d inputs give more than %d degree-%d candidates", d, maxCandidates, c.Degree)
	}
	M := min(c.Features, m0)
	if err := p.CheckSize(methodName, M); err != nil {
		return nil, err
	}
	t, xs := p.Targets, p.Z
	if c.Sigma == 0 {
		c.Sigma = sigmaRule(xs, n, d, c.Seed, c.Threads)
		if c.sigmaFactor != 0 {
			c.Sigma = float64(c.Sigma * c.sigmaFactor)
		}
	}
	c.sigmaFactor = 0
	m := &body{cfg: c, d: d}

	g := newGreedy(xs, t, rowWeights(p), n, d, M, m0, c)
	var mc *multi
	if c.Task == learners.Multiclass {
		mc = newMulti(g, len(p.Classes))
	}
	steps := (M + c.PerStep - 1) / c.PerStep
	for step := 1; step <= steps && len(g.active) < M; step++ {
		var added int
		var err error
		if mc != nil {
			added, err = mc.step(min(c.PerStep, M-len(g.active)))
		} else {
			added, err = g.step(min(c.PerStep, M-len(g.active)))
		}
		if err != nil {
			return nil, fmt.Errorf("mfga: step %d: %w", step, err)
		}
		if added == 0 {
			break // no usable candidate left
		}
		e := learners.Event{Method: methodName, Round: step, Rounds: steps, Loss: g.risk, Elapsed: time.Since(p.Start)}
		if err := kit.EndRound(ctx, cfg.Progress, "mfga", e); err != nil {
			return nil, err
		}
		prev := g.path[len(g.path)-2]
		if c.Tol > 0 && prev-g.risk <= c.Tol*math.Max(math.Abs(g.risk), 1e-12) {
			break
		}
	}
	if mc != nil {
		m.buildMulti(mc)
	} else {
		m.build(g)
	}
	return kit.New[Model](p.Common(c.Task, kit.Logistic), m), nil
}

// greedy is the state of the selection loop. Active columns are stored
// normalised, row-major in z (n × M, the first k columns used).
type greedy struct {
	xs, t    []float64 // standardised inputs (n×d), targets or ±1 labels
	c        []float64 // row weights scaled to mean 1 (all 1 without weights)
	n, d, M  int
	m0       int
	cfg      Config
	inv      float64   // 1/σ
	e        []float64 // e^{−‖x_i‖²/2σ²}
	mu, s    []float64 // candidate column means and RMS spreads (M₀)
	excluded []bool    // selected, constant or collinear candidates

	active []int       // dictionary indices of the active columns
	z      []float64   // n×M normalised active columns
	chol   [][]float64 // rows of L, L Lᵀ = ZᵀZ/n + λI
	u      []float64   // squared loss: L⁻¹ Zᵀ(t − t̄)/n
	w      []float64   // normalised weights (len k)
	bias   float64     // intercept c
	f      []float64   // training predictions
	grad   []float64   // risk gradient w.r.t. the predictions (up to a positive factor)
	risk   float64     // regularised risk of the current fit
	path   []float64   // risk after each step (path[0]: intercept only)

	tbar float64 // mean of t (squared loss)
}

func newGreedy(xs, t, rw []float64, n, d, M, m0 int, c Config) *greedy {
	g := &greedy{xs: xs, t: t, c: rw, n: n, d: d, M: M, m0: m0, cfg: c, inv: 1 / c.Sigma,
		excluded: make([]bool, m0), z: make([]float64, n*M), f: make([]float64, n), grad: make([]float64, n)}
	g.e = expWeights(xs, n, d, g.inv)
	g.columnStats()
	if c.Task == learners.Regression {
		for i, v := range t {
			g.tbar += float64(rw[i] * v)
		}
		g.tbar /= float64(n)
		g.bias = g.tbar
	} else {
		var pos float64
		for i, v := range t {
			if v > 0 {
				pos += rw[i]
			}
		}
		g.bias = xmath.Log(pos / (float64(n) - pos))
	}
	g.risk = g.evaluate()
	g.path = append(g.path, g.risk)
	return g
}

// sumRows returns Σ_i h(i, ψ_i) over the rows, where ψ_i is the
// dictionary at row i and h adds into acc; rows are split in fixed blocks
// whose partial sums are added in block order.
func (g *greedy) sumRows(dst []float64, h func(acc, psi []float64, i int)) {
	size, count := blocks(g.n)
	parts := make([]float64, count*g.m0)
	forEach(g.cfg.Threads, count, func(b int) {
		acc := parts[b*g.m0 : (b+1)*g.m0]
		psi := make([]float64, g.m0)
		for i := b * size; i < min(g.n, (b+1)*size); i++ {
			dictRow(psi, g.xs[i*g.d:(i+1)*g.d], g.e[i], g.inv, g.cfg.Degree)
			h(acc, psi, i)
		}
	})
	clear(dst)
	for b := 0; b < count; b++ {
		for j, v := range parts[b*g.m0 : (b+1)*g.m0] {
			dst[j] += v
		}
	}
}

// columnStats computes the mean and RMS spread of every candidate column
// (two passes) and excludes the constant ones.
func (g *greedy) columnStats() {
	g.mu, g.s = make([]float64, g.m0), make([]float64, g.m0)
	g.sumRows(g.mu, func(acc, psi []float64, i int) {
		ci := g.c[i]
		for j, v := range psi {
			acc[j] += float64(ci * v)
		}
	})
	for j := range g.mu {
		g.mu[j] /= float64(g.n)
	}
	g.sumRows(g.s, func(acc, psi []float64, i int) {
		ci := g.c[i]
		for j, v := range psi {
			u := v - g.mu[j]
			acc[j] += float64(ci * float64(u*u))
		}
	})
	top := 0.0
	for j, v := range g.s {
		g.s[j] = math.Sqrt(v / float64(g.n))
		top = math.Max(top, g.s[j])
	}
	for j, v := range g.s {
		if !(v > scaleRelFloor*top) {
			g.excluded[j] = true
		}
	}
}

// evaluate recomputes the predictions, the gradient and the regularised
// risk of the current weights.
func (g *greedy) evaluate() float64 {
	var ww float64
	for _, v := range g.w {
		ww += float64(v * v)
	}
	var loss float64
	g.scores(g.f, g.w, g.bias, 0)
	if g.cfg.Task == learners.Regression {
		for i, fi := range g.f {
			r := fi - g.t[i]
			g.grad[i] = float64(g.c[i] * r)
			loss += float64(g.c[i] * float64(r*r))
		}
		return loss/float64(g.n) + float64(g.cfg.Lambda*ww)
	}
	ex := make([]float64, g.n)
	for i, fi := range g.f {
		ex[i] = -math.Abs(float64(g.t[i] * fi))
	}
	trig.Exp(ex, ex)
	for i, fi := range g.f {
		l, s := logistic(float64(g.t[i]*fi), ex[i])
		loss += float64(g.c[i] * l)
		g.grad[i] = float64(g.c[i] * float64(-g.t[i]*s))
	}
	return loss/float64(g.n) + float64(0.5*g.cfg.Lambda*ww)
}

// logistic returns log(1 + e^{−m}) and σ(−m) = 1/(1 + e^{m}) given
// ex = e^{−|m|}, with the same bits on every architecture.
func logistic(m, ex float64) (loss, sig float64) {
	lp := log1p(ex)
	if m > 0 {
		return lp, ex / (1 + ex)
	}
	return -m + lp, 1 / (1 + ex)
}

// log1p is log(1 + x) for 0 ≤ x ≤ 1 from xmath.Log (Goldberg's trick:
// log(u)·x/(u − 1) with u = 1 + x rounded).
func log1p(x float64) float64 {
	u := 1 + x
	if u == 1 {
		return x
	}
	return float64(xmath.Log(u) * (x / (u - 1)))
}

// scores sets f[i] = c + xmath.DotRound(w, z_{lo+i}) (z_r the r-th row of the
// active columns, len(w) of them). Four rows are summed side by side, each
// in index order as xmath.DotRound does, so the bits are its; the independent
// chains hide the latency of the additions.
func (g *greedy) scores(f, w []float64, c float64, lo int) {
	k, M := len(w), g.M
	i := 0
	for ; i+4 <= len(f); i += 4 {
		r := (lo + i) * M
		z0, z1, z2, z3 := g.z[r:r+k], g.z[r+M:r+M+k], g.z[r+2*M:r+2*M+k], g.z[r+3*M:r+3*M+k]
		var s0, s1, s2, s3 float64
		for t, wt := range w {
			s0 += float64(wt * z0[t])
			s1 += float64(wt * z1[t])
			s2 += float64(wt * z2[t])
			s3 += float64(wt * z3[t])
		}
		f[i], f[i+1], f[i+2], f[i+3] = c+s0, c+s1, c+s2, c+s3
	}
	for ; i < len(f); i++ {
		f[i] = c + xmath.DotRound(w, g.z[(lo+i)*M:(lo+i)*M+k])
	}
}

// gradSum adds Σ_i r_i·z_{lo+i} to gp[:k] and Σ_i r_i to gp[k], row by
// row in order (every gp[t] sees the same additions in the same order as
// a row-at-a-time loop), four rows per pass over gp.
func (g *greedy) gradSum(gp, r []float64, lo, k int) {
	M := g.M
	gp = gp[:k+1]
	i := 0
	for ; i+4 <= len(r); i += 4 {
		o := (lo + i) * M
		z0, z1, z2, z3 := g.z[o:o+k], g.z[o+M:o+M+k], g.z[o+2*M:o+2*M+k], g.z[o+3*M:o+3*M+k]
		r0, r1, r2, r3 := r[i], r[i+1], r[i+2], r[i+3]
		for t := range z0 {
			v := gp[t]
			v += float64(z0[t] * r0)
			v += float64(z1[t] * r1)
			v += float64(z2[t] * r2)
			v += float64(z3[t] * r3)
			gp[t] = v
		}
		gp[k] = gp[k] + r0 + r1 + r2 + r3
	}
	for ; i < len(r); i++ {
		ri := r[i]
		for t, zt := range g.z[(lo+i)*M : (lo+i)*M+k] {
			gp[t] += float64(zt * ri)
		}
		gp[k] += ri
	}
}

// step adds up to want features and refits; it returns how many it added.
func (g *greedy) step(want int) (int, error) {
	var gsum float64
	for _, v := range g.grad {
		gsum += v
	}
	corr := make([]float64, g.m0)
	g.sumRows(corr, func(acc, psi []float64, i int) {
		gi := g.grad[i]
		for j, v := range psi {
			acc[j] += float64(gi * v)
		}
	})
	order := make([]int, 0, g.m0)
	for j := range corr {
		if !g.excluded[j] {
			corr[j] = math.Abs(corr[j]-float64(g.mu[j]*gsum)) / g.s[j]
			order = append(order, j)
		}
	}
	return g.addBest(order, corr, want, func(_, added int) error { return g.refit(added) })
}

// addBest sorts the candidates in order by score (the largest first, then
// by index), adds up to want of them to the active set (addColumn, each
// leaving the candidates), and, if it added any, calls refit with the
// number of active columns before and the number added and records the
// risk. It returns how many it added.
func (g *greedy) addBest(order []int, score []float64, want int, refit func(old, added int) error) (int, error) {
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return a - b
	})
	old := len(g.active)
	added := 0
	col := make([]float64, g.n)
	for _, j := range order {
		if added == want {
			break
		}
		g.excluded[j] = true
		if g.addColumn(j, col) {
			added++
		}
	}
	if added == 0 {
		return 0, nil
	}
	if err := refit(old, added); err != nil {
		return 0, err
	}
	g.path = append(g.path, g.risk)
	return added, nil
}

// addColumn appends candidate j to the active set and the Cholesky factor,
// unless it is numerically in the span of the active columns.
func (g *greedy) addColumn(j int, col []float64) bool {
	f, _ := decode(j, g.d, g.cfg.Degree)
	mu, s := g.mu[j], g.s[j]
	k := len(g.active)
	b := make([]float64, k+1)
	for i := range col {
		v := (f.value(g.xs[i*g.d:(i+1)*g.d], g.e[i], g.inv) - mu) / s
		col[i] = v
		cv := float64(g.c[i] * v)
		zi := g.z[i*g.M : i*g.M+k]
		for t, zt := range zi {
			b[t] += float64(zt * cv)
		}
		b[k] += float64(v * cv)
	}
	for t := range b {
		b[t] /= float64(g.n)
	}
	// Forward substitution: l = L⁻¹ b[:k]; pivot² = b_k + λ − ‖l‖².
	l := b[:k]
	for r := 0; r < k; r++ {
		l[r] = (l[r] - xmath.DotRound(g.chol[r][:r], l[:r])) / g.chol[r][r]
	}
	p2 := b[k] + g.cfg.Lambda - xmath.DotRound(l, l)
	if !(p2 > pivotTol*(1+g.cfg.Lambda)) {
		return false
	}
	row := append(l[:k:k], math.Sqrt(p2))
	g.chol = append(g.chol, row)
	for i, v := range col {
		g.z[i*g.M+k] = v
	}
	g.active = append(g.active, j)
	if g.cfg.Task == learners.Regression {
		var q float64
		for i, v := range col {
			q += float64(float64(g.c[i]*v) * (g.t[i] - g.tbar))
		}
		q /= float64(g.n)
		g.u = append(g.u, (q-xmath.DotRound(row[:k], g.u))/row[k])
	}
	return true
}

// backSolve sets w = L⁻ᵀ v.
func (g *greedy) backSolve(w, v []float64) {
	k := len(v)
	copy(w, v)
	for r := k - 1; r >= 0; r-- {
		w[r] /= g.chol[r][r]
		for c := 0; c < r; c++ {
			w[c] -= float64(g.chol[r][c] * w[r])
		}
	}
}

// forwardSolve sets v = L⁻¹ w in place.
func (g *greedy) forwardSolve(v []float64) {
	for r := range v {
		v[r] = (v[r] - xmath.DotRound(g.chol[r][:r], v[:r])) / g.chol[r][r]
	}
}

// refit solves the risk minimisation on the active set; added columns are
// new since the last fit.
func (g *greedy) refit(added int) error {
	k := len(g.active)
	w := make([]float64, k)
	if g.cfg.Task == learners.Regression {
		g.backSolve(w, g.u)
		g.w = w
		g.risk = g.evaluate()
		return nil
	}
	// Warm start: v = Lᵀw for the old weights, 0 for the new columns.
	x0 := make([]float64, k+1)
	for c := 0; c < k-added; c++ {
		var s float64
		for r := c; r < k-added; r++ {
			s += float64(g.chol[r][c] * g.w[r])
		}
		x0[c] = s
	}
	x0[k] = g.bias
	lb, err := solvers.NewLBFGS(k+1, 0)
	if err != nil {
		return err
	}
	n := g.n
	size, count := blocks(n)
	f := make([]float64, n)
	ex := make([]float64, n)
	r := make([]float64, n)
	lossPart := make([]float64, count)
	gradPart := make([]float64, count*(k+1))
	obj := func(x, grad []float64) float64 {
		g.backSolve(w, x[:k])
		c := x[k]
		forEach(g.cfg.Threads, count, func(b int) {
			lo, hi := b*size, min(n, (b+1)*size)
			gp := gradPart[b*(k+1) : (b+1)*(k+1)]
			clear(gp)
			g.scores(f[lo:hi], w, c, lo)
			for i := lo; i < hi; i++ {
				ex[i] = -math.Abs(float64(g.t[i] * f[i]))
			}
			trig.Exp(ex[lo:hi], ex[lo:hi])
			var loss float64
			for i := lo; i < hi; i++ {
				l, s := logistic(float64(g.t[i]*f[i]), ex[i])
				loss += float64(g.c[i] * l)
				r[i] = float64(g.c[i] * float64(-g.t[i]*s))
			}
			g.gradSum(gp, r[lo:hi], lo, k)
			lossPart[b] = loss
		})
		var loss, ww float64
		clear(grad)
		for b := 0; b < count; b++ {
			loss += lossPart[b]
			for t, v := range gradPart[b*(k+1) : (b+1)*(k+1)] {
				grad[t] += v
			}
		}
		inv := 1 / float64(n)
		for t := range grad {
			grad[t] *= inv
		}
		for t, v := range w {
			grad[t] += float64(g.cfg.Lambda * v)
			ww += float64(v * v)
		}
		g.forwardSolve(grad[:k])
		return float64(loss*inv) + float64(0.5*g.cfg.Lambda*ww)
	}
	res, err := lb.Minimize(obj, x0, solvers.LBFGSOptions{
		MaxIterations: lbfgsMaxIter, GradTol: lbfgsGradTol, FuncTol: lbfgsFuncTol, MaxLineSearch: 40,
	})
	if err != nil {
		return fmt.Errorf("logistic refit on %d features: %w", k, err)
	}
	g.backSolve(w, res.X[:k])
	g.w, g.bias = w, res.X[k]
	g.risk = g.evaluate()
	return nil
}

// rowWeights returns the weights of the prepared rows scaled to mean 1,
// n·w_i/Σw (all 1 without weights, which leaves every product exact: the
// unweighted fit keeps its bits).
func rowWeights(p *kit.Prepared) []float64 {
	c := make([]float64, p.N)
	if p.Weights == nil {
		for i := range c {
			c[i] = 1
		}
		return c
	}
	var sum float64
	for _, v := range p.Weights {
		sum += v
	}
	for i, v := range p.Weights {
		c[i] = float64(v*float64(p.N)) / sum
	}
	return c
}
