// Package nogd is Nyström online gradient descent (Lu, Hoi, Wang, Zhao and
// Liu, "Large scale online kernel learning", JMLR 2016, Algorithm 4), the
// Nyström baseline of online kernel learning beside FOGD (package fogd):
//
//	l_1…l_B the first B rows of the stream,  K = (k(l_i, l_j)) = U Λ Uᵀ
//	z(x) = Λ^{−1/2} Uᵀ (k(x, l_i))_i                    (featmap.Nystrom)
//	f_t(x) = w_tᵀz(x),   w_{t+1} = w_t + η y_t z(x_t)   when y_t f_t(x_t) < 1
//
// with the Gaussian kernel k(x, x') = exp(−γ‖x−x'‖²). The model predicts
// with the weights averaged over every step, w̄ = (1/T) Σ_t w_t, as fogd's.
//
// Choices:
//   - Defaults: B = 100 landmarks, η = 0.2, γ = 1/d, one epoch, seed 0,
//     no bias and no regularisation, as fogd, so the two compare at equal
//     kernel, step and feature count (fogd's D = 100 frequencies give 200
//     features; NOGD's B = 100 landmarks give 100).
//   - Landmarks: the paper collects its B support vectors with a kernel
//     perceptron over the start of the stream and keeps a rank-k
//     eigendecomposition; here the landmarks are simply the first B rows of
//     the first epoch's visiting order (a uniform sample when Shuffle is
//     on) and every numerically non-zero eigenvalue is kept (k = B, see
//     featmap.Nystrom). Budget must not exceed the number of rows.
//   - Regression (as fogd): squared loss, w ← w − η(f − y)z with the
//     residual clipped to ±1e6, or ε-insensitive with ε = 0.1.
//   - Fit standardises with the training statistics (unless Standardize
//     is Disabled) and runs Epochs passes over seeded permutations (file
//     order if Shuffle is Disabled).
//   - Streaming (learner.go, as fogd): NewLearner's Update predicts and
//     steps one row at a time; its first B rows are the landmarks, so
//     until the B-th it predicts with score 0 and keeps the rows, then
//     builds the map and takes the B steps Fit takes on them. Snapshot,
//     Resume and Config.Resume continue exactly.
//   - Arithmetic is bit-identical on every architecture and SIMD path
//     (featmap.Nystrom's contract; fixed-order sums, every product rounded
//     on its own); testdata holds golden models.
package nogd

import (
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/ogd"
)

// methodName is the method's registry name and the "method" of its model files.
const methodName = "nogd"

// Defaults and limits.
const (
	defaultBudget = 100
	defaultEta    = ogd.DefaultEta
	defaultEpochs = ogd.DefaultEpochs
	// maxBudget is the Nyström map's bound (O(B³) to build and to load).
	maxBudget = limit.Landmarks
)

// Loss selects the update rule; the losses and their constants are
// fogd's (package internal/ogd): Hinge for classification, Squared and
// EpsInsensitive (half-width Epsilon) for regression, the squared-loss
// residual of a step clipped to ±MaxGrad.
type Loss = ogd.Loss

// The losses and their constants.
const (
	Hinge, Squared, EpsInsensitive = ogd.Hinge, ogd.Squared, ogd.EpsInsensitive
	Epsilon, MaxGrad               = ogd.Epsilon, ogd.MaxGrad
)

// Config configures Fit. The zero value selects binary classification with
// B = 100, η = 0.2, γ = 1/d, one epoch and seed 0.
type Config struct {
	// Budget is the number B of landmarks, the first B rows visited
	// (0 → 100, or the number of rows n if n < 100; an explicit Budget
	// above n is an error).
	Budget int `help:"number of Nyström landmarks B (at most the rows, at most 8192)" default:"100"`
	// Gamma is the bandwidth γ of exp(−γ‖x−x'‖²) on standardised inputs
	// (0 → 1/d).
	Gamma float64 `help:"Gaussian kernel bandwidth γ on standardised inputs" default:"1/d"`
	// Eta is the step size η (0 → 0.2).
	Eta float64 `help:"step size η" default:"0.2"`
	// Loss is Hinge (binary, the default) or Squared / EpsInsensitive
	// (regression; "" → Squared).
	Loss Loss `help:"hinge (binary), squared or eps (regression)"`
	// Task is learners.Binary (the zero value) or learners.Regression.
	Task learners.Task `help:"binary or regression"`
	// Epochs is the number of passes (0 → 1).
	Epochs int `help:"passes over the data" default:"1"`
	// Seed fixes the permutations, hence the landmarks.
	Seed uint64 `help:"seed of the visiting order (and so of the landmarks)"`
	// Shuffle is Fit's row order: see kit.OnlineBase.Epochs.
	Shuffle learners.Toggle `json:",omitempty" help:"visit the rows in a seeded random order each epoch (false: in file order)" default:"true"`
	// Labels are a Learner's two class labels (zero value → −1, +1).
	Labels learners.Labels `json:"-"`
	// Standardize is Fit's standardisation: see kit.OnlineBase.FitRows.
	Standardize learners.Toggle `json:",omitempty" help:"Fit: standardise the inputs with the training statistics (ignored when resuming)" default:"true"`
	// Resume, if not nil, makes Fit continue from this model's state
	// (landmarks, current, summed and averaged weights, step count, labels
	// and standardisation). The fields that define the model (Budget,
	// Gamma, Loss, Labels) are the model's: left zero or equal to it, else
	// an error; Task must be the model's. The learning settings (Eta,
	// Epochs, Seed, Shuffle) are cfg's, zero meaning the defaults. Not
	// stored in the model.
	Resume *Model `json:"-"`
	// Calibrate, on by default, fits a classifier's probability
	// calibration on held-out training rows (kit.SearchFit; it
	// costs a fit of twice the epochs on half the rows, as many steps as
	// the fit itself: see Fit); false keeps the loss's own link (hinge
	// losses then have no Probability). Regression ignores it.
	Calibrate learners.Toggle `json:",omitempty" help:"calibrate the probabilities on held-out training rows (costs twice the epochs on half the rows)" default:"true"`
	// Search, on by default, lets the default fit compare settings of
	// the fields left at zero that the learner searches on held-out
	// training rows and keep the best (kit.SearchFit; the learner's
	// doc says which fields and what it costs); false fits the documented
	// defaults.
	Search learners.Toggle `json:",omitempty" help:"compare settings of the searched fields left at their defaults on held-out training rows and keep the best (false: the documented defaults)" default:"true"`
	// Progress, if not nil, is called after each epoch with the mean loss
	// of its online steps.
	Progress learners.Progress `json:"-"`
}

// Validate reports out-of-range fields; zero fields are valid (defaults).
func (c Config) Validate() error {
	v := kit.NewCheck("nogd")
	v.Toggles("Calibrate, Search", c.Calibrate, c.Search)
	v.Count("Budget", c.Budget, maxBudget, defaultBudget)
	v.Task(c.Task)
	ogd.CheckConfig(v, c.Gamma, c.Eta, c.Epochs, c.Loss, c.Task, c.Shuffle, c.Standardize)
	return v.Err()
}

// resolve fills in the defaults for d inputs.
func (c Config) resolve(d int) Config {
	kit.SetDefault(&c.Budget, defaultBudget)
	ogd.ResolveConfig(d, &c.Gamma, &c.Eta, &c.Epochs, &c.Loss, &c.Labels, c.Task)
	c.Progress, c.Resume = nil, nil
	return c
}
