// Package srff is Sparse Random Fourier Features (Gregorová, Ramapuram,
// Kalousis and Marchand-Maillet, "Large-scale nonlinear variable selection
// via kernel random features", ECML-PKDD 2018): kernel ridge regression on
// random Fourier features whose per-input scales γ are learned on a
// simplex, so that irrelevant inputs get γ = 0 and the learned γ is a
// variable-importance ranking.
//
// Inputs are standardised (mean 0, unit variance per column, stored in the
// model), then mapped by
//
//	z(x) = √(2/D)·cos(ε(γ⊙x) + b),   ε ~ N(0, 1) (d×D, fixed),   b ~ U[0, 2π) (fixed)
//
// (drawn from Seed), and the prediction is f(x) = ȳ + aᵀz(x).
// Fit alternates two steps on J(a, γ) = (1/2n)‖y − ȳ − Z(γ)a‖² + (λ/2)‖a‖²
// (the paper's Algorithm 1):
//
//   - a-step: ridge regression a = (ZᵀZ + nλI)⁻¹Zᵀ(y − ȳ) by Cholesky, on
//     centred targets without an intercept (the intercept is the training
//     mean ȳ, stored in the model). Centring y matters: the third-party port
//     that does not centre fits poorly.
//   - γ-step: a projected-gradient step (one iteration of FISTA, whose
//     first step it is) with backtracking on the Lipschitz constant L and
//     the sort-based Euclidean projection onto the scaled simplex
//     {γ ≥ 0, Σγ = s}, from the current γ, on (1/2n)‖y − ȳ − Z(γ)a‖² with a
//     fixed. The gradient ∂J/∂γ_k = (1/n) Σᵢ rᵢ √(2/D) Σ_j a_j sin(θ_ij)
//     ε_kj x_ik is analytic.
//
// Both steps decrease J, so J is monotone. The alternation stops by the
// rule of the authors' code (as ported in mpotto/pyselect, gregorova.py,
// the only public version): when the last four decreases of J (measured
// after each a-step) sum to less than Tol·|J| (Tol = 1e-5), or after
// MaxIterations = 1000 alternations. (The rule is relative to J, which
// stays well above 0 unless the features interpolate the data: with fewer
// rows than features and a tiny λ, J falls towards 0 geometrically and the
// fit runs to MaxIterations.) Capped at 20 alternations (rfkit's first
// defaults) J was still falling; the converged fits predicted as well or
// better (SE2, n = 1000, λ = 10⁻³, test RMSE 1.60 instead of 1.76 with
// seed 1, 1.676 instead of 1.680 with seed 0).
//
// The authors' code runs FISTA within each γ-step until its last four
// decreases sum to less than Tol·|objective| (so at least four iterations)
// or 100 iterations; GammaIterations = 100 does that. rfkit's default
// (GammaIterations = 1) is one step per a-step, with L carried from one
// γ-step to the next (it starts at half the last one; the first γ-step of
// a fit starts where the step moves the largest coordinate by s/d).
// FISTA's further iterations optimise γ against an a that the next a-step
// replaces, and cost a gradient evaluation each: on SE2 at
// n = 1000 (seed 1, the srff-se command) the search took 1250 alternations
// with 1238 gradient evaluations instead of 1180 with 7596, and 27.1
// instead of 69.7 CPU seconds; it chose the same λ and gave the same test
// RMSE (1.7136). SE1 at n = 1000: 0.2644 instead of 0.2654, 15.9 instead
// of 25.0 s. On BenchmarkFit's problem at n = 1000 the held-out RMSE went
// from 0.2900 to 0.2831.
// Two steps per a-step took less CPU still but on SE2 chose a λ whose
// refit predicted worse (1.867).
//
// With GammaIterations = 1 the alternation is accelerated: it is projected
// gradient descent on F(γ) = min_a J(a, γ) (the a-step makes the γ-step's
// gradient ∇F), and rfkit runs it as monotone FISTA with restarts, the
// a-step taken at the extrapolated point of the last two γ (see
// accelerated in accel.go). It reaches a lower J in far fewer
// alternations (SE3 at n = 1000, λ ≈ 2·10⁻³: 167 instead of 699; the fits
// of the smallest λ still run to MaxIterations) (bench/results/srff-speed.md).
// The features at the extrapolated point cost no affine pass (its phases
// are extrapolated from those of the last two iterates;
// bench/results/archive/2026-11-27-srff3.txt). GammaIterations > 1
// runs the plain alternation above.
//
// Choices the paper leaves open, and rfkit's answers:
//
//   - Simplex size s: d/σ by default, σ the median of the Euclidean distances
//     from each row to its 20 nearest neighbours (standardised inputs, among
//     at most 1000 rows drawn by the seed). This is the paper's kernel width
//     (its RFF baseline uses scale 1/σ per input, i.e. γ = 1/σ on the simplex
//     of size d/σ), it reproduces the γ magnitudes the paper reports,
//     and it is the only sensible scale for large d: s = d (γ = 1 per input,
//     the other reading of the paper, settable through Simplex) makes the initial
//     features almost white noise at d = 100. γ starts evenly on the simplex
//     (γ_k = s/d), as in Algorithm 1.
//   - λ: chosen on a validation split, as the paper does. Validation = 20 %
//     of the rows (drawn by the seed) are held out; for each of Lambdas = 26
//     values of a log grid from LambdaMax = 10⁻¹ down to LambdaMin = 10⁻⁶,
//     Algorithm 1 runs to convergence on the other rows, and the λ with the
//     smallest validation RMSE wins. The grid is walked from the largest λ
//     and the walk stops after 2 values in a row whose validation RMSE is
//     more than 5 % above the best: the small λ are the costly fits, and
//     past its minimum the validation RMSE rises. λ is per row (the system is
//     ZᵀZ + nλI with ZᵀZ/n of trace ≈ 1, so the grid does not depend on n;
//     the authors' code scales its grid by ‖XᵀX‖, which grows like n, to
//     the same effect). The paper searches "a 50-long data-dependent grid":
//     the code's grid is 10^−9.8 … 10^−0.2 in steps of 0.2 decades, and 26
//     values are that spacing over the five decades that matter here
//     (ZᵀZ/n has eigenvalues ≤ 1, so λ ≥ 10⁻¹ all but switches the features
//     off, and λ ≤ 10⁻⁶ is below every optimum seen on the SE sets).
//   - Every λ starts from the even γ, as Algorithm 1 does, not from the γ of
//     the previous λ: the problem is not convex, and a warm start carries
//     one λ's local optimum into the next (on SE2, from a large λ, where
//     a ≈ 0, a γ driven by noise inputs that the smaller λ never left).
//   - The paper keeps the model fitted on the training part; rfkit refits
//     on all n rows at the chosen λ, again from the even γ (a fresh run of
//     Algorithm 1: the γ of the training part is a local optimum of other
//     data, and on SE2 at n = 1000 it had lost one of the five relevant
//     inputs that the fresh run on all rows finds). The refit keeps the
//     penalty nλ‖a‖² of the chosen fit — the paper's form ZᵀZ + λI
//     (eq. 5), which for fixed D is the Gaussian prior on a and does not
//     depend on n — so its per-row λ is the grid value times n_train/n.
//     Setting Lambda skips the search (and this rescaling); a fitted
//     model's Config().Lambda is the λ of the final fit, and
//     Model.Search() lists the validation RMSE of every grid value.
//   - Standardised inputs, so γ and the importances are per standard
//     deviation of each input (for the SE sets, whose inputs are standard
//     normal, this changes nothing).
//   - Inputs that are constant on every row: when they are more
//     than half of the inputs (a sparse file naming a high input index),
//     the fit runs on the other inputs, the simplex (and its default size
//     d/σ) over those, and the constant inputs get γ = 0; otherwise they
//     stay in the simplex, as in the authors' code (see mostlyConstant).
//
// The learned γ is exposed by Model.Importance and Model.Ranked.
//
// Speed. Every matrix-shaped part runs through the register-blocked
// affine kernel of package asm (asm.AffineRows, the kernel of featmap's
// map), in blocks of 64 rows split across goroutines: the phases
// θ = b + x·W of the features (only the inputs with γ_k ≠ 0, gathered
// once, and kept gathered while the support only shrinks a little), the
// a-step's Gram matrix [Z | y]ᵀ·Z by chunks of 256 rows (x = the chunk's
// weighted features transposed, W = the chunk itself, so that the chunk's
// rows are the kernel's reduction; about the upper triangle only), and
// the γ gradient's product of the sines with the D×d matrix −(s·a)⊙εᵀ.
// The features z = s·cos θ and the phases are stored n×D with the γ they
// belong to: the γ-step's trial point, once accepted, is the next
// a-step's γ, so its features serve the trial's objective, the a-step's
// Gram matrix and, with sin θ of the stored phases, the gradient at the
// start of the next γ-step (one affine pass per trial point and none for
// the gradient's sines); the a-step's residuals serve that gradient too.
// The residuals are dot products with a over the stored features, two rows
// at a time. The Cholesky factorisation's rows are asm.DotStats products.
// One core, CPU time, BenchmarkFit (the full search and the refit), same λ
// and test RMSE as before: SE2 at n = 1000 (d = 100, D = 300) 17.1 → 9.7 s,
// SE2 at n = 10⁴ (D = 100) 99 → 55 s; then the accelerated alternation
// (fewer alternations, different models): SE2 at n = 1000 about 9.7 → 5.6 s
// with the same λ and test RMSE, bench/'s d = 20 problem at n = 10⁴
// 164 → 58 s (bench/results/srff-speed.md).
//
// Determinism: the result depends only on the data and the Config, not on
// GOMAXPROCS or the CPU: the random draws come from seeded PCG sources, the
// kernels of package asm give the same bits on every path, every product
// feeding a sum in this package is rounded explicitly (float64(a*b)) or an
// explicit FMA, sums over rows run in fixed blocks combined in order, and
// logarithms and exponentials go through internal/xmath and trig, so a
// model serialises to the same bytes on every machine (testdata/*.model,
// TestGolden).
package srff

