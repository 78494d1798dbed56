// Package learners holds what every rfkit learner shares: the Model
// interface the CLI and cross-validation use, the Task, progress Events,
// the two-class label mapping, the registry of methods, the reflection
// helpers that set Config fields from "key=value" strings, and the learner
// core:
//
//   - Base, the one model implementation (input checks, standardisation,
//     label decoding, Predict, Score, Probability and their batch forms,
//     the model file, WriteTo/ReadFrom), in the spirit of dmitryikh/leaves'
//     single ensemble type: a learner supplies only a Body, its scoring of
//     one standardised row and the encoding of its parameters (Encoder,
//     Decoder);
//   - Prepare, the prologue every Fit shares (context, Validate, CheckData,
//     BinaryLabels, Standardize), usable outside the learners too;
//   - Define, which registers a learner from its typed Fit and Load;
//   - the sentinels ErrCorrupt and ErrShape, which errors.Is finds in
//     every error of a model file or batch of the wrong shape;
//   - Threads, the thread limit every batch learner's Config has;
//   - PermutationImportance, the importance of the inputs of any Model
//     on labelled rows.
//
// Each learner lives in its own package and follows the same pattern:
//
//	type Config struct{ ... }                  // zero value = documented defaults
//	func (c Config) Validate() error
//	type Model struct{ learners.Base[body, *body] }
//	func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error)
//	func Load(data []byte) (*Model, error)     // learners.Unmarshal[Model]
//	func init() { learners.Define(Name, doc, tasks, newConfig, Fit, Load) }
//
// and one line in the conformance suite (package learnertest). Every
// *Model is immutable after Fit and safe for concurrent use, and its
// Predict and batch forms allocate nothing. Importing a learner package
// (for its side effect, if need be) registers it.
//
// Tasks: Binary, Regression and Multiclass (three or more classes, any
// finite labels, at most MaxClasses; ClassLabels). Each learner declares
// the tasks it fits when it registers (Method.Tasks, Supports, MethodsFor):
// every learner but srff (regression only) does Binary; all but pbrff do
// Regression; all but kernel, nogd and srff do Multiclass
// (TestTasksAgreeWithValidate holds these to each Config's
// Validate). rks, eerf/lkrf, prff and mfga fit multinomial logistic
// regression (solvers.Multinomial) for it, fogd and rrf one weight row per
// class with the Crammer–Singer hinge (rrf also the logistic loss), gbrff
// one boosted score per class and pbrff a multinomial logistic regression
// on its landmark features.
// Every classifier's model is a ClassModel (Classes, Probabilities).
//
// Probabilities: every classifier but gbrff (which has its own
// cross-validated temperature) has the Config Toggle Calibrate, on by
// default for binary classification and, for rrf and fogd (hinge
// losses), for Multiclass too (the multinomial logistic models of the
// others are left as they are): its Fit fits the same configuration again
// on a stratified half of the rows and fits a temperature (σ(a·score), or
// softmax(a·scores) for a multiclass model) on the other half's scores
// (SearchFit; about 1.5× the cost of the fit), stored in the model file
// (CalibratedVersion) and used by Probability and Probabilities. The same held-out half gives
// FitStats: the held-out accuracy against the class prior. An online
// learner's stream (Learner, Snapshot) and a Fit with Resume are not
// calibrated.
//
// Missing values: a NaN input is a missing value. Every model's unchecked
// Predict, Score and Probability replace it by the training mean of that
// input (0 after the standardisation), so Predict never returns a NaN
// label; the checked paths (PredictChecked, the batch forms,
// Probabilities) return a *RowError wrapping ErrNotFinite, unless the
// model was fitted with the Config field Missing = MissingImpute (rks,
// eerf/lkrf, prff, mfga), which also trains on rows with missing inputs
// (statistics over the values present). See Missing.
//
// Sample weights: a learner whose Method has FitWeighted (every batch
// learner but the exact-kernel baseline kernel, which fits a uniform
// subsample: gbrff, mfga, pbrff, prff, rks, eerf/lkrf, srff; the online
// learners fogd, nogd and rrf have none, as an SGD step on a row of weight
// 2 is not two steps on the row) takes a weight per row through
// PrepareWeighted; weights are relative (RelativeWeights): only their
// ratios count, so c·w fits the model of w for any c > 0 and a weight the
// same on every row is no weights. They enter the standardisation and the
// losses as weighted means, so a row weighing twice the others acts as the
// row twice and 0 drops it; negative, NaN, infinite or all-zero weights
// are errors.
//
// Bad input is an error, with these documented panics left, all of them
// programming errors on the unchecked fast paths: Score, Predict and
// Probability of a Model, and Predict of the online Learners of fogd and
// rrf, panic on a row whose length is not NumInputs() (PredictChecked and
// the batch methods return ErrShape instead); featmap.Matrix.Row panics on
// a row index out of range; Register panics when misused from init.
// Config.Validate bounds every numeric field (learners.Check; MaxParam,
// MaxCount, MaxThreads where a learner has no tighter bound).
package learners

