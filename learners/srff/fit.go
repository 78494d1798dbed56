package srff

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
	"github.com/rfkit/rfkit/trig"
)

// Fit trains a model on the rows of X (n×d, n ≥ 10) and the targets y
// (len n). See the package documentation for the algorithm.
//
// Errors: a cancelled ctx, an invalid cfg, empty, ragged or too small data,
// NaN or ±Inf in X or y, a failing solver, or an error returned by
// cfg.Progress (wrapped). The result depends only on the data and cfg, not
// on GOMAXPROCS. Memory: the n×D feature matrix, its phases and (at the
// default GammaIterations = 1) two kept copies of them, plus D×D for ridge. ctx is
// checked between alternations and after every FISTA iteration of the
// γ-step (a few passes over the rows), so a cancellation stops a fit
// within a fraction of a second.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	return FitWeighted(ctx, X, y, nil, cfg)
}

// FitWeighted is Fit with a weight per row (w == nil: none, Fit's bits).
// A row of weight 0 is dropped; the others enter the standardisation
// (weighted means and variances), the intercept (the weighted mean of y),
// the loss of both steps, (1/2W)Σ w_i r_i² + (λ/2)‖a‖² with W = Σ w_i (so
// the ridge system is ZᵀWZ + WλI), and the validation RMSE of the λ search
// (a weighted mean over the held-out rows). Training with weight 2 on a
// row then gives the model of the row duplicated, up to the order of the
// sums, when λ and Simplex are given; the data-dependent choices are made
// on the rows of positive weight, not on copies: the validation split
// draws rows (a row and its weight go to the same side, where two copies
// could be split), and the width σ of the default simplex is the median
// neighbour distance among those rows (a duplicate would be a neighbour at
// distance 0). Its 10 rows are counted among the rows of positive weight. Errors beside
// Fit's: len(w) != n, a negative, NaN or infinite weight, all weights 0.
//
// The default fit also searches the simplex size (when Simplex and Lambda
// are 0 and Search is not Disabled): it fits the model at s = f·d/σ for
// each f of 1, 1/2 and 1/4, each with its λ search on the same validation
// rows, and keeps the one of the smallest validation RMSE (SimplexSearch
// reports them); this costs three fits, and Progress
// reports each fit's rounds in turn.
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	m, err := fitWeighted(ctx, X, y, w, cfg)
	if err != nil || cfg.Simplex != 0 || cfg.Lambda != 0 || !kit.On(cfg.Search, true) {
		return m, err
	}
	s0 := m.Config().Simplex
	pts := []SimplexPoint{{Factor: simplexFactors[0], Simplex: s0, RMSE: validationRMSE(m)}}
	best, bestV := m, pts[0].RMSE
	for _, f := range simplexFactors[1:] {
		c := cfg
		c.Simplex = float64(f * s0)
		mf, err := fitWeighted(ctx, X, y, w, c)
		if err != nil {
			return nil, err
		}
		v := validationRMSE(mf)
		pts = append(pts, SimplexPoint{Factor: f, Simplex: c.Simplex, RMSE: v})
		if v < bestV {
			best, bestV = mf, v
		}
	}
	best.Body().simplexes = pts
	return best, nil
}

// validationRMSE is the smallest validation RMSE of m's λ search.
func validationRMSE(m *Model) float64 {
	v := math.Inf(1)
	for _, p := range m.Body().search {
		v = math.Min(v, p.RMSE)
	}
	return v
}

