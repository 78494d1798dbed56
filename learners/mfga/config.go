package mfga

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/learners"
)

// Name is the method's registry name and the "method" of its model files.
const Name = "mfga"

// Defaults of a zero Config field, and the largest accepted values.
const (
	DefaultFeatures  = 100
	DefaultSteps     = 10 // greedy steps when PerStep is 0
	DefaultLambda    = 1e-4
	DefaultTol       = 1e-6
	DefaultNeighbour = 50 // the k of the σ rule of thumb
	MaxFeatures      = 1 << 14
	// MaxCandidates bounds the dictionary size M₀ (degree 2 grows as d²/2).
	MaxCandidates = 1 << 22
)

// Config configures Fit. The zero value selects the documented defaults:
// binary classification with the logistic loss, 100 features chosen in ten
// greedy steps from the degree-1 dictionary (degree 2 for regression), σ by
// the 50th-neighbour rule, λ = 1e-4, Tol = 1e-6, seed 0.
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
	// Binary, 2 for Regression).
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
	// Task is learners.Binary (the zero value; logistic loss) or
	// learners.Regression (squared loss). It is never inferred from y.
	Task learners.Task `help:"binary or regression"`
	// Seed chooses the rows of the σ rule's subsample; it has no other
	// effect (the greedy selection is deterministic).
	Seed uint64 `help:"seed of the σ rule's subsample"`
	// Progress, if not nil, is called after each greedy step with the
	// regularised training risk; Rounds is the number of steps needed to
	// reach Features (the loop may stop earlier).
	Progress learners.Progress `json:"-"`
}

// Validate reports out-of-range fields; zero fields are valid (defaults).
func (c Config) Validate() error {
	switch {
	case c.Features < 0 || c.Features > MaxFeatures:
		return fmt.Errorf("mfga: Features = %d, want 1..%d (0 for the default %d)", c.Features, MaxFeatures, DefaultFeatures)
	case c.PerStep < 0 || c.PerStep > MaxFeatures:
		return fmt.Errorf("mfga: PerStep = %d, want 1..%d (0 for Features/%d)", c.PerStep, MaxFeatures, DefaultSteps)
	case c.Degree < 0 || c.Degree > 2:
		return fmt.Errorf("mfga: Degree = %d, want 1 or 2 (0 for the task's default)", c.Degree)
	case !(c.Sigma >= 0) || math.IsInf(c.Sigma, 0):
		return fmt.Errorf("mfga: Sigma = %v, want a finite σ > 0 (0 for the 50th-neighbour rule)", c.Sigma)
	case !(c.Lambda >= 0) || math.IsInf(c.Lambda, 0):
		return fmt.Errorf("mfga: Lambda = %v, want a finite λ > 0 (0 for the default %g)", c.Lambda, DefaultLambda)
	case math.IsNaN(c.Tol) || math.IsInf(c.Tol, 0):
		return fmt.Errorf("mfga: Tol = %v, want a finite value (0 for the default %g, negative to never stop early)", c.Tol, DefaultTol)
	case !c.Task.Valid():
		return fmt.Errorf("mfga: Task = %v, want binary or regression", c.Task)
	}
	return nil
}

// resolve returns c with the defaults filled in, except Sigma (which
// needs the data).
func (c Config) resolve() Config {
	if c.Features == 0 {
		c.Features = DefaultFeatures
	}
	if c.PerStep == 0 {
		c.PerStep = (c.Features + DefaultSteps - 1) / DefaultSteps
	}
	if c.Degree == 0 {
		c.Degree = 1
		if c.Task == learners.Regression {
			c.Degree = 2
		}
	}
	if c.Lambda == 0 {
		c.Lambda = DefaultLambda
	}
	if c.Tol == 0 {
		c.Tol = DefaultTol
	}
	c.Progress = nil
	return c
}

// candidates is M₀ for d inputs and degree p, or −1 if it exceeds
// MaxCandidates.
func candidates(d, degree int) int {
	if d > MaxCandidates {
		return -1
	}
	m := 2*d + 1
	if degree == 2 {
		if d > 4096 {
			return -1
		}
		m += d * (d + 1) / 2
	}
	if m > MaxCandidates {
		return -1
	}
	return m
}
