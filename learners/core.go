package learners

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/internal/hook"
)

// Link turns a binary model's score into a probability. Its values are
// the learner's own (a model's Fit, Load or rks.Assemble sets it from the
// loss); the zero Link gives no probability (Probability is NaN).
type Link int

// Common is what every model holds beside its Body.
type Common struct {
	Task   Task
	Labels Labels // Binary (the smallest and largest class of a multiclass model)
	// Classes are the K ≥ 3 labels of a multiclass model in increasing
	// order (nil otherwise); its Body implements MultiScorer.
	Classes     []float64
	Mean, Scale []float64 // input standardisation, len NumInputs(); Scale > 0
	Link        Link      // Binary only
	// Impute is set when the model was fitted with Missing = MissingImpute:
	// a NaN input stands for a missing value, replaced by the training
	// mean (0 after the standardisation), and the checked paths accept it.
	Impute bool
	// Names are the feature names, one per input, or nil (WithFeatureNames).
	Names []string
	// Calib is the probability calibration [a, c] of a classifier (nil:
	// none; Calibrate): a binary model's probability is σ(a·score + c),
	// a multiclass model's the softmax of a times its class scores. It
	// is stored in the model file as the array "calibration" (its file
	// version is raised by 100).
	Calib []float64
}

// WithFeatureNames returns a new model equal to m but carrying the given
// feature names, one per input (nil or empty removes them); m itself is
// unchanged, as models are immutable, and the two share their read-only
// parameters. The names are stored in the model file and returned by
// FeatureNames, so that whoever predicts with a loaded model can check
// that a data set's columns are the ones it was trained on. M is a
// learner's *Model or the Model interface holding one.
//
// The names must be non-empty, valid UTF-8, at most 256 bytes each, all
// different, and at most 512 KiB in all as JSON (half the model file's
// header); otherwise the
// error says which rule is broken and m is not copied.
func WithFeatureNames[M Model](m M, names []string) (M, error) {
	var zero M
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return zero, fmt.Errorf("learners: WithFeatureNames: %T is not a learner's model", m)
	}
	if hook.CopyNamed == nil {
		return zero, fmt.Errorf("learners: WithFeatureNames: %T is not a model built on the learner kit", m)
	}
	if err := modelfile.ValidateNames(names, m.NumInputs()); err != nil {
		return zero, fmt.Errorf("learners: WithFeatureNames: %w", err)
	}
	if raw, err := json.Marshal(names); err != nil || len(raw) > limit.NamesBytes {
		return zero, fmt.Errorf("learners: WithFeatureNames: %d feature names take %d bytes, more than the %d a model file holds", len(names), len(raw), limit.NamesBytes)
	}
	out, ok, err := hook.CopyNamed(m, names)
	switch {
	case !ok:
		return zero, fmt.Errorf("learners: WithFeatureNames: %T is not a model built on the learner kit", m)
	case err != nil:
		return zero, err
	}
	return out.(M), nil
}

// RowError is the error of a row the checked paths cannot predict: a
// NaN or ±Inf input (Input ≥ 0), or a prediction or score that is not
// finite (Input = −1). It wraps ErrNotFinite.
type RowError struct {
	Row   int     // the row of the batch (0 for PredictChecked)
	Input int     // the offending input, or −1 for the output
	Value float64 // the offending input or output
}

func (e *RowError) Error() string {
	if e.Input >= 0 {
		return fmt.Sprintf("row %d: input %d is %v", e.Row, e.Input, e.Value)
	}
	return fmt.Sprintf("row %d: the output is %v (the inputs overflow the model's arithmetic)", e.Row, e.Value)
}

// Unwrap returns ErrNotFinite.
func (e *RowError) Unwrap() error { return ErrNotFinite }
