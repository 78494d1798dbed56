package gbrff

import (
	"math"

	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// round2 is one GBRFF2 round: b by a global search on the circle with ω⁰
// fixed, then ω by L-BFGS with b fixed, then α and the update.
func (f *fitter) round2(t int) error {
	if f.sub != nil {
		return f.round2sub(t)
	}
	d := f.d
	omega0 := f.omega[t*d : (t+1)*d]
	if err := f.startSincos(t); err != nil {
		return err
	}
	b, err := f.phase()
	if err != nil {
		return err
	}
	fs := f.fs
	lambda := f.c.Lambda
	// L-BFGS minimises (L − 1)/W̄, W̄ = Σw/n the mean boosting weight: the
	// same minimiser, and a stopping rule (freqFuncTol) measured against
	// the size of this round's objective. L = 1 − (1/n)Σỹ cos(·) + O(ỹ²), so
	// L − 1 is of the order of W̄: late rounds on easy data, where W̄ is small,
	// keep iterating as long as early ones.
	inv := 1 / math.Max(f.sumW/float64(len(f.y)), 1e-10)
	obj := func(x, g []float64) float64 {
		l, _ := fs.Eval(x, b, lambda, g)
		f.countX(1)
		f.st.FreqEvals++
		for k := range g {
			g[k] *= inv
		}
		return float64((l - 1) * inv)
	}
	if f.reuseSincos {
		// f.s and f.cs are not read again this round (settle)
		if err := fs.UseProjections(f.s, f.cs); err != nil {
			return err
		}
	} else {
		fs.Restart()
	}
	f.startNorm = norm2(omega0)
	w := f.opt.minimize(obj, omega0)
	b, corr, err := f.settle(w, b)
	if err != nil {
		return err
	}
	alpha := f.step(corr)
	f.addTerm(w, -b, alpha)
	if err := f.update(alpha); err != nil {
		return err
	}
	return f.observe([][]float64{w}, []float64{-b}, []float64{1}, alpha)
}

// startBlock is the most GBRFF2 rounds whose sines and cosines at ω⁰ one
// sweep over X computes (exploss.Data.SincosMany), and startBlockBytes the
// most memory they may take (2·B·n float64: 12.8 MB at n = 10⁵, B = 8).
// Measured at n = 10⁵, d = 20 on one core: the sincos pass at ω⁰ was ≈ 9 %
// of a fit, mostly reading X (8 MB of float32 panels) from memory; a block
// reads it once for B rounds (the sincos work itself is unchanged).
// startBlockBytes is a variable so that tests can move it.
const startBlock = 8

var startBlockBytes = 32 << 20

// startSincos sets f.s and f.cs to the sines and cosines of X·ω⁰ for round
// t, ω⁰ = f.omega[t·d:(t+1)·d]: the bits of f.x.Sincos at ω⁰. Every
// round's ω⁰ is drawn up front, so one sweep over X (SincosMany) computes
// them for the next B rounds (B ≤ startBlock, within startBlockBytes — shared
// by the class fitters of a multiclass fit — and the rounds left), counted as one X pass; each round then takes its own
// slots of the block as f.s and f.cs (no copy). With B = 1 (n too large,
// or the last round) it is the plain sweep into f.s and f.cs.
func (f *fitter) startSincos(t int) error {
	d, n := f.d, len(f.s)
	blk := &f.start
	if t < blk.t0 || t >= blk.t0+blk.m {
		m := f.blockRounds(t, n)
		if m <= 1 {
			// f.s and f.cs may be slots of a finished block: no longer read.
			blk.m = 0
			f.countX(1)
			f.st.StartXPasses++
			return f.x.Sincos(f.s, f.cs, f.omega[t*d:(t+1)*d])
		}
		if len(blk.s) < m*n {
			blk.s, blk.c = make([]float64, m*n), make([]float64, m*n)
		}
		blk.t0, blk.m = t, 0
		if err := f.x.SincosMany(blk.s[:m*n], blk.c[:m*n], f.omega[t*d:(t+m)*d]); err != nil {
			return err
		}
		blk.m = m
		f.countX(1)
		f.st.StartXPasses++
	}
	// Round t works on its slots of the block in place: f.s and f.cs (and
	// the phase sweep that reads them) point there, and later in the round
	// the frequency step (f.reuseSincos) or settle overwrites them, which
	// no later round reads.
	j := t - blk.t0
	f.s, f.cs = blk.s[j*n:(j+1)*n:(j+1)*n], blk.c[j*n:(j+1)*n:(j+1)*n]
	return f.ph.SetSincos(f.cs, f.s)
}

// blockRounds is the number of rounds from round t whose sines and cosines
// at ω⁰ startSincos computes in one sweep, for n rows: the block's B.
func (f *fitter) blockRounds(t, n int) int {
	return min(startBlock, max(startBlockBytes/(16*n*max(f.start.share, 1)), 1), f.c.T-t)
}

// settle ends the frequency step of a GBRFF2 round at ω = w with phase b:
// b is searched again when Config.ReoptimizePhase, and f.h becomes the new
// cosine cos(w·x − b). It returns b and the weighted correlation of f.h
// with ỹ (exploss.Data.WeightedCorrelation over the sines and cosines of
// w·x). L-BFGS returns its last evaluated point or the best one, and the
// frequency step keeps the projections w·x of both
// (exploss.FreqStep.Sincos): then, without ReoptimizePhase, one pass takes
// f.h and the correlation from them (FreqStep.Correlation; with
// f.reuseSincos f.h is the step's other projection buffer, FreqStep.Spare;
// f.s and f.cs are left as they were — the next round rewrites them before
// any use),
// and with it f.s and f.cs become their sines and cosines. Otherwise (never
// seen at n = 10⁴ or 10⁵) f.s and f.cs come from a sweep over X. Every route
// gives the bits of that sweep followed by WeightedCorrelation.
func (f *fitter) settle(w []float64, b float64) (float64, float64, error) {
	if !f.c.ReoptimizePhase {
		sb, cb := xmath.Sincos(b)
		h := f.h
		if f.reuseSincos {
			h = f.fs.Spare(w)
		}
		if h != nil {
			corr, ok, err := f.fs.Correlation(h, w, cb, sb)
			if err != nil {
				return 0, 0, err
			}
			if ok {
				f.h = h
				f.st.Passes++
				return b, corr, nil
			}
		}
	}
	if f.reuseSincos {
		// f.h may be f.s or f.cs, written below: a buffer of its own
		if f.hOwn == nil {
			f.hOwn = make([]float64, len(f.s))
		}
		f.h = f.hOwn
	}
	stored, err := f.fs.Sincos(f.s, f.cs, w)
	if err != nil {
		return 0, 0, err
	}
	if stored {
		f.st.Passes++
	} else {
		f.countX(1)
		f.st.SettleXPasses++
	}
	if f.c.ReoptimizePhase {
		if b, err = f.phase(); err != nil {
			return 0, 0, err
		}
	}
	sb, cb := xmath.Sincos(b)
	corr, err := f.x.WeightedCorrelation(f.h, f.yt, f.cs, f.s, []float64{cb}, []float64{sb})
	if err != nil {
		return 0, 0, err
	}
	f.st.Passes++
	return b, corr, nil
}

// phaseSearch is the circle search of the phase b (circleSearch): an
// 8-point grid in one pass, then cubic Hermite steps on log f in the two
// best brackets, side by side: about 10.4 phases in 2.4 passes per search.
// It was solvers.MinimizeCircle refining the same brackets by Brent's
// zeroin on f′ down to 1e-3 (14.6 phases in 5.4 passes per round at
// n = 10⁵, each phase one exp per sample, ≈ 0.135 ms on one core,
// compute-bound: 2 ms of a 7 ms round); the value it reaches is within
// 3e-5 relative of the minimum (zeroin to 1e-3: 1.5e-7), far below the
// 1e-2 stopping rule of the ω search that follows (freqFuncTol).
// With tolerance 1e-8 and measured against a 256-point grid refining 8
// brackets, the 8-point grid brackets the global minimum in all of
// 1500 searches (every round of fits on sonar, iono, heart, german and
// peers.Classification(10⁴, 20) at γ ∈ {¼, 1, 4}/d); refining only the
// best bracket missed 36 of them. f(b) = Σ exp(−ỹ cos(p − b)) is a sum of
// shifted cosine exponentials, so it has few local minima: an 8-point grid
// brackets them, and at most 4 sign changes of f′ fit on it.
var phaseSearch = struct{ GridPoints, Candidates int }{GridPoints: 8, Candidates: 2}

// freqFuncTol stops the L-BFGS search of ω (at most Config.Iterations
// iterations) when an iteration lowers the scaled objective (L − 1)/W̄ by
// less than 1e-2 (solvers.LBFGSOptions.FuncTol; the reference's scipy
// setting 2.2e-9 on L itself runs all 10 iterations nearly always).
// Measured on peers.Classification(10⁴ + 5000 held out, 20), 6 seeds, T = 100:
// 6.3 instead of 13.4 frequency-step passes per round at a held-out error
// of 0.134 (0.143 before); 3e-2 gave 3.6 passes at 0.157, and a fixed cap
// of 5 iterations 0.149, of 3 0.177. On the 13 smaller sets of the paper
// (10 seeds) the test accuracy stayed within seed noise of the old code.
const freqFuncTol = 1e-2

// The ω search also stops before an iteration whose predicted decrease,
// −½gᵀd along the L-BFGS direction d, is below the same rule
// (solvers.LBFGSOptions.PredictedStop, the Newton-decrement test): such an
// iteration would almost always end the search by the rule above, after
// 1.4 evaluations of the frequency step on average. Measured on
// peers.Classification(n + 5000 held out, 20), T = 100: at n = 10⁴
// (30 seeds) 5.07 instead of 6.26 frequency evaluations per round, held-out
// error 0.1230 vs 0.1215; at n = 10⁵ (4 seeds) 5.50 instead of 7.07,
// 0.0946 vs 0.0978 — both within seed noise
// (bench/results/archive/2026-11-27-predstop.txt); on Table 2's protocol,
// old against new with the same seeds (10 seeds, 14 sets), −0.13 ± 0.20
// points of test accuracy (bench/results/gbrff2-predstop-paired.md).

// firstStepRatio sets the first trial step of the ω search when the
// rounds' widths are spread (Config.GammaMin > 0): the step moves ω by
// firstStepRatio·‖ω⁰‖ along −g (solvers.LBFGSOptions.FirstStep), where the
// default moves it by 1 whatever the width, too far for the narrow widths
// and too short for the wide ones. Measured, frequency-step evaluations per
// round of the binary defaults (T = 100, bench/cmd/defaults-panel -stats),
// unit step → 0.6‖ω⁰‖: peers.Classification(2·10⁴, 20) seed 1 4.23 → 4.16,
// seed 7 4.40 → 4.04; scikit-learn's make_classification (2·10⁴, 20)
// default settings 4.58 → 4.85, 10 informative of 20 with class_sep 0.5
// 5.18 → 3.84; spambase 6.76 → 6.07, occupancy 4.96 → 3.88, splice
// 7.41 → 6.84. Ratios 0.1, 0.3, 1 and 2 did worse on most of them, and a
// Newton-like step 1/max(−f, 0.05) worse on all. The mean test accuracy of
// the 16 binary sets (5 splits) stayed 89.59 %.
const firstStepRatio = 0.6

// firstStep is the solvers.LBFGSOptions.FirstStep of a spread-width
// GBRFF2 fit: firstStepRatio·‖ω⁰‖/‖g‖ (every square rounded on its own,
// so that no architecture fuses it: the same bits everywhere).
func (f *fitter) firstStep(_ float64, g []float64) float64 {
	return float64(firstStepRatio*f.startNorm) / norm2(g)
}

// norm2 is the Euclidean norm of v, every square rounded on its own.
func norm2(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += float64(x * x)
	}
	return math.Sqrt(s)
}