// fitWeighted is FitWeighted at one simplex size.
func fitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	pre, err := kit.PrepareWeighted(ctx, methodName, cfg, learners.Regression, X, y, w)
	if err != nil {
		return nil, err
	}
	y, w = pre.Targets, pre.Weights
	n, d := pre.N, pre.D
	if n < minRows {
		return nil, fmt.Errorf("srff: %d rows, want at least %d", n, minRows)
	}
	c := cfg.resolve(d)
	D := c.Features
	if n > math.MaxInt/D/8 || d > math.MaxInt/D/8 {
		return nil, fmt.Errorf("srff: %d rows × %d inputs × %d features do not fit in memory", n, d, D)
	}

	xs := pre.Z
	eps, phases, err := drawNoise(d, D, c.Seed)
	if err != nil {
		return nil, fmt.Errorf("srff: %w", err)
	}
	dAll, epsAll := d, eps
	live := mostlyConstant(xs, n, d)
	if live != nil {
		// Fit on the live inputs: their columns of xs and rows of ε.
		// The constant inputs add exact zeros to the phases and to the
		// neighbour distances of σ, so every other number is the one of
		// the full matrix; their γ is 0 in the model.
		d = len(live)
		xs, eps = pickColumns(xs, n, dAll, live), make([]float64, d*D)
		for t, k := range live {
			copy(eps[t*D:(t+1)*D], epsAll[k*D:(k+1)*D])
		}
	}

	perm := rand.New(rand.NewPCG(c.Seed, 0x73726666)).Perm(n) // "srff"
	if c.Simplex == 0 {
		m := min(n, sigmaRows)
		sigma := neighbourWidth(xs, d, perm[:m], neighbours)
		c.Simplex = float64(d) / sigma
	}
	gamma := make([]float64, d)
	for k := range gamma {
		gamma[k] = c.Simplex / float64(d)
	}

	var trace []SearchPoint
	var p path
	p.ctx, p.progress, p.start, p.cfg, p.eps, p.b = ctx, cfg.Progress, pre.Start, c, eps, phases
	if c.Lambda == 0 {
		p.rounds = c.Lambdas + 1
		nv := max(1, min(n-minRows/2, int(float64(n)*c.Validation+0.5)))
		val, tr := perm[:nv], perm[nv:]
		slices.Sort(val)
		slices.Sort(tr)
		Xs := featmap.Dense(n, d, xs)
		train := newProblem(learners.Rows(Xs, tr), vec.Pick(y, tr), vec.Pick(w, tr))
		valX, valY, valW := learners.Rows(Xs, val), vec.Pick(y, val), vec.Pick(w, val)
		best, bestRMSE := 0.0, math.Inf(1)
		worse := 0 // consecutive grid values clearly worse than the best
		for _, lambda := range grid(c.LambdaMax, c.LambdaMin, c.Lambdas) {
			if worse >= pathPatience {
				// The path runs from large λ (cheap fits, a ≈ 0) to
				// small (the fits that take most alternations): stop
				// once pathPatience values in a row are clearly worse
				// than the best, i.e. past the minimum.
				break
			}
			// Every λ starts from the even γ, as Algorithm 1 does: warm
			// starts along the grid carry the γ of one λ's local optimum
			// into the next (from a large λ, where a ≈ 0, a γ driven by
			// noise inputs).
			a, g, err := p.fit(train, lambda, gamma)
			if err != nil {
				return nil, err
			}
			rmse := validate(eps, phases, g, a, train.mean, valX, valY, valW, d, D)
			trace = append(trace, SearchPoint{Lambda: lambda, RMSE: rmse})
			if rmse < bestRMSE { // NaN never wins
				best, bestRMSE = lambda, rmse
			}
			if rmse > float64(bestRMSE*(1+pathMargin)) || math.IsNaN(rmse) {
				worse++
			} else {
				worse = 0
			}
		}
		p.round = p.rounds - 1 // the refit is the last round, even after an early stop
		if best == 0 {
			return nil, fmt.Errorf("srff: every λ of the grid gave a non-finite validation error")
		}
		// The refit has n rows where the search had len(tr): keep the
		// penalty nλ‖a‖² of the chosen fit (the paper's (ZᵀZ + λI), eq. 5),
		// which, with D fixed, is the Gaussian prior on a and does not
		// depend on n. The per-row λ shrinks by len(tr)/n (with weights:
		// by the training part's share of the total weight).
		c.Lambda = float64(best*train.wsum) / weightSum(w, n)
	} else {
		p.rounds = 1
	}
	p.cfg = c
	all := newProblem(featmap.Dense(n, d, xs), y, w)
	a, g, err := p.fit(all, c.Lambda, gamma)
	if err != nil {
		return nil, err
	}
	if live != nil {
		gAll := make([]float64, dAll)
		for t, k := range live {
			gAll[k] = g[t]
		}
		g = gAll
	}
	m, err := newModel(c, pre.Mean, pre.Scale, epsAll, phases, g, a, all.mean)
	if err != nil {
		return nil, fmt.Errorf("srff: %w", err)
	}
	m.Body().search = trace
	return m, nil
}