import (
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/kit"
)

// methodName is the method's registry name and the "method" of its model files.
const methodName = "srff"

// simplexFactors are the simplex sizes the default fit compares, as
// factors of the default d/σ, the default first. The default d/σ is often
// far too large for the paper's data sets (on cpu_act, s = d/σ ≈ 13 gives
// a test RMSE of 4.7 through rfkit train, s/4 gives 2.4; see
// bench/results/srff-real.md).
var simplexFactors = []float64{1, 0.5, 0.25}

// Defaults of zero Config fields, and limits.
const (
	defaultFeatures        = 300
	defaultLambdas         = 26
	defaultLambdaMin       = 1e-6
	defaultLambdaMax       = 1e-1
	defaultValidation      = 0.2
	defaultMaxIterations   = 1000
	defaultGammaIterations = 1
	defaultTol             = 1e-5
	maxFeatures            = 1 << 14
	maxLambdas             = 200
	maxGammaIterations     = 100
	// neighbours is the number of nearest neighbours of the width σ.
	neighbours = 20
	// sigmaRows bounds the rows used to estimate σ.
	sigmaRows = 1000
	// minRows is the smallest training set Fit accepts.
	minRows = 10
)

// Config configures Fit. The zero value selects the documented defaults:
// D = 300 features, simplex size d/σ, λ chosen on a 20 % validation split
// over 26 log-spaced values in [1e-6, 1e-1], at most 1000 alternations of
// an a-step and one projected-gradient γ-step, tolerance 1e-5, seed 0. The task is always
// regression.
type Config struct {
	// Features is the number D of random features (0 → 300).
	Features int `help:"number of random features D (at most 16384)" default:"300"`
	// Simplex is the size s of the simplex {γ ≥ 0, Σγ = s} (0 → d/σ, σ the
	// median distance to the 20 nearest neighbours of standardised rows).
	Simplex float64 `help:"simplex size s = Σγ" default:"d/σ"`
	// Lambda, if not 0, is the ridge regularisation λ (system ZᵀZ + nλI)
	// and skips the validation search. A fitted model's Config holds the λ
	// of its final fit (after a search: the chosen grid value times
	// n_train/n, see the package documentation).
	Lambda float64 `help:"ridge λ (0: chosen on a validation split)" default:"chosen"`
	// Lambdas is the number of values of the log grid searched (0 → 26,
	// 0.2 decades apart as in the authors' code).
	Lambdas int `help:"size of the λ grid" default:"26"`
	// LambdaMin and LambdaMax are the ends of the grid (0 → 1e-6 and 1e-1).
	LambdaMin float64 `help:"smallest λ of the grid" default:"1e-6"`
	LambdaMax float64 `help:"largest λ of the grid" default:"1e-1"`
	// Validation is the fraction of rows held out to choose λ (0 → 0.2),
	// in (0, 0.9].
	Validation float64 `help:"fraction of rows held out to choose λ" default:"0.2"`
	// MaxIterations bounds the alternations of a-step and γ-step per fit
	// (0 → 1000, as in the authors' code).
	MaxIterations int `help:"maximum alternations of the a- and γ-steps" default:"1000"`
	// GammaIterations bounds the FISTA iterations of one γ-step (0 → 1;
	// at most 100; the authors' code uses 100, see the package
	// documentation).
	GammaIterations int `help:"maximum FISTA iterations per γ-step (≤ 100)" default:"1"`
	// Tol stops the alternation, and each γ-step of more than one
	// iteration, when the last four decreases of its objective sum to less
	// than Tol·|objective| (0 → 1e-5).
	Tol float64 `help:"relative tolerance of the stopping rule" default:"1e-5"`
	// Task must be learners.Regression or left zero (SRFF is regression
	// only; a zero Task means regression).
	Task learners.Task `help:"regression (the only task)"`
	// Seed fixes ε, b, the validation split and the rows used for σ: equal
	// seeds give identical models.
	Seed uint64 `help:"seed of the random features and the split"`
	// Search, on by default, lets the default fit choose the simplex size
	// among (1, 1/2, 1/4) times d/σ on the validation rows when Simplex
	// and Lambda are 0 (see FitWeighted); false fits s = d/σ.
	Search learners.Toggle `json:",omitempty" help:"choose the simplex size among (1, 1/2, 1/4)·d/σ on the validation rows when simplex and lambda are left at their defaults" default:"true"`
	// Progress, if not nil, is called after each fit of the λ path and
	// after the final fit.
	Progress learners.Progress `json:"-"`
	// Threads bounds the goroutines of the objective's and the ridge Gram
	// matrix's sums over the rows. 0 means GOMAXPROCS; the model is the
	// same bits for any value and does not store it (learners.Threads).
	Threads learners.Threads `json:"-"`
}