// phase returns the global minimiser on the circle of
// f(b) = Σ exp(−ỹ cos(p − b)) for the current sin and cos of p
// (circleSearch with phaseSearch). Each pass evaluates several phases
// (Phase.EvalMany): on one core 8 phases in a pass cost 0.91 of 8
// one-phase passes (each chunk of c, s and ỹ is read once, in cache for
// the other phases); on several the pool is woken once instead of 8 times.
func (f *fitter) phase() (float64, error) {
	ph := f.ph
	b, passes, evals, err := circleSearch(ph.EvalMany, phaseSearch.GridPoints, phaseSearch.Candidates)
	if err != nil {
		return 0, err
	}
	f.st.Passes += passes
	f.st.PhasePasses += passes
	f.st.PhaseEvals += evals
	return b, nil
}

// newSweeps makes the frequency-step and phase sweeps of a GBRFF2 fit once:
// both read f.yt, f.cs and f.s in place (exploss uses those slices, not
// copies), which every round rewrites with finite values (bounded weights,
// sines and cosines). Making them once per round re-checked 4n values for
// finiteness each round, serially: 8 % of a fit at n = 10⁵ on one core
// (CPU profile), and a serial part of every round on two.
func (f *fitter) newSweeps() error {
	var err error
	if f.fs, err = exploss.NewFreqStep(f.x, f.yt); err != nil {
		return err
	}
	f.ph, err = exploss.NewPhase(f.cs, f.s, f.yt)
	return err
}

