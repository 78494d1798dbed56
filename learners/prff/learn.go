package prff

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
	"github.com/rfkit/rfkit/trig"
)

// PCG stream tags of the two random sources (shuffle, initial draws).
const (
	streamShuffle = 0x70726666_73687566 // "prffshuf"
	streamDraws   = 0x70726666_64726177 // "prffdraw"
)

// maxHalvings bounds the backtracking of one iteration.
const maxHalvings = 60

// Map is a learned PRFF feature map z(x) = √(2/D)·cos(Wᵀx + b) of the
// Gaussian kernel exp(−γ‖x−x'‖²). It is immutable and safe for concurrent
// use. RFF returns it as a featmap transform.
type Map struct {
	rff    *featmap.RFF
	gamma  float64
	alpha  float64
	losses []float64 // final mini-batch loss of each feature
}

// RFF returns the map as a featmap transform (Transform, TransformRow,
// Combine, CombineRow, Weights).
func (m *Map) RFF() *featmap.RFF { return m.rff }

// Gamma is the kernel bandwidth γ the map approximates.
func (m *Map) Gamma() float64 { return m.gamma }

// Alpha is the base step α the frequencies were learned with.
func (m *Map) Alpha() float64 { return m.alpha }

// Prefix returns the map made of the first k features, rescaled to
// √(2/k): the map Learn returns with Features = k on the same data, seed
// and settings (features are learned greedily, each from the earlier
// ones only).
func (m *Map) Prefix(k int) (*Map, error) {
	D := m.rff.Outputs()
	if k < 1 || k > D {
		return nil, fmt.Errorf("prff: Prefix(%d) of a %d-feature map", k, D)
	}
	idx := make([]int, k)
	for j := range idx {
		idx[j] = j
	}
	rff, err := linrf.Subset(m.rff, idx)
	if err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	return &Map{rff: rff, gamma: m.gamma, alpha: m.alpha, losses: slices.Clone(m.losses[:k])}, nil
}

// Learn learns a D-feature PRFF map of the rows of X (n×d, used as given:
// standardise them first if their columns have different scales). Only the
// map fields of cfg are used (Features, Gamma, Alpha, FreqLambda, Batch,
// MaxIter, Tol, LearnPhase, Seed, Progress).
//
// Errors: a cancelled ctx (checked after each feature), an invalid cfg,
// empty or malformed X, NaN or ±Inf in X, a single row without Gamma, a
// bandwidth rule giving σ = 0, or an error returned by cfg.Progress
// (wrapped). The result depends only on X and cfg, not on GOMAXPROCS.
func Learn(ctx context.Context, X featmap.Matrix, cfg Config) (*Map, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := kit.CheckShape(X, 0); err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	for i := 0; i < X.Rows; i++ {
		for k, v := range X.Row(i) {
			if !xmath.Finite(v) {
				return nil, fmt.Errorf("prff: X[%d, %d] is %v: inputs must be finite", i, k, v)
			}
		}
	}
	c := cfg.resolve()
	xs := make([]float64, X.Rows*X.Cols)
	for i := 0; i < X.Rows; i++ {
		copy(xs[i*X.Cols:(i+1)*X.Cols], X.Row(i))
	}
	m, _, err := learn(ctx, xs, nil, X.Rows, X.Cols, c, cfg.Progress, 0, start)
	return m, err
}

