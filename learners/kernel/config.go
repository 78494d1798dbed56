// Package kernel is the exact-kernel baseline the random-feature papers
// compare with (PRFF's and SRFF's "GK", MFGA's exact kernel): kernel ridge
// regression with the Gaussian kernel k(x, x') = exp(−γ‖x−x'‖²) on a
// uniform subsample of at most Subsample rows (default 2000) of the
// standardised training data,
//
//	α = (K + m·λ·I)⁻¹ (t − t̄),   f(x) = Σ_i α_i k(x, x_i) + t̄,
//
// which minimises (1/m) Σ_i (t_i − f(x_i))² + λ‖f − t̄‖²_H over the m
// subsample rows (the same objective as rks's ridge on the kernel's
// features). t are the targets (Regression) or the ±1 labels (Binary: a
// least-squares classifier; Probability is (1 + score)/2 clamped to
// [0, 1]).
//
// Loss = Logistic (binary only) fits kernel logistic regression instead,
// (1/m) Σ_i log(1 + e^{−t_i f(x_i)}) + (λ/2)‖f − c‖²_H with an
// unpenalised intercept c: with K + εI = L·Lᵀ (ε = 1e-8, a jitter for
// the numerically singular K) and f = Σ_i α_i k(·, x_i), β = Lᵀα turns it
// into L2-regularised linear logistic regression on the rows of L
// (solvers.Logistic, L-BFGS), and α = L⁻ᵀβ. Probability is then the
// logistic function of the score.
//
// Loss = Hinge (binary only) fits the kernel support vector machine, the
// papers' SVC: libsvm's C-SVC, ½‖f‖²_H + C Σ_i max(0, 1 − t_i(f(x_i) + c))
// over the subsample, by SMO with libsvm's working-set rule and stopping
// tolerance 1e-3 (svm.go). C is Config.C (default 1, libsvm's); Lambda is
// not used. Probability is (1 + score)/2 clamped to [0, 1], as for ridge
// on ±1 labels: the decision value is ±1 on the margins, so this is a
// monotone score, not a calibrated probability (no Platt scaling).
//
// The subsample size is the point of the baseline: it is what makes the
// exact kernel feasible (memory m² floats, an m³/3 Cholesky: 32 MB and a
// few seconds at m = 2000, 800 MB at the limit m = 10000), and the papers'
// "exact" numbers on large sets are subsample numbers too. The model keeps
// the m rows and scores in O(m·d). Every sum runs in a fixed order with
// products rounded on their own and the exponentials are trig.Exp, so
// models are bit-identical on every path and architecture.
package kernel

import (
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// Loss selects the model fitted on the kernel (the type the linear
// learners share).
type Loss = linrf.Loss

// The losses.
const (
	// Ridge is kernel ridge regression, on the targets or the ±1 labels
	// (the default for both tasks).
	Ridge = linrf.Ridge
	// Logistic is kernel logistic regression (Binary only).
	Logistic = linrf.Logistic
)

// jitter is ε of the logistic loss's factorisation K + εI = L·Lᵀ.
const jitter = 1e-8

// methodName is the method's registry name and the "method" of its model files.
const methodName = "kernel"

// Defaults of a zero Config field, and the largest accepted Subsample.
const (
	defaultSubsample = 2000
	defaultLambda    = 1e-3
	MaxSubsample     = 10000
)

// Config configures Fit. The zero value selects binary classification by
// kernel ridge on at most 2000 rows with γ = 1/d and λ = 1e-3, seed 0.
type Config struct {
	// Subsample is the largest number m of training rows the model is
	// fitted on (0 → 2000); all the rows when there are fewer.
	Subsample int `help:"largest number of training rows used (uniform subsample; at most 10000)" default:"2000"`
	// Gamma is the bandwidth γ of exp(−γ‖x−x'‖²) on standardised inputs
	// (0 → 1/d).
	Gamma float64 `help:"Gaussian kernel bandwidth γ on standardised inputs" default:"1/d"`
	// Lambda is the ridge regularisation λ (0 → 1e-3).
	Lambda float64 `help:"ridge regularisation λ" default:"1e-3"`
	// Loss is Ridge ("", the default), Logistic or Hinge (binary only).
	Loss Loss `help:"ridge, logistic or hinge (the last two binary only)" default:"ridge"`
	// C is the SVM box constraint (Loss = Hinge only; 0 → 1).
	C float64 `json:",omitempty" help:"SVM box constraint C (loss=hinge only)" default:"1"`
	// Task is learners.Binary (the zero value) or learners.Regression.
	Task learners.Task `help:"binary or regression"`
	// Seed fixes the subsample.
	Seed uint64 `help:"seed of the subsample"`
	// Threads bounds the goroutines of the Cholesky factorisation
	// (learners.Threads: 0 = GOMAXPROCS; the model is the same bits for
	// any value and does not store it); the kernel matrix, the solves,
	// the logistic fit and SMO run on one goroutine.
	Threads learners.Threads `json:"-"`
	// Calibrate, on by default, fits a classifier's probability
	// calibration on held-out training rows (kit.SearchFit; it
	// costs a fit on half the rows); false keeps the loss's own link
	// (hinge losses then have no Probability). Regression ignores it.
	Calibrate learners.Toggle `json:",omitempty" help:"calibrate the probabilities on held-out training rows (costs a fit on half the rows)" default:"true"`
	// Search, on by default, lets the default fit compare settings of
	// the fields left at zero that the learner searches on held-out
	// training rows and keep the best (kit.SearchFit; the learner's
	// doc says which fields and what it costs); false fits the documented
	// defaults.
	Search learners.Toggle `json:",omitempty" help:"compare settings of the searched fields left at their defaults on held-out training rows and keep the best (false: the documented defaults)" default:"true"`
	// Progress, if not nil, is called after each of the two rounds
	// (kernel matrix, solve).
	Progress learners.Progress `json:"-"`
}

// Validate reports out-of-range fields; zero fields are valid (defaults).
func (c Config) Validate() error {
	v := kit.NewCheck("kernel")
	v.Toggles("Calibrate, Search", c.Calibrate, c.Search)
	v.Count("Subsample", c.Subsample, MaxSubsample, defaultSubsample)
	v.Positive("Gamma", c.Gamma, limit.Param, "1/d")
	v.Positive("Lambda", c.Lambda, limit.Param, defaultLambda)
	v.Task(c.Task)
	v.Threads(c.Threads)
	v.Positive("C", c.C, limit.Param, defaultC)
	if c.Loss == Hinge {
		v.If(c.Task != learners.Binary, "Loss = hinge needs the binary task, not %v", c.Task)
		return v.Err()
	}
	v.If(c.C != 0, "C = %v applies to Loss = hinge only", c.C)
	linrf.CheckLoss(v, c.Loss, c.Task)
	return v.Err()
}

// resolve returns c with the defaults filled in for n rows of d inputs:
// Subsample becomes the number of rows actually used.
func (c Config) resolve(n, d int) Config {
	kit.SetDefault(&c.Subsample, defaultSubsample)
	c.Subsample = min(c.Subsample, n)
	kit.SetDefault(&c.Gamma, 1/float64(d))
	kit.SetDefault(&c.Lambda, defaultLambda)
	kit.SetDefault(&c.Loss, Ridge)
	if c.Loss == Hinge {
		kit.SetDefault(&c.C, defaultC)
	}
	c.Progress, c.Threads = nil, 0
	return c
}
