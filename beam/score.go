package rfbeam

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Output selects what Score computes for each row.
type Output string

// The outputs.
const (
	// Predict is Model.Predict: the class label (binary, in the data's own
	// label values) or the predicted value (regression).
	Predict Output = "predict"
	// RawScore is the model's Score: the margin (binary) or value
	// (regression).
	RawScore Output = "score"
	// Probability is the model's Probability of the larger class (binary
	// models whose loss estimates one; NaN otherwise, which is not an
	// error).
	Probability Output = "probability"
)

// batcher is the part of a learner's model that Score uses beside
// learners.Model: every rfkit learner's model has it.
type batcher interface {
	ScoreBatch(dst []float64, X featmap.Matrix) error
	ProbabilityBatch(dst []float64, X featmap.Matrix) error
}

// CheckModel decodes a model file as every worker will (learners.Load; the
// learner's package must be linked into the program) and checks that it
// can compute out. Pipelines call it at construction time, so a bad file
// fails before the job starts.
func CheckModel(model []byte, out Output) (learners.Model, error) {
	m, err := learners.Load(model)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %w", err)
	}
	switch out {
	case Predict:
	case RawScore, Probability:
		if _, ok := m.(batcher); !ok {
			return nil, fmt.Errorf("rfbeam: a %T has no Score or Probability", m)
		}
	default:
		return nil, fmt.Errorf("rfbeam: unknown output %q (want %q, %q or %q)", out, Predict, RawScore, Probability)
	}
	return m, nil
}

// Score applies the model file model (any learner's, as learners.Load reads
// it) to every Row of rows and returns the predictions and the dead-letter
// rows. The model is decoded once per worker (in the DoFn's Setup). A row
// the model cannot score — a length other than the model's inputs, a NaN
// or ±Inf input, or an output that is not finite (inputs that overflow the
// model's arithmetic) — goes to the dead-letter output with the reason.
// Each Prediction has the bits of the one-machine Model.Predict (or Score,
// Probability) on the row, whatever the runner's sharding. A model file
// that cannot be decoded, or an unknown out, is an error here, before the
// pipeline runs.
func Score(s beam.Scope, model []byte, out Output, rows beam.PCollection) (preds, bad beam.PCollection, err error) {
	if _, err := CheckModel(model, out); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	s = s.Scope("rfbeam.Score")
	preds, bad = beam.ParDo2(s, &scoreFn{Model: model, Out: string(out)}, rows)
	return preds, bad, nil
}

// scoreFn scores one Row; the model is decoded once per DoFn instance.
type scoreFn struct {
	Model []byte
	Out   string

	m learners.Model
	b batcher
}

// Setup decodes the model.
func (f *scoreFn) Setup() error {
	m, err := CheckModel(f.Model, Output(f.Out))
	if err != nil {
		return err
	}
	f.m = m
	f.b, _ = m.(batcher)
	return nil
}

// ProcessElement scores r.
func (f *scoreFn) ProcessElement(_ context.Context, r Row, emit func(Prediction), dead func(BadRow)) {
	v, err := f.one(r.X)
	if err != nil {
		dead(BadRow{Source: r.Source, Index: r.Index, Reason: err.Error()})
		return
	}
	emit(Prediction{Source: r.Source, Index: r.Index, Value: v})
}

// one computes the output for x through the checked batch path, whose
// values are those of Predict, Score and Probability row by row.
func (f *scoreFn) one(x []float64) (float64, error) {
	if len(x) != f.m.NumInputs() {
		return 0, fmt.Errorf("%d inputs, the model takes %d", len(x), f.m.NumInputs())
	}
	dst := make([]float64, 1)
	X := featmap.Dense(1, len(x), x)
	var err error
	switch Output(f.Out) {
	case RawScore:
		err = f.b.ScoreBatch(dst, X)
	case Probability:
		err = f.b.ProbabilityBatch(dst, X)
	default:
		err = f.m.PredictBatch(dst, X)
	}
	if err != nil {
		var re *learners.RowError
		if errors.As(err, &re) {
			re.Row = 0
			return 0, errors.New(rowReason(re))
		}
		return 0, err
	}
	return dst[0], nil
}

// rowReason describes a RowError without its batch row number.
func rowReason(e *learners.RowError) string {
	if e.Input >= 0 {
		return fmt.Sprintf("input %d is %v", e.Input, e.Value)
	}
	return fmt.Sprintf("the output is %v (the inputs overflow the model's arithmetic)", e.Value)
}

func init() {
	register.DoFn4x0[context.Context, Row, func(Prediction), func(BadRow)](&scoreFn{})
	register.Emitter1[Prediction]()
	register.Emitter1[BadRow]()
}