// Validate reports out-of-range fields; zero fields are valid (defaults).
func (c Config) Validate() error {
	v := kit.NewCheck("srff")
	v.Threads(c.Threads)
	v.Toggles("Search", c.Search)
	v.Count("Features", c.Features, maxFeatures, defaultFeatures)
	v.Positive("Simplex", c.Simplex, limit.Param, "d/σ")
	v.Positive("Lambda", c.Lambda, limit.Param, "chosen on a validation split")
	v.Count("Lambdas", c.Lambdas, maxLambdas, defaultLambdas)
	v.Positive("LambdaMin", c.LambdaMin, limit.Param, defaultLambdaMin)
	v.Positive("LambdaMax", c.LambdaMax, limit.Param, defaultLambdaMax)
	v.Positive("Validation", c.Validation, 0.9, defaultValidation)
	v.Count("MaxIterations", c.MaxIterations, limit.Count, defaultMaxIterations)
	v.Count("GammaIterations", c.GammaIterations, maxGammaIterations, defaultGammaIterations)
	v.Positive("Tol", c.Tol, limit.Param, defaultTol)
	v.If(c.Task != learners.Binary && c.Task != learners.Regression, "Task = %v, want regression", c.Task)
	if r := c.resolve(1); v.Err() == nil {
		v.If(r.LambdaMin > r.LambdaMax, "LambdaMin = %g is above LambdaMax = %g", r.LambdaMin, r.LambdaMax)
	}
	return v.Err()
}

// resolve returns c with the defaults filled in, except Simplex (which
// needs the data) and Lambda (chosen by Fit).
func (c Config) resolve(d int) Config {
	kit.SetDefault(&c.Features, defaultFeatures)
	kit.SetDefault(&c.Lambdas, defaultLambdas)
	kit.SetDefault(&c.LambdaMin, defaultLambdaMin)
	kit.SetDefault(&c.LambdaMax, defaultLambdaMax)
	kit.SetDefault(&c.Validation, defaultValidation)
	kit.SetDefault(&c.MaxIterations, defaultMaxIterations)
	kit.SetDefault(&c.GammaIterations, defaultGammaIterations)
	kit.SetDefault(&c.Tol, defaultTol)
	c.Task = learners.Regression
	c.Progress = nil
	return c
}