// learn is Learn on dense rows xs (n×d) with row weights wt (nil: all 1;
// else every weight > 0) and c resolved; Progress events are numbered out
// of D + extra rounds. It returns the map and c with Gamma and Alpha
// resolved.
func learn(ctx context.Context, xs, wt []float64, n, d int, c Config, p learners.Progress, extra int, start time.Time) (*Map, Config, error) {
	D, B := c.Features, c.Batch
	perm := rand.New(rand.NewPCG(c.Seed, streamShuffle)).Perm(n)
	if c.Gamma == 0 {
		sigma, err := bandwidth(xs, wt, d, perm[:min(n, bandwidthPoints)])
		if err != nil {
			return nil, c, fmt.Errorf("prff: %w", err)
		}
		c.Gamma = 1 / float64(2*float64(sigma*sigma))
		if c.gammaFactor != 0 {
			c.Gamma = float64(c.Gamma * c.gammaFactor)
		}
		if !(c.Gamma > 0) || !xmath.Finite(c.Gamma) {
			return nil, c, fmt.Errorf("prff: bandwidth rule gives σ = %v, γ = %v: set Gamma", sigma, c.Gamma)
		}
	}
	c.gammaFactor = 0
	if c.Alpha == 0 {
		c.Alpha = defaultAlpha(c.Gamma, d)
		if !(c.Alpha > 0) || !xmath.Finite(c.Alpha) {
			return nil, c, fmt.Errorf("prff: default step α = %v for γ = %v: set Alpha", c.Alpha, c.Gamma)
		}
	}
	draws := newNormals(rand.New(rand.NewPCG(c.Seed, streamDraws)))
	sd := math.Sqrt(2 * c.Gamma)

	nb := (n + B - 1) / B
	freqs := make([][]float64, 0, D) // each len d
	phases := make([]float64, 0, D)
	losses := make([]float64, 0, D)
	var pr problem
	for M := 1; M <= D; M++ {
		lo := ((M - 1) % nb) * B
		rows := perm[lo:min(n, lo+B)]
		pr.setup(xs, wt, d, rows, freqs, phases, c)

		w := make([]float64, d)
		for k := range w {
			w[k] = float64(sd * draws.next())
		}
		b := float64(2*math.Pi) * draws.uniform()
		w, b, loss := pr.descend(w, b, c)
		freqs = append(freqs, w)
		phases = append(phases, b)
		losses = append(losses, loss)

		e := learners.Event{Method: methodName, Round: M, Rounds: D + extra, Loss: loss, Elapsed: time.Since(start)}
		if err := kit.EndRound(ctx, p, "prff", e); err != nil {
			return nil, c, err
		}
	}
	W := make([]float64, d*D)
	for j, f := range freqs {
		for k, v := range f {
			W[k*D+j] = v
		}
	}
	rff, err := featmap.NewRFFFromWeights(W, phases, d, D, false)
	if err != nil {
		return nil, c, fmt.Errorf("prff: %w", err)
	}
	return &Map{rff: rff, gamma: c.Gamma, alpha: c.Alpha, losses: losses}, c, nil
}

// bandwidth returns the 5th percentile (linear interpolation) of the
// pairwise distances of the rows idx of xs, weighted by wt (nil: all 1;
// see weightedPercentile).
func bandwidth(xs, wt []float64, d int, idx []int) (float64, error) {
	k := len(idx)
	if k < 2 && wt == nil {
		return 0, fmt.Errorf("the bandwidth rule needs at least 2 rows, X has %d: set Gamma", k)
	}
	if wt != nil {
		return weightedBandwidth(xs, wt, d, idx)
	}
	dist := make([]float64, 0, k*(k-1)/2)
	for a := 0; a < k; a++ {
		xa := xs[idx[a]*d : (idx[a]+1)*d]
		for c := a + 1; c < k; c++ {
			dist = append(dist, math.Sqrt(sqDist(xa, xs[idx[c]*d:(idx[c]+1)*d])))
		}
	}
	slices.Sort(dist)
	pos := 0.05 * float64(len(dist)-1)
	i := int(pos)
	sigma := dist[i]
	if i+1 < len(dist) {
		sigma += float64((pos - float64(i)) * (dist[i+1] - dist[i]))
	}
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return 0, fmt.Errorf("the bandwidth rule gives σ = %v (over 5%% of the pairs of rows coincide, or distances overflow): set Gamma", sigma)
	}
	return sigma, nil
}

// weightedBandwidth is bandwidth with row weights: the pair (a, c) of
// distinct rows weighs w_a·w_c, and each row adds max(0, w_a(w_a−1)/2)
// pairs at distance 0 (the pairs of its copies), so that integer weights
// give the percentile of the data with the rows repeated. The percentile
// is at the fractional position 0.05·(W − 1), W the total weight, in the
// sorted distances each repeated by its weight, interpolated linearly
// between the neighbouring positions: with unit weights, bandwidth's.
func weightedBandwidth(xs, wt []float64, d int, idx []int) (float64, error) {
	type pair struct{ dist, w float64 }
	k := len(idx)
	pairs := make([]pair, 0, k*(k+1)/2)
	var zero float64
	for a := 0; a < k; a++ {
		wa := wt[idx[a]]
		if wa > 1 {
			zero += float64(float64(wa*(wa-1)) / 2)
		}
		xa := xs[idx[a]*d : (idx[a]+1)*d]
		for c := a + 1; c < k; c++ {
			pairs = append(pairs, pair{math.Sqrt(sqDist(xa, xs[idx[c]*d:(idx[c]+1)*d])), float64(wa * wt[idx[c]])})
		}
	}
	if zero > 0 {
		pairs = append(pairs, pair{0, zero})
	}
	slices.SortStableFunc(pairs, func(p, q pair) int { return cmp.Compare(p.dist, q.dist) })
	var total float64
	for _, p := range pairs {
		total += p.w
	}
	if !(total > 1) {
		return 0, fmt.Errorf("the bandwidth rule needs a total pair weight above 1, the rows give %v: set Gamma", total)
	}
	// at returns the distance at position t (0 ≤ t ≤ total−1): that of
	// the first pair whose cumulative weight exceeds t.
	at := func(t float64) float64 {
		var cum float64
		for _, p := range pairs {
			cum += p.w
			if cum > t {
				return p.dist
			}
		}
		return pairs[len(pairs)-1].dist
	}
	pos := float64(0.05 * (total - 1))
	fl := math.Floor(pos)
	sigma := at(fl)
	if fl+1 <= total-1 {
		sigma += float64((pos - fl) * (at(fl+1) - sigma))
	}
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return 0, fmt.Errorf("the bandwidth rule gives σ = %v (over 5%% of the weighted pairs of rows coincide, or distances overflow): set Gamma", sigma)
	}
	return sigma, nil
}

