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
// (featmap.Scaled), and the prediction is f(x) = ȳ + aᵀz(x). Fit
// alternates two steps on J(a, γ) = (1/2n)‖y − ȳ − Z(γ)a‖² + (λ/2)‖a‖²:
//
//   - a-step: ridge regression a = (ZᵀZ + nλI)⁻¹Zᵀ(y − ȳ) by Cholesky
//     (solvers.NewRidgeSolver without intercept, on centred targets; the
//     intercept is the training mean ȳ, stored in the model). Centring y
//     matters: the third-party port that does not centre fits poorly.
//   - γ-step: monotone FISTA with backtracking and the sort-based Euclidean
//     projection onto the scaled simplex {γ ≥ 0, Σγ = s}
//     (solvers.FISTASimplex, at most GammaIterations ≤ 100 iterations,
//     starting from the current γ) on (1/2n)‖y − ȳ − Z(γ)a‖²
//     with a fixed. The gradient ∂J/∂γ_k = (1/n) Σᵢ rᵢ √(2/D) Σ_j a_j
//     sin(θ_ij) ε_kj x_ik is analytic, through the fused kernels of
//     featmap.Scaled.ScaleGradient (u = −r/n, v = a).
//
// Both steps decrease J, so J is monotone. Fit stops when the last four
// decreases of J (measured after each a-step) sum to less than Tol·|J|
// (Tol = 1e-5, methods.md §4) or after MaxIterations alternations; a final
// a-step on the last γ gives the model.
//
// Choices the paper leaves open, and rfkit's answers:
//
//   - Simplex size s: d/σ by default, σ the median of the Euclidean distances
//     from each row to its 20 nearest neighbours (standardised inputs, among
//     at most 1000 rows drawn by the seed). This is the paper's kernel width
//     (its RFF baseline uses scale 1/σ per input, i.e. γ = 1/σ on the simplex
//     of size d/σ), it reproduces the paper's γ magnitudes (methods.md §4),
//     and it is the only sensible scale for large d: s = d (γ = 1 per input,
//     methods.md's alternative, settable through Simplex) makes the initial
//     features almost white noise at d = 100. γ starts evenly on the simplex
//     (γ_k = s/d), as in the paper's Algorithm 1.
//   - λ: chosen on a validation split (Validation = 20 % of the rows, drawn
//     by the seed) over a log grid of Lambdas = 8 values from LambdaMax =
//     1e-1 down to LambdaMin = 1e-6 (λ is per row: the system is ZᵀZ + nλI
//     with ZᵀZ/n of trace ≈ 1, so the grid does not depend on n). The paper
//     searches a "50-long data-dependent grid"; 8 values keep SE2 at n =
//     10000 affordable, and Lambdas = 50 reproduces the paper's search. Each
//     λ starts from the even γ (warm starts along the grid, largest λ first,
//     carried the noise-driven γ of a large λ, where a ≈ 0, into the small
//     ones and lost the relevant inputs); the model is then refitted on all
//     rows at the chosen λ, starting from the γ found on the training part.
//     Setting Lambda skips the search.
//   - Standardised inputs, so γ and the importances are per standard
//     deviation of each input (for the SE sets, whose inputs are standard
//     normal, this changes nothing).
//
// The learned γ is exposed by Model.Importance and Model.Ranked.
//
// Determinism: the result depends only on the data and the Config, not on
// GOMAXPROCS or the CPU: the random draws come from seeded PCG sources, the
// feature maps and gradients are bit-identical on every path, every product
// feeding a sum in this package is rounded explicitly (float64(a*b)) or an
// explicit FMA, and logarithms and exponentials go through internal/xmath
// and trig, so a model serialises to the same bytes on every machine.
package srff

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/learners"
)

// Name is the method's registry name and the "method" of its model files.
const Name = "srff"

// Defaults of zero Config fields, and limits.
const (
	DefaultFeatures        = 300
	DefaultLambdas         = 8
	DefaultLambdaMin       = 1e-6
	DefaultLambdaMax       = 1e-1
	DefaultValidation      = 0.2
	DefaultMaxIterations   = 20
	DefaultGammaIterations = 10
	DefaultTol             = 1e-5
	MaxFeatures            = 1 << 14
	MaxLambdas             = 200
	MaxGammaIterations     = 100
	// Neighbours is the number of nearest neighbours of the width σ.
	Neighbours = 20
	// SigmaRows bounds the rows used to estimate σ.
	SigmaRows = 1000
	// MinRows is the smallest training set Fit accepts.
	MinRows = 10
)