import (
	"context"
	"encoding"
	"fmt"
	"time"

	"github.com/rfkit/rfkit/featmap"
)

// Model is a fitted model, as the CLI and package cv see it.
type Model interface {
	// NumInputs is the number of features a row must have.
	NumInputs() int
	// Task tells whether Predict returns class labels or values.
	Task() Task
	// Predict returns, for one row x of NumInputs() features, the original
	// class label (Binary, Multiclass) or the predicted value
	// (Regression); a NaN input is a missing value (see Base.Predict). It
	// panics if len(x) != NumInputs() and allocates nothing.
	Predict(x []float64) float64
	// PredictBatch writes Predict of every row of X into dst
	// (len(dst) == X.Rows). Shape errors are returned, not panicked, and
	// wrap ErrShape; it allocates nothing.
	PredictBatch(dst []float64, X featmap.Matrix) error
	// MarshalBinary encodes the model in the model file format
	// (internal/modelfile); Load reads it back, and its errors wrap
	// ErrCorrupt.
	encoding.BinaryMarshaler
}

// Prober is implemented by binary models that estimate the probability
// that x belongs to the larger (positive) class.
type Prober interface {
	Probability(x []float64) float64
}

// Event reports the progress of a Fit.
type Event struct {
	Method        string        // the learner, e.g. "rks"
	Round, Rounds int           // Round of Rounds done (1-based)
	Loss          float64       // training objective after the round; NaN when not applicable
	Elapsed       time.Duration // since Fit started
}

// Progress receives an Event after each round of a Fit. A non-nil error
// stops the Fit, which returns it wrapped (errors.Is finds it). It is called
// on the goroutine that called Fit.
type Progress func(Event) error

// Report calls p with e (nothing when p is nil) and wraps its error with the
// round at which it stopped training.
func (p Progress) Report(e Event) error {
	if p == nil {
		return nil
	}
	if err := p(e); err != nil {
		return fmt.Errorf("stopped by progress callback after round %d of %d: %w", e.Round, e.Rounds, err)
	}
	return nil
}

// EndRound ends a round of training: it reports e (Report) and then checks
// ctx, either error wrapped as "pkg: …" (pkg the learner's error prefix).
func (p Progress) EndRound(ctx context.Context, pkg string, e Event) error {
	if err := p.Report(e); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	return nil
}

// Rounds reports the rounds of one Fit: the timer starts when it is made,
// and End sends each finished round's Event and checks ctx (EndRound), so a
// learner's Fit does not keep its own start time and report function.
type Rounds struct {
	ctx    context.Context
	p      Progress
	pkg    string // the error prefix
	method string // Event.Method
	n      int    // Event.Rounds
	start  time.Time
}

// NewRounds starts the clock of a Fit of n rounds reporting to p; method is
// Event.Method and pkg the prefix of the errors. n may be 0 until
// SetTotal (or OnlineBase.Epochs) sets it, for a Fit that knows its
// number of rounds only once the defaults are resolved.
func NewRounds(ctx context.Context, p Progress, pkg, method string, n int) *Rounds {
	return &Rounds{ctx: ctx, p: p, pkg: pkg, method: method, n: n, start: time.Now()}
}

// Context is the Fit's context, for a long round that checks it inside.
func (r *Rounds) Context() context.Context { return r.ctx }

// SetTotal sets the number of rounds (Event.Rounds).
func (r *Rounds) SetTotal(n int) { r.n = n }

// End reports that round (1-based) is done with the training objective
// loss (NaN when the round has none), then checks ctx; either error is
// wrapped as EndRound wraps it.
func (r *Rounds) End(round int, loss float64) error {
	e := Event{Method: r.method, Round: round, Rounds: r.n, Loss: loss, Elapsed: time.Since(r.start)}
	return r.p.EndRound(r.ctx, r.pkg, e)
}