// mostlyConstant returns the inputs of the standardised rows xs (n×d)
// that are not 0 on every row, in order, if they are fewer than half of
// the d inputs (and not none), and nil otherwise; the fit then runs on
// those inputs only, its simplex (and the default size d/σ) over them.
//
// An input that is 0 on every row (constant before standardisation) has
// a γ gradient of exactly 0 and no effect on the features, but the
// simplex {Σγ = s} counts it: its share of s, even at the start, only
// reaches the other inputs a step's projection at a time. On a file whose
// inputs are mostly such (a sparse LIBSVM file of 1 KB whose rows name
// input 4096: about 100 inputs used of 4096), each fit of the λ path ran
// to MaxIterations draining that share, and the default fit took minutes
// on 112 rows; on the used inputs alone the same fits stop after 15–26
// alternations. Leaving the constant inputs out is the right simplex for
// any data, but it is done only where they are the majority, so that the
// models of data sets with a few constant inputs keep their bits (the
// held-out splits of the paper's ailerons and elevators sets have 4–7 of
// 40 and 2 of 18 inputs constant).
func mostlyConstant(xs []float64, n, d int) []int {
	live := liveInputs(featmap.Dense(n, d, xs))
	if len(live) == 0 || 2*len(live) >= d {
		return nil
	}
	return live
}

// pickColumns returns the columns cols of x (n×d), n×len(cols).
func pickColumns(x []float64, n, d int, cols []int) []float64 {
	out := make([]float64, n*len(cols))
	for i := 0; i < n; i++ {
		row, dst := x[i*d:(i+1)*d], out[i*len(cols):(i+1)*len(cols)]
		for t, k := range cols {
			dst[t] = row[k]
		}
	}
	return out
}

// pathPatience and pathMargin stop the λ search once pathPatience grid
// values in a row have a validation RMSE more than pathMargin above the
// best so far. The small λ at the end of the grid are the expensive fits
// (on SE2 at n = 1000 the last 15 took 85 % of the search), and past the
// minimum the validation RMSE rises for good. The margin is what makes
// the rule safe: at large λ (a ≈ 0) the curve is a plateau whose values
// wander within about 1 % of each other (SE1, n = 1000: 5 values within
// 1.3 % before it falls to its minimum, 7 % lower), and on SE2 a first
// local minimum is followed by values at most 3.7 % worse before the lower
// one; only values more than 5 % worse count. Patience 2 (it was 3):
// the fit past the last one walked is the smallest λ walked, the dearest
// (SE3 at n = 1000, seed 1: 221 of the search's 1035 alternations; at
// n = 5000 the fits grow from 246 to 291 and 343 alternations as λ falls
// from 4·10⁻⁴ to 2.5·10⁻⁴ and 1.6·10⁻⁴), and in the 18 searches of srff-se on SE1,
// SE2 and SE3 at n = 1000 (seeds 1–3, before and after the accelerated
// alternation), and in SE3 at n = 5000 seed 1, no third value ever became the
// best after two more than 5 % worse: each fit starts from the even γ, so
// the chosen λ and the model are the same, with fewer points in Search().
// (In that SE3 search the third value, at λ = 10⁻⁴, came within 4 % of
// the best and restarted the count: patience 3 walked 19 fits, the last
// four the dearest of the search, and chose the same λ; patience 2 walks
// 15. SE3 n = 5000 seed 1 took 711 CPU s before the accelerated alternation
// and 400 after, with the same test RMSE 0.1790.)
const (
	pathPatience = 2
	pathMargin   = 0.05
)