// Config configures Fit. The zero value selects the documented defaults:
// D = 300 features, simplex size d/σ, λ chosen on a 20 % validation split
// over 8 log-spaced values in [1e-6, 1e-1], at most 20 alternations of at
// most 10 FISTA iterations, tolerance 1e-5, seed 0. The task is always
// regression.
type Config struct {
	// Features is the number D of random features (0 → 300).
	Features int `help:"number of random features D (at most 16384)" default:"300"`
	// Simplex is the size s of the simplex {γ ≥ 0, Σγ = s} (0 → d/σ, σ the
	// median distance to the 20 nearest neighbours of standardised rows).
	Simplex float64 `help:"simplex size s = Σγ" default:"d/σ"`
	// Lambda, if not 0, is the ridge regularisation λ (system ZᵀZ + nλI)
	// and skips the validation search. A fitted model's Config holds the λ
	// chosen.
	Lambda float64 `help:"ridge λ (0: chosen on a validation split)" default:"chosen"`
	// Lambdas is the number of values of the log grid searched (0 → 8).
	Lambdas int `help:"size of the λ grid" default:"8"`
	// LambdaMin and LambdaMax are the ends of the grid (0 → 1e-6 and 1e-1).
	LambdaMin float64 `help:"smallest λ of the grid" default:"1e-6"`
	LambdaMax float64 `help:"largest λ of the grid" default:"1e-1"`
	// Validation is the fraction of rows held out to choose λ (0 → 0.2),
	// in (0, 0.9].
	Validation float64 `help:"fraction of rows held out to choose λ" default:"0.2"`
	// MaxIterations bounds the alternations of a-step and γ-step per fit
	// (0 → 20).
	MaxIterations int `help:"maximum alternations of the a- and γ-steps" default:"30"`
	// GammaIterations bounds the FISTA iterations of one γ-step (0 → 10,
	// at most 100).
	GammaIterations int `help:"maximum FISTA iterations per γ-step (≤ 100)" default:"100"`
	// Tol stops the alternation when the last four decreases of the
	// objective sum to less than Tol·|J| (0 → 1e-5).
	Tol float64 `help:"relative tolerance of the stopping rule" default:"1e-5"`
	// Task must be learners.Regression or left zero (SRFF is regression
	// only; a zero Task means regression).
	Task learners.Task `help:"regression (the only task)"`
	// Seed fixes ε, b, the validation split and the rows used for σ: equal
	// seeds give identical models.
	Seed uint64 `help:"seed of the random features and the split"`
	// Progress, if not nil, is called after each fit of the λ path and
	// after the final fit.
	Progress learners.Progress `json:"-"`
}

// Validate reports out-of-range fields; zero fields are valid (defaults).
func (c Config) Validate() error {
	finite := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }
	switch {
	case c.Features < 0 || c.Features > MaxFeatures:
		return fmt.Errorf("srff: Features = %d, want 1..%d (0 for the default %d)", c.Features, MaxFeatures, DefaultFeatures)
	case !finite(c.Simplex):
		return fmt.Errorf("srff: Simplex = %v, want a finite s > 0 (0 for the default d/σ)", c.Simplex)
	case !finite(c.Lambda):
		return fmt.Errorf("srff: Lambda = %v, want a finite λ > 0 (0 to choose it on a validation split)", c.Lambda)
	case c.Lambdas < 0 || c.Lambdas > MaxLambdas:
		return fmt.Errorf("srff: Lambdas = %d, want 1..%d (0 for the default %d)", c.Lambdas, MaxLambdas, DefaultLambdas)
	case !finite(c.LambdaMin):
		return fmt.Errorf("srff: LambdaMin = %v, want a finite λ > 0 (0 for the default %g)", c.LambdaMin, DefaultLambdaMin)
	case !finite(c.LambdaMax):
		return fmt.Errorf("srff: LambdaMax = %v, want a finite λ > 0 (0 for the default %g)", c.LambdaMax, DefaultLambdaMax)
	case !(c.Validation >= 0 && c.Validation <= 0.9):
		return fmt.Errorf("srff: Validation = %v, want a fraction in (0, 0.9] (0 for the default %g)", c.Validation, DefaultValidation)
	case c.MaxIterations < 0:
		return fmt.Errorf("srff: MaxIterations = %d, want ≥ 1 (0 for the default %d)", c.MaxIterations, DefaultMaxIterations)
	case c.GammaIterations < 0 || c.GammaIterations > MaxGammaIterations:
		return fmt.Errorf("srff: GammaIterations = %d, want 1..%d (0 for the default %d)", c.GammaIterations, MaxGammaIterations, DefaultGammaIterations)
	case !finite(c.Tol):
		return fmt.Errorf("srff: Tol = %v, want a finite tolerance > 0 (0 for the default %g)", c.Tol, DefaultTol)
	case c.Task != learners.Binary && c.Task != learners.Regression:
		return fmt.Errorf("srff: Task = %v, want regression", c.Task)
	}
	r := c.resolve(1)
	if r.LambdaMin > r.LambdaMax {
		return fmt.Errorf("srff: LambdaMin = %g is above LambdaMax = %g", r.LambdaMin, r.LambdaMax)
	}
	return nil
}

// resolve returns c with the defaults filled in, except Simplex (which
// needs the data) and Lambda (chosen by Fit).
func (c Config) resolve(d int) Config {
	if c.Features == 0 {
		c.Features = DefaultFeatures
	}
	if c.Lambdas == 0 {
		c.Lambdas = DefaultLambdas
	}
	if c.LambdaMin == 0 {
		c.LambdaMin = DefaultLambdaMin
	}
	if c.LambdaMax == 0 {
		c.LambdaMax = DefaultLambdaMax
	}
	if c.Validation == 0 {
		c.Validation = DefaultValidation
	}
	if c.MaxIterations == 0 {
		c.MaxIterations = DefaultMaxIterations
	}
	if c.GammaIterations == 0 {
		c.GammaIterations = DefaultGammaIterations
	}
	if c.Tol == 0 {
		c.Tol = DefaultTol
	}
	c.Task = learners.Regression
	c.Progress = nil
	return c
}
