package mfga

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
)

// methodName is the method's registry name and the "method" of its model files.
const methodName = "mfga"

// Defaults of a zero Config field, and the largest accepted values.
const (
	defaultFeatures  = 100
	defaultSteps     = 10 // greedy steps when PerStep is 0
	defaultLambda    = 1e-4
	defaultTol       = 1e-6
	defaultNeighbour = 50 // the k of the σ rule of thumb
	maxFeatures      = 1 << 14
	// maxCandidates bounds the dictionary size M₀ (degree 2 grows as d²/2).
	maxCandidates = 1 << 22
)

// Config configures Fit. The zero value selects the documented defaults:
// binary classification with the logistic loss, 100 features chosen in ten
// greedy steps from the degree-1 or degree-2 dictionary, whichever does
// better on held-out rows (degree 2 for regression), σ by the
// 50th-neighbour rule times the best of 1, ½ and 2, λ = 1e-4, Tol = 1e-6,
// seed 0.
type Config struct {
	// Features is the maximum number M of selected features (0 → 100).
	Features int `help:"maximum number of selected features M" default:"100"`
	// PerStep is the number of features added per greedy step (0 →
	// ⌈Features/10⌉: ten steps, generalised OMP as in the paper's
	// experiments, which run K steps of M/K features; 1 is orthogonal
	// matching pursuit, Algorithm 1, about 6× slower on adult at M = 100
	// for the same test error).
	PerStep int `help:"features added per greedy step (1: OMP)" default:"Features/10, rounded up"`
	// Degree is the Taylor degree p of the dictionary, 1 or 2 (0 → 1 for
	// Binary and Multiclass, 2 for Regression; with Search on, the default
	// fit of a classifier compares 1 and 2 on held-out rows and keeps the
	// better: degree 2 won on the panel's splice, sonar and balance, 1 on
	// german, heart and iono).
	Degree int `help:"Taylor degree of the candidate dictionary (1 or 2)" default:"1 (binary), 2 (regression)"`
	// Sigma is the Gaussian kernel width σ of exp(−‖x−x'‖²/2σ²) on
	// standardised inputs (0 → the mean distance to the 50th nearest
	// neighbour, see the package doc).
	Sigma float64 `help:"Gaussian kernel width σ on standardised inputs" default:"50th-neighbour rule"`
	// Lambda is the L2 regularisation λ of the normalised weights (0 → 1e-4).
	Lambda float64 `help:"L2 regularisation λ" default:"1e-4"`
	// Tol stops the greedy loop when a step decreases the regularised
	// risk by no more than Tol relative to it (0 → 1e-6; negative: never,
	// always select Features).
	Tol float64 `help:"relative risk decrease below which the greedy loop stops (negative: never)" default:"1e-6"`
	// Task is learners.Binary (the zero value; logistic loss),
	// learners.Multiclass (multinomial logistic loss on one shared
	// dictionary, see multiclass.go) or learners.Regression (squared loss).
	// It is never inferred from y.
	Task learners.Task `help:"binary, multiclass or regression"`
	// Missing is the policy for NaN inputs: see learners.Missing.
	Missing learners.Missing `json:",omitempty"`
	// Seed chooses the rows of the σ rule's subsample; it has no other
	// effect (the greedy selection is deterministic).
	Seed uint64 `help:"seed of the σ rule's subsample"`
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
	// sigmaFactor multiplies the rule's σ (0: 1); set by the search only, and
	// cleared once the rule has been applied.
	sigmaFactor float64
	// Progress, if not nil, is called after each greedy step with the
	// regularised training risk; Rounds is the number of steps needed to
	// reach Features (the loop may stop earlier).
	Progress learners.Progress `json:"-"`
	// Threads bounds the goroutines of the σ rule and of the sums over the
	// rows of each greedy step. 0 means GOMAXPROCS; the model is the same
	// bits for any value and does not store it (learners.Threads).
	Threads learners.Threads `json:"-"`
}

// Validate reports out-of-range fields; zero fields are valid (defaults).
func (c Config) Validate() error {
	v := kit.NewCheck("mfga")
	v.Threads(c.Threads)
	v.Toggles("Calibrate, Search", c.Calibrate, c.Search)
	v.Count("Features", c.Features, maxFeatures, defaultFeatures)
	v.Count("PerStep", c.PerStep, maxFeatures, fmt.Sprintf("Features/%d", defaultSteps))
	v.Count("Degree", c.Degree, 2, "of the task")
	v.Positive("Sigma", c.Sigma, limit.Param, "of the 50th-neighbour rule")
	v.Positive("Lambda", c.Lambda, limit.Param, defaultLambda)
	v.Range("Tol", c.Tol, -limit.Param, limit.Param)
	v.TaskIn(c.Task, learners.Binary, learners.Multiclass, learners.Regression)
	v.Missing(c.Missing)
	return v.Err()
}

// resolve returns c with the defaults filled in, except Sigma (which
// needs the data).
func (c Config) resolve() Config {
	kit.SetDefault(&c.Features, defaultFeatures)
	kit.SetDefault(&c.PerStep, (c.Features+defaultSteps-1)/defaultSteps)
	if c.Degree == 0 {
		c.Degree = 1
		if c.Task == learners.Regression {
			c.Degree = 2
		}
	}
	kit.SetDefault(&c.Lambda, defaultLambda)
	kit.SetDefault(&c.Tol, defaultTol)
	c.Progress = nil
	return c
}

// candidates is M₀ for d inputs and degree p, or −1 if it exceeds
// maxCandidates.
func candidates(d, degree int) int {
	if d > maxCandidates {
		return -1
	}
	m := 2*d + 1
	if degree == 2 {
		if d > 4096 {
			return -1
		}
		m += d * (d + 1) / 2
	}
	if m > maxCandidates {
		return -1
	}
	return m
}