// problem is a training set: standardised rows, centred targets and the
// row weights.
type problem struct {
	X    featmap.Matrix
	yc   []float64 // y − mean
	w    []float64 // row weights (nil: all 1)
	wsum float64   // Σw (the number of rows without weights)
	mean float64   // the (weighted) mean of y
}

// newProblem centres y on its mean, weighted by w (nil: all 1; then the
// sums are those of the unweighted formula).
func newProblem(X featmap.Matrix, y, w []float64) *problem {
	var s float64
	for i, v := range y {
		if w != nil {
			v = float64(w[i] * v)
		}
		s += v
	}
	ws := weightSum(w, len(y))
	mean := s / ws
	yc := make([]float64, len(y))
	for i, v := range y {
		yc[i] = v - mean
	}
	return &problem{X: X, yc: yc, w: w, wsum: ws, mean: mean}
}

// path runs the alternating fits and reports progress.
type path struct {
	ctx      context.Context
	progress learners.Progress
	start    time.Time
	cfg      Config
	eps, b   []float64
	round    int
	rounds   int
}

// fit alternates a- and γ-steps at λ from γ0 and returns a and γ (a
// computed at the returned γ).
func (p *path) fit(pr *problem, lambda float64, gamma0 []float64) (a, gamma []float64, err error) {
	c := p.cfg
	D := c.Features
	ev := newEvaluator(pr.X, pr.yc, pr.w, p.eps, p.b, D)
	ev.threads = c.Threads
	var loss float64
	if c.GammaIterations == 1 {
		a, gamma, loss, err = p.accelerated(ev, lambda, gamma0)
	} else {
		a, gamma, loss, err = p.alternate(ev, lambda, gamma0)
	}
	if err != nil {
		return nil, nil, err
	}
	p.round++
	e := learners.Event{Method: methodName, Round: p.round, Rounds: p.rounds, Loss: loss, Elapsed: time.Since(p.start)}
	if err := kit.Report(p.progress, e); err != nil {
		return nil, nil, fmt.Errorf("srff: %w", err)
	}
	if err := p.ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("srff: %w", err)
	}
	return a, gamma, nil
}

// alternate runs Algorithm 1 at λ from γ0: an a-step, then a γ-step of up
// to GammaIterations FISTA iterations from the current γ, until the
// stopping rule on J holds; it returns a (computed at the returned γ), γ
// and J. It is the path of GammaIterations > 1, the authors' scheme.
func (p *path) alternate(ev *evaluator, lambda float64, gamma0 []float64) (a, gamma []float64, loss float64, err error) {
	c := p.cfg
	a = make([]float64, c.Features)
	gamma = slices.Clone(gamma0)
	var objs []float64
	var lip float64 // the γ-step's Lipschitz estimate, carried from one γ-step to the next
	for it := 0; ; it++ {
		j, err := ev.aStep(a, gamma, lambda)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("srff: ridge at λ = %g: %w", lambda, err)
		}
		objs = append(objs, j)
		if k := len(objs); it >= c.MaxIterations || (k >= 5 && objs[k-5]-objs[k-1] < c.Tol*math.Abs(objs[k-1])) {
			break
		}
		if err := p.ctx.Err(); err != nil {
			return nil, nil, 0, fmt.Errorf("srff: %w", err)
		}
		ev.setA(a)
		if _, err := gammaStep(p.ctx, ev, gamma, c.Simplex, c.GammaIterations, c.Tol, &lip); err != nil {
			return nil, nil, 0, fmt.Errorf("srff: %w", err)
		}
	}
	return a, gamma, objs[len(objs)-1], nil
}

// aStep sets a to the ridge solution at γ and returns J(a, γ).
func (ev *evaluator) aStep(a, gamma []float64, lambda float64) (float64, error) {
	ev.features(gamma)
	if err := ev.ridge(a, lambda); err != nil {
		return 0, err
	}
	var aa float64
	for _, v := range a {
		aa += float64(v * v)
	}
	return ev.residuals(a) + float64(lambda*aa)/2, nil
}

