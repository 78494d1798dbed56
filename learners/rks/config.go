// Package rks is Random Kitchen Sinks (Rahimi and Recht 2007, 2008), the
// random Fourier feature baseline: inputs are standardised, mapped by
//
//	z(x) = √(2/D)·cos(Wᵀx + b),   W_kj ~ N(0, 2γ),   b_j ~ U[0, 2π)
//
// (the Gaussian kernel exp(−γ‖x−x'‖²), featmap.NewRFF), and a linear model
// is fitted on z by L2-regularised logistic regression (classification,
// the default) or ridge regression (regression, or classification on ±1
// targets), both with an unpenalised intercept (package solvers).
//
// It is the smallest rfkit learner, and so the one to read first: a
// Config with documented zero-value defaults and Validate, a Fit on the
// shared prologue (kit.Prepare) with a context and a Progress
// callback, a Model that is kit.Base over the linear random-feature
// body the linear learners share, and one line in the conformance suite.
//
// Config.Map swaps the map for the orthogonal (ORF) or Laplacian random
// Fourier maps, or for Nyström features on landmarks drawn from the
// training rows (featmap.Nystrom), the baselines the papers compare with.
package rks

import (
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// methodName is the method's registry name and the "method" of its model files.
const methodName = "rks"

// Defaults of a zero Config field, and the largest accepted Features.
const (
	DefaultFeatures = 100
	DefaultLambda   = linrf.DefaultLambda
	maxFeatures     = 1 << 16
)

// Loss selects the linear model fitted on the random features (the type
// the linear learners share).
// The zero value is Logistic for Binary and Multiclass, Ridge for
// Regression; Multiclass takes only Logistic.
type Loss = linrf.Loss

// The losses.
const (
	// Logistic is L2-regularised logistic regression,
	// (1/n) Σ log(1 + exp(−y_i(w·z_i + c))) + (λ/2)‖w‖² (Binary only).
	Logistic = linrf.Logistic
	// Ridge is ridge regression, (1/n) Σ (y_i − w·z_i − c)² + λ‖w‖², on the
	// targets (Regression) or on the ±1 labels (Binary).
	Ridge = linrf.Ridge
)

// Config configures Fit. The zero value selects the documented defaults:
// binary classification by logistic regression on 100 features with
// γ = 1/d and λ = 1e-3, seed 0.
type Config struct {
	// Features is the number D of random features (0 → 100).
	Features int `help:"number of random features D (at most 65536)" default:"100"`
	// Gamma is the bandwidth γ of the Gaussian kernel exp(−γ‖x−x'‖²)
	// (exp(−γ‖x−x'‖₁) for the Laplacian map), measured on standardised
	// inputs (0 → 1/d).
	Gamma float64 `help:"kernel bandwidth γ on standardised inputs" default:"1/d"`
	// Lambda is the L2 regularisation λ of the linear model (0 → 1e-3; a
	// regression default fit with Search on compares 1e-3 and 0.1 on
	// held-out rows, FitWeighted).
	// There is no unregularised option: logistic regression on separable
	// features would diverge, and ridge can be singular; use a tiny λ.
	Lambda float64 `help:"L2 regularisation λ of the linear model" default:"1e-3"`
	// Loss is the linear read-out (see Loss; "" → its default for the task).
	Loss Loss
	// Task is learners.Binary (the zero value), learners.Multiclass
	// (multinomial logistic regression) or learners.Regression.
	Task learners.Task `help:"binary, multiclass or regression"`
	// Missing is the policy for NaN inputs: see learners.Missing.
	Missing learners.Missing `json:",omitempty"`
	// Map is the feature map: RFF (""), ORF, Laplacian, Nystrom or
	// NystromKMeans (Features landmarks among the training rows). The
	// resolved config stores RFF as "".
	Map Map `json:",omitempty" help:"feature map: rff, orf (orthogonal), laplacian, nystrom or nystrom-kmeans++ (Features landmarks from the training rows)" default:"rff"`
	// Seed fixes the random features: equal seeds give identical models.
	Seed uint64 `help:"seed of the random features"`
	// Calibrate, on by default for binary classification, fits the
	// probability calibration on held-out training rows
	// (kit.SearchFit; it costs a fit on half the rows); false keeps
	// the loss's own link (a hinge loss then has no Probability). It is
	// off by default for Multiclass, whose multinomial logistic
	// probabilities the temperature of a half fit made worse on the
	// panel's small multiclass sets (wine: log loss 0.04-0.11 to
	// 0.28-0.34). Regression ignores it.
	Calibrate learners.Toggle `json:",omitempty" help:"calibrate the probabilities on held-out training rows (costs a fit on half the rows)" default:"true for binary, false for multiclass"`
	// Search, on by default, lets the default fit compare settings of
	// the fields left at zero that the learner searches on held-out
	// training rows and keep the best (kit.SearchFit; the learner's
	// doc says which fields and what it costs); false fits the documented
	// defaults.
	Search learners.Toggle `json:",omitempty" help:"compare settings of the searched fields left at their defaults on held-out training rows and keep the best (false: the documented defaults)" default:"true"`
	// Progress, if not nil, is called after each of the two rounds
	// (features, solve).
	Progress learners.Progress `json:"-"`
	// Threads bounds the goroutines of the feature matrix; the map and the
	// solver run on one. 0 means GOMAXPROCS; the model is the same bits for
	// any value and does not store it (learners.Threads).
	Threads learners.Threads `json:"-"`
}

// Validate reports out-of-range fields; zero fields are valid (defaults).
func (c Config) Validate() error {
	v := kit.NewCheck("rks")
	v.Threads(c.Threads)
	v.Toggles("Calibrate, Search", c.Calibrate, c.Search)
	v.Count("Features", c.Features, maxFeatures, DefaultFeatures)
	v.Positive("Gamma", c.Gamma, limit.Param, "1/d")
	if err := linrf.CheckConfig(v, c.Lambda, c.Loss, c.Task, c.Missing); err != nil {
		return err
	}
	return checkMap(c.Map, c.Task)
}

// resolve returns c with the defaults filled in for d inputs.
func (c Config) resolve(d int) Config {
	kit.SetDefault(&c.Features, DefaultFeatures)
	kit.SetDefault(&c.Gamma, 1/float64(d))
	linrf.ResolveConfig(&c.Lambda, &c.Loss, c.Task)
	if c.Map == RFF {
		c.Map = ""
	}
	c.Progress, c.Threads = nil, 0
	return c
}
