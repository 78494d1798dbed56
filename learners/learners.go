// Package learners is what a user of rfkit's models needs beside the learner
// packages: the Model interface every learner's model satisfies (and
// ClassModel and Prober for what some add; every learner's model also has
// FeatureNames() []string and FitStats() FitStats), Load for
// a model file of any learner, the registry of methods (Methods, Lookup,
// MethodsFor), the Task, progress Events, the Toggle, Threads and Missing
// Config field types, the sentinels ErrCorrupt, ErrShape, ErrNotFinite and
// ErrTooLarge (errors.Is finds them), the reflection helpers that set Config
// fields from "key=value" strings (Params, SetParam), ReadHeader for a model
// file's header, and PermutationImportance, the importance of the inputs of
// any Model on labelled rows.
//
// Each learner lives in its own package (gbrff, rks, rrf, …) with the same
// shape: a Config whose zero value means the documented defaults, Fit
// (FitWeighted where the learner takes sample weights), Load, and a Model
// whose serving methods (Predict, Probability, Score, PredictBatch,
// MarshalBinary, …) are listed in its package's documentation. The code
// they share (the one model implementation, the fit prologue, the Config
// checks, the registration) is the learner kit in learners/internal/kit,
// in the spirit of dmitryikh/leaves' single ensemble type: a learner
// supplies only its scoring of one standardised row and the encoding of
// its parameters,
// and one line in the conformance suite (package learnertest). Every
// *Model is immutable after Fit and safe for concurrent use, and its
// Predict and batch forms allocate nothing. Importing a learner package
// (for its side effect, if need be) registers it.
//
// Tasks: Binary, Regression and Multiclass (three or more classes, any
// finite labels, at most 4096). Each learner declares
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
// (about 1.5× the cost of the fit), stored in the model file
// (its version raised by 100) and used by Probability and Probabilities. The same held-out half gives
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
// a row index out of range; the learner kit panics on a method
// registered after the registry was read.
// Config.Validate bounds every numeric field: where a learner has no
// tighter bound, a positive real at 10⁶, a count at 10⁶ and a goroutine
// limit at 4096.
package learners

import (
	"encoding"
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