// sqDist is ‖a − b‖² in a fixed order without FMA contraction.
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for k, v := range a {
		t := v - b[k]
		s += float64(t * t)
	}
	return s
}

// problem is the Gram loss of one new feature on one mini-batch.
type problem struct {
	m, d   int
	M      int       // index of the new feature (1-based)
	kappa  float64   // 2/M
	lambda float64   // FreqLambda
	x      []float64 // m×d batch rows
	w      []float64 // the batch rows' weights (nil: all 1)
	wbuf   []float64 // backing store of w
	wsum   float64   // Σ w (m without weights)
	a      []float64 // m×m: k(x_i,x_l) − (2/M) Σ_{j<M} c_j(x_i) c_j(x_l)
	// scratch of eval
	theta, sin, cos, u []float64
}

// setup loads the batch rows and the residual of the frozen features.
func (p *problem) setup(xs, wt []float64, d int, rows []int, freqs [][]float64, phases []float64, c Config) {
	m := len(rows)
	p.m, p.d, p.M = m, d, len(freqs)+1
	p.kappa = 2 / float64(p.M)
	p.lambda = c.FreqLambda
	p.x = grow(p.x, m*d)
	for r, i := range rows {
		copy(p.x[r*d:(r+1)*d], xs[i*d:(i+1)*d])
	}
	p.w, p.wsum = nil, float64(m)
	if wt != nil {
		p.wbuf = grow(p.wbuf, m)
		p.w = p.wbuf
		p.wsum = 0
		for r, i := range rows {
			p.w[r] = wt[i]
			p.wsum += wt[i]
		}
	}
	p.a = grow(p.a, m*m)
	p.theta, p.sin, p.cos, p.u = grow(p.theta, m), grow(p.sin, m), grow(p.cos, m), grow(p.u, m)

	// Exact kernel.
	for i := 0; i < m; i++ {
		row := p.a[i*m : (i+1)*m]
		xi := p.x[i*d : (i+1)*d]
		for l := range row {
			row[l] = float64(-c.Gamma * sqDist(xi, p.x[l*d:(l+1)*d]))
		}
		trig.Exp(row, row)
	}
	// Frozen features: P = C Cᵀ, C the m×(M−1) cosines.
	J := len(freqs)
	if J == 0 {
		return
	}
	C := make([]float64, m*J)
	for i := 0; i < m; i++ {
		xi := p.x[i*d : (i+1)*d]
		ci := C[i*J : (i+1)*J]
		for j, f := range freqs {
			ci[j] = phases[j] + xmath.DotRound(xi, f)
		}
		trig.Cos(ci, ci)
	}
	for i := 0; i < m; i++ {
		ci := C[i*J : (i+1)*J]
		for l := i; l < m; l++ {
			v := p.a[i*m+l] - float64(p.kappa*xmath.DotRound(ci, C[l*J:(l+1)*J]))
			p.a[i*m+l], p.a[l*m+i] = v, v
		}
	}
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// eval returns the loss at (w, b) and, if gw != nil, writes ∂L/∂w into gw
// and returns ∂L/∂b. With weights the loss is
// Σ_il w_i w_l r_il² / (Σ w)² + λ‖w‖², r_il the residual of the pair.
func (p *problem) eval(w []float64, b float64, gw []float64) (loss, gb float64) {
	m, d := p.m, p.d
	for i := 0; i < m; i++ {
		p.theta[i] = b + xmath.DotRound(p.x[i*d:(i+1)*d], w)
	}
	trig.Sincos(p.sin[:m], p.cos[:m], p.theta[:m])
	if p.w != nil {
		return p.evalWeighted(w, gw)
	}
	var sum float64
	for i := 0; i < m; i++ {
		qi := float64(p.kappa * p.cos[i])
		row := p.a[i*m : (i+1)*m]
		var ui float64
		for l, al := range row {
			r := al - float64(qi*p.cos[l])
			sum += float64(r * r)
			ui += float64(r * p.cos[l])
		}
		p.u[i] = ui
	}
	mm := float64(m) * float64(m)
	loss = sum/mm + float64(p.lambda*xmath.DotRound(w, w))
	if gw == nil {
		return loss, 0
	}
	return loss, p.grad(gw, w, nil, 4*p.kappa/mm)
}

// evalWeighted is eval's epilogue with row weights (p.w), once θ, sin
// and cos are set.
func (p *problem) evalWeighted(w []float64, gw []float64) (loss, gb float64) {
	m, pw := p.m, p.w[:p.m]
	var sum float64
	for i := 0; i < m; i++ {
		qi := float64(p.kappa * p.cos[i])
		row := p.a[i*m : (i+1)*m]
		var ui, si float64
		for l, al := range row {
			r := al - float64(qi*p.cos[l])
			wr := float64(pw[l] * r)
			si += float64(wr * r)
			ui += float64(wr * p.cos[l])
		}
		sum += float64(pw[i] * si)
		p.u[i] = ui
	}
	ww := float64(p.wsum * p.wsum)
	loss = sum/ww + float64(p.lambda*xmath.DotRound(w, w))
	if gw == nil {
		return loss, 0
	}
	return loss, p.grad(gw, w, pw, 4*p.kappa/ww)
}

// grad writes into gw the gradient in w, f·Σ_i s_i x_i + 2λw, and
// returns the one in b, f·Σ_i s_i, with s_i = sin θ_i · u_i, times the
// row weight pw[i] if pw is not nil (the product rounded first, as
// float64(pw[i]·sin θ_i)·u_i), once eval has set sin and u.
func (p *problem) grad(gw, w, pw []float64, f float64) float64 {
	d := p.d
	clear(gw)
	var gb float64
	for i := 0; i < p.m; i++ {
		si := float64(p.sin[i] * p.u[i])
		if pw != nil {
			si = float64(float64(pw[i]*p.sin[i]) * p.u[i])
		}
		gb += si
		xi := p.x[i*d : (i+1)*d]
		for k, v := range xi {
			gw[k] += float64(si * v)
		}
	}
	for k := range gw {
		gw[k] = float64(f*gw[k]) + float64(2*p.lambda*w[k])
	}
	return float64(f * gb)
}

// descend minimises the loss from (w, b): steps s·α/(1+αλt) with
// backtracking; see the package doc. It returns the best iterate.
func (p *problem) descend(w []float64, b float64, c Config) ([]float64, float64, float64) {
	d := len(w)
	g, gn, wn := make([]float64, d), make([]float64, d), make([]float64, d)
	loss, gb := p.eval(w, b, g)
	s := 1.0
	for t := 0; t < c.MaxIter; t++ {
		base := c.Alpha / (1 + float64(float64(c.Alpha*c.FreqLambda)*float64(t)))
		first := true
		var lossN, gbN, bn, step float64
		accepted := false
		for h := 0; h < maxHalvings; h++ {
			eta := float64(s * base)
			var sq float64
			for k := range w {
				dw := float64(eta * g[k])
				wn[k] = w[k] - dw
				sq += float64(dw * dw)
			}
			bn = b
			if c.LearnPhase {
				db := float64(eta * gb)
				bn = b - db
				sq += float64(db * db)
			}
			step = math.Sqrt(sq)
			lossN, gbN = p.eval(wn, bn, gn)
			if lossN <= loss { // false for NaN
				accepted = true
				break
			}
			first = false
			s /= 2
			if step <= c.Tol {
				break
			}
		}
		if !accepted {
			break
		}
		w, wn = wn, w
		g, gn = gn, g
		b, loss, gb = bn, lossN, gbN
		if first {
			s = min(1, 2*s)
		}
		if step <= c.Tol {
			break
		}
	}
	return w, b, loss
}

// normals is a stream of standard normal draws by the Box–Muller transform
// on xmath.Log and trig.Sincos (the same bits on every architecture, unlike
// rand.NormFloat64): u₁ = (a+1)·2⁻⁵³ ∈ (0, 1], u₂ = b·2⁻⁵³, giving
// √(−2 ln u₁)·cos(2πu₂), then √(−2 ln u₁)·sin(2πu₂).
type normals struct {
	r     *rand.Rand
	spare float64
	has   bool
}

func newNormals(r *rand.Rand) *normals { return &normals{r: r} }

// uniform returns a draw of U[0, 1).
func (g *normals) uniform() float64 { return float64(g.r.Uint64()>>11) * 0x1p-53 }

func (g *normals) next() float64 {
	if g.has {
		g.has = false
		return g.spare
	}
	u1 := float64(g.r.Uint64()>>11+1) * 0x1p-53
	u2 := g.uniform()
	rad := math.Sqrt(-2 * xmath.Log(u1))
	var sc [2]float64
	ang := [1]float64{float64(2*math.Pi) * u2}
	trig.Sincos(sc[:1], sc[1:], ang[:])
	g.spare, g.has = float64(rad*sc[0]), true
	return float64(rad * sc[1])
}