// validate returns the RMSE on (X, y) of the model ȳ + aᵀz_γ(x), weighted
// by w (nil: all 1).
func validate(eps, phases, gamma, a []float64, mean float64, X featmap.Matrix, y, w []float64, d, D int) float64 {
	rff, err := scaledMap(eps, phases, gamma, d, D)
	if err != nil {
		return math.NaN()
	}
	z := make([]float64, D)
	var s float64
	for i, v := range y {
		rff.TransformRow(z, X.Row(i))
		r := v - mean - xmath.Dot(a, z)
		r2 := float64(r * r)
		if w != nil {
			r2 = float64(w[i] * r2)
		}
		s += r2
	}
	return math.Sqrt(s / weightSum(w, len(y)))
}

// weightSum returns Σw, or n for w == nil.
func weightSum(w []float64, n int) float64 {
	if w == nil {
		return float64(n)
	}
	var s float64
	for _, v := range w {
		s += v
	}
	return s
}

// drawNoise draws the fixed noise ε ~ N(0, 1) (d×D row-major, Box–Muller
// normals of internal/xrand) and phases b ~ U[0, 2π) of the model from
// seed, the same bits on every architecture.
func drawNoise(d, D int, seed uint64) (eps, phases []float64, err error) {
	if err := limit.CheckElements(d, D); err != nil {
		return nil, nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x7363616c6564)) // "scaled"
	eps = make([]float64, d*D)
	xrand.FillNormal(r, eps)
	phases = make([]float64, D)
	for j := range phases {
		phases[j] = 2 * math.Pi * r.Float64()
	}
	return eps, phases, nil
}

// scaledMap builds the map with frequencies W_kj = γ_k·ε_kj, one rounded
// product each.
func scaledMap(eps, phases, gamma []float64, d, D int) (*featmap.RFF, error) {
	w := make([]float64, d*D)
	for k := 0; k < d; k++ {
		for j := 0; j < D; j++ {
			w[k*D+j] = gamma[k] * eps[k*D+j]
		}
	}
	return featmap.NewRFFFromWeights(w, phases, d, D, false)
}

// grid returns k log-spaced values from hi down to lo.
func grid(hi, lo float64, k int) []float64 {
	if k == 1 || hi == lo {
		return []float64{hi}
	}
	lh, ll := xmath.Log(hi), xmath.Log(lo)
	g := make([]float64, k)
	for i := range g {
		t := float64(i) / float64(k-1)
		g[i] = lh + float64(t*(ll-lh))
	}
	trig.Exp(g, g)
	g[0], g[k-1] = hi, lo
	return g
}

// neighbourWidth is the median of the Euclidean distances from each of the
// rows idx of x (n×d row-major) to its k nearest neighbours among them (1
// if that median is 0).
func neighbourWidth(x []float64, d int, idx []int, k int) float64 {
	m := len(idx)
	k = min(k, m-1)
	if k < 1 {
		return 1
	}
	d2 := make([]float64, m*m)
	for p := 0; p < m; p++ {
		xp := x[idx[p]*d : idx[p]*d+d]
		for q := p + 1; q < m; q++ {
			xq := x[idx[q]*d : idx[q]*d+d]
			var s float64
			for t, v := range xp {
				u := v - xq[t]
				s += float64(u * u)
			}
			d2[p*m+q], d2[q*m+p] = s, s
		}
	}
	pool := make([]float64, 0, m*k)
	row := make([]float64, 0, m-1)
	for p := 0; p < m; p++ {
		row = row[:0]
		for q := 0; q < m; q++ {
			if q != p {
				row = append(row, d2[p*m+q])
			}
		}
		slices.Sort(row)
		for _, v := range row[:k] {
			pool = append(pool, math.Sqrt(v))
		}
	}
	slices.Sort(pool)
	h := len(pool) / 2
	med := pool[h]
	if len(pool)%2 == 0 {
		med = (pool[h-1] + pool[h]) / 2
	}
	if !(med > 0) || math.IsInf(med, 0) {
		return 1
	}
	return med
}