// countX counts k passes over the inputs X.
func (f *fitter) countX(k int) {
	f.st.Passes += k
	f.st.XPasses += k
}

// fitLandmark is the first step of a GBRFF1 round t: the landmark p by
// L-BFGS from 0 on the landmark sweep over the round's K frequencies Om
// (made on the first call, reset after, on the current targets ỹ). It
// returns Om, the phases a = Om·p and the loss of each of the K cosines
// (K more passes, counted here).
// scaled is the regression form: the objective (L − 1) and its gradient
// times targetScale.
func (f *fitter) fitLandmark(t int, scaled bool) (Om, a, ell []float64, err error) {
	d, K := f.d, f.c.K
	Om = f.omega[t*K*d : (t+1)*K*d]
	if f.lm == nil {
		if f.lm, err = exploss.NewLandmark(f.x, Om, K, f.yt); err != nil {
			return nil, nil, nil, err
		}
	} else if err := f.lm.Reset(f.x, Om, f.yt); err != nil {
		return nil, nil, nil, err
	}
	f.countX(K)
	lm := f.lm
	a, ga := make([]float64, K), make([]float64, K)
	p := f.opt.minimize(func(p, g []float64) float64 {
		project(a, Om, p)
		l, _ := lm.Eval(a, ga)
		f.st.Passes++
		// ∂L/∂p = Ωᵀ ∂L/∂a
		for j := range g {
			var s float64
			for k := 0; k < K; k++ {
				s = math.FMA(Om[k*d+j], ga[k], s)
			}
			if scaled {
				s = float64(s * targetScale)
			}
			g[j] = s
		}
		if scaled {
			return float64((l - 1) * targetScale)
		}
		return l
	}, make([]float64, d))
	project(a, Om, p)
	ell = make([]float64, K)
	if err := lm.FeatureLosses(ell, a); err != nil {
		return nil, nil, nil, err
	}
	f.st.Passes += K
	return Om, a, ell, nil
}

// round1 is one GBRFF1 round: the landmark p by L-BFGS from 0, then the
// weights q of its K cosines, then α and the update.
func (f *fitter) round1(t int) error {
	d, K := f.d, f.c.K
	Om, a, ell, err := f.fitLandmark(t, false)
	lm := f.lm
	if err != nil {
		return err
	}
	q := softmin(ell, f.c.Beta*math.Sqrt(float64(len(f.y))))
	u, v := make([]float64, K), make([]float64, K)
	for k := range a {
		s, c := xmath.Sincos(a[k])
		u[k], v[k] = float64(q[k]*c), float64(q[k]*s)
	}
	corr, err := f.x.WeightedCorrelation(f.h, f.yt, lm.C, lm.S, u, v)
	if err != nil {
		return err
	}
	f.st.Passes++
	alpha := f.step(corr)
	ws, bs := make([][]float64, K), make([]float64, K)
	for k := 0; k < K; k++ {
		ws[k], bs[k] = Om[k*d:(k+1)*d], -a[k]
		// cos(ω_k·(p − x)) = cos(ω_k·x − a_k)
		f.addTerm(ws[k], -a[k], float64(alpha*q[k]))
	}
	if err := f.update(alpha); err != nil {
		return err
	}
	return f.observe(ws, bs, q, alpha)
}

// project sets a = Ωp, one FMA per term.
func project(a, Om, p []float64) {
	d := len(p)
	for k := range a {
		var s float64
		for j, v := range p {
			s = math.FMA(Om[k*d+j], v, s)
		}
		a[k] = s
	}
}

// softmin returns q = softmax(−scale·ℓ) (vec.Softmin: log-sum-exp, the
// largest exponent 0, so nothing overflows).
func softmin(ell []float64, scale float64) []float64 {
	z := make([]float64, len(ell))
	vec.Softmin(z, ell, scale)
	return z
}

// optimizer runs the L-BFGS solves of a fit (memory 10, as the reference).
type optimizer struct {
	lb    *solvers.LBFGS
	opt   solvers.LBFGSOptions
	best  []float64
	iters int // accepted iterations, summed over the solves
}

func newOptimizer(d, iterations int) *optimizer {
	lb, err := solvers.NewLBFGS(d, 10)
	if err != nil {
		panic(err) // d ≥ 1 was checked by Fit
	}
	return &optimizer{lb: lb, opt: solvers.LBFGSOptions{MaxIterations: iterations}, best: make([]float64, d)}
}

// minimize returns the best point found from x0, or x0 itself when the solver
// fails outright (a non-finite objective at x0 cannot happen: every term is
// bounded).
func (o *optimizer) minimize(f func(x, g []float64) float64, x0 []float64) []float64 {
	res, _ := o.lb.Minimize(f, x0, o.opt)
	o.iters += res.Iterations
	out := make([]float64, len(x0))
	if res.X != nil {
		copy(out, res.X)
	} else {
		copy(out, x0)
	}
	return out
}
