package kit

import (
	"reflect"

	"github.com/rfkit/rfkit/learners"

	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners/internal/hook"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// Body is the part of a model a learner writes itself: how it scores one
// standardised row and how its parameters are encoded. Everything else a
// model does (input checks, standardisation, label decoding, Predict and
// its batch and probability forms, the model file) is Base's, written once
// for every learner, as one ensemble type serves every tree model in
// dmitryikh/leaves.
type Body interface {
	// Spec describes the learner's files; it is called on a zero Body.
	Spec() Spec
	// NewWork returns one goroutine's scratch space for Score (nil when
	// Score needs none). Base pools it.
	NewWork() any
	// Score returns the raw score of the standardised row z (read-only)
	// with the scratch w from NewWork. It must not allocate.
	Score(z []float64, w any) float64
	// Encode stores the parameter arrays, and the configuration unless
	// the Body is Configured.
	Encode(e *Encoder) error
	// Decode reads them back into a zero Body, checking every value a
	// hostile file could hold; Base wraps its errors with ErrCorrupt.
	Decode(d *Decoder) error
}

// Configured is implemented by a Body whose configuration Base stores:
// Configuration returns a pointer to the body's Config, which
// MarshalBinary writes as the file's configuration (JSON) after Encode,
// and which UnmarshalBinary decodes into the zero body and checks with
// its Validate before Decode.
type Configured interface {
	Configuration() Validator
}

// Methoder is implemented by a Body whose files carry one of several
// methods (a variant): Method is the one to write. Other bodies write
// Spec().Methods[0].
type Methoder interface {
	Method() string
}

// Classifier is implemented by a Body whose predicted label is not the
// sign of its score (a multiclass model): Predict returns the label of the
// standardised row z.
type Classifier interface {
	Predict(z []float64, w any) float64
}

// MultiScorer is implemented by the Body of a multiclass model: Scores
// writes the K class scores of the standardised row z (read-only) into
// dst (len K, the model's Classes), with the scratch w from NewWork.
// Predict is the class of the largest score (the first on a tie), the
// class probabilities are their softmax, and Score is the margin of the
// best class over the runner-up. It must not allocate.
type MultiScorer interface {
	Scores(dst, z []float64, w any)
}

// Calibrator is implemented by a Body whose binary probabilities may be
// calibrated: when Calibrated returns ok, its p is Probability's (and
// Probabilities') value for the raw score s instead of the Link's.
type Calibrator interface {
	Calibrated(s float64) (p float64, ok bool)
}

// Versioner is implemented by a Body whose files have several versions:
// FileVersion is the one its model writes (at most Spec().Version), the
// oldest that can hold it, so that a model that needs nothing new keeps
// the bytes older builds wrote and read.
type Versioner interface {
	FileVersion() int
}

// Spec describes a learner's model files.
type Spec struct {
	// Name is the learner's package name; it prefixes every error.
	Name string
	// Methods are the "method" names its files may carry; a file with
	// another is refused.
	Methods []string
	// Version is the model version written and the newest one read.
	Version int
}

// Base is the shared model core. A learner's model embeds it, through
// ConfiguredBase when its body is Configured as every learner's in this
// module is (type Model struct{ kit.ConfiguredBase[Config, body, *body] }),
// which gives the model the full method set of this type. A Base is immutable after Build or
// UnmarshalBinary and safe for concurrent use; Predict, Score, Probability
// and their batch forms allocate nothing (scratch comes from a sync.Pool).
// It must not be copied.
type Base[T any, P interface {
	*T
	Body
}] struct {
	c       learners.Common
	name    string
	body    P
	class   Classifier        // body, when it decides its own labels
	multi   MultiScorer       // body, for a model with K ≥ 3 classes
	cal     Calibrator        // body, when it calibrates its probabilities
	classes []float64         // Classes()
	pool    sync.Pool         // of *scratch
	stats   learners.FitStats // the Fit's held-out check (not in the file)
}

type scratch struct {
	z []float64
	s []float64 // the K class scores of a multiclass model
	w any
}

// Build sets up b, the Base of a new model, from a fitted body (New does
// it for a whole model).
func Build[T any, P interface {
	*T
	Body
}](b *Base[T, P], c learners.Common, body P) {
	b.c, b.body, b.name = c, body, body.Spec().Name
	b.class, _ = any(body).(Classifier)
	b.cal, _ = any(body).(Calibrator)
	b.multi, b.classes = nil, nil
	switch {
	case len(c.Classes) > 0:
		b.multi, _ = any(body).(MultiScorer)
		b.classes = c.Classes
		b.c.Labels = learners.Labels{Neg: c.Classes[0], Pos: c.Classes[len(c.Classes)-1]}
	case c.Task == learners.Binary:
		b.classes = []float64{c.Labels.Neg, c.Labels.Pos}
	}
	d, k := len(c.Mean), len(b.classes)
	b.pool.New = func() any { return &scratch{z: make([]float64, d), s: make([]float64, k), w: body.NewWork()} }
}

// New returns a new model of type M, a learner's Model (which embeds
// Base[T, P]), built from a fitted body: Build on its Base. It is how a
// Fit or a Snapshot ends: return learners.New[Model](p.Common(task, link), b).
func New[M any, T any, P interface {
	*T
	Body
}, PM interface {
	*M
	core() *Base[T, P]
}](c learners.Common, body P) *M {
	m := PM(new(M))
	Build(m.core(), c, body)
	return m
}

// ConfiguredBase is Base for a Body that is Configured with a *C (its
// Configuration returns a pointer to its Config of type C), which every
// learner's body is: a learner's model embeds it
// (type Model struct{ kit.ConfiguredBase[Config, body, *body] }) for
// Base's method set plus Config.
type ConfiguredBase[C any, T any, P interface {
	*T
	Body
	Configured
}] struct {
	Base[T, P]
}

// Config returns the configuration the model was fitted with (or was
// decoded from its file), its defaults resolved: the learner's Model doc
// says which fields then hold the values the fit chose.
func (m *ConfiguredBase[C, T, P]) Config() C {
	return *any(m.body.Configuration()).(*C)
}

// Body returns the learner's part of the model, for its own accessors.
func (b *Base[T, P]) Body() P { return b.body }

// NumInputs is d, the length of a row.
func (b *Base[T, P]) NumInputs() int { return len(b.c.Mean) }

// Task is the task the model was fitted for.
func (b *Base[T, P]) Task() learners.Task { return b.c.Task }

// Labels returns the original class labels of a binary model (the smallest
// and largest class of a multiclass one).
func (b *Base[T, P]) Labels() learners.Labels { return b.c.Labels }

// Classes returns the class labels in increasing order: the two of a
// binary model, the K of a multiclass one, nil for regression. The
// caller must not modify the slice.
func (b *Base[T, P]) Classes() []float64 { return b.classes }

// Imputes reports whether the model was fitted with Missing =
// MissingImpute: NaN inputs are missing values, replaced by the training
// mean, on the checked paths too.
func (b *Base[T, P]) Imputes() bool { return b.c.Impute }

// FeatureNames returns a copy of the model's feature names, one per input,
// or nil when it has none (see WithFeatureNames).
func (b *Base[T, P]) FeatureNames() []string { return slices.Clone(b.c.Names) }

// core gives WithFeatureNames the Base inside a learner's model.
func (b *Base[T, P]) core() *Base[T, P] { return b }

// initNamed builds b, a new zero Base, as a copy of src's Base (a model of
// the same type) with the given names. The body, means and scales are
// shared: they are never written after Build.
func (b *Base[T, P]) initNamed(src any, names []string) error {
	s, ok := src.(interface{ core() *Base[T, P] })
	if !ok || s.core().body == nil {
		return fmt.Errorf("%s: WithFeatureNames: empty model (use Fit or Load)", P(new(T)).Spec().Name)
	}
	c := s.core().c
	c.Names = slices.Clone(names)
	if len(names) == 0 {
		c.Names = nil
	}
	Build(b, c, s.core().body)
	b.stats = s.core().stats
	return nil
}

// Standardization returns copies of the input means and scales the model
// applies before scoring: (x − mean)/scale.
func (b *Base[T, P]) Standardization() (mean, scale []float64) {
	return slices.Clone(b.c.Mean), slices.Clone(b.c.Scale)
}

// StandardizeRow writes the standardised row (x − mean)/scale into dst
// (len(dst) ≥ len(x) = NumInputs()), the input the learner's body scores;
// a NaN input (a missing value) becomes 0, the training mean.
func (b *Base[T, P]) StandardizeRow(dst, x []float64) {
	b.check(x)
	b.standardize(dst[:len(x)], x)
}

// standardize writes (x − mean)/scale into z, 0 for a NaN input: the
// missing-value policy (see Predict). asm.Standardize is that loop, to the
// bit, on every path.
func (b *Base[T, P]) standardize(z, x []float64) {
	asm.Standardize(z, x, b.c.Mean, b.c.Scale)
}

func (b *Base[T, P]) check(x []float64) {
	if len(x) != len(b.c.Mean) {
		panic(fmt.Sprintf("%s: Score/Predict: len(x) = %d, the model takes %d inputs", b.name, len(x), len(b.c.Mean)))
	}
}

// what a batch computes
const (
	kindPredict = iota
	kindScore
	kindProb
)

// eval standardises x into s.z exactly as Fit did and returns the output
// of the kind asked for.
func (b *Base[T, P]) eval(s *scratch, x []float64, kind int) float64 {
	z := s.z[:len(x)]
	b.standardize(z, x)
	if kind == kindPredict && b.class != nil {
		return b.class.Predict(z, s.w)
	}
	if b.multi != nil && b.class == nil {
		b.multi.Scores(s.s, z, s.w)
		k := vec.Argmax(s.s, -1)
		switch {
		case kind == kindProb || hasNaN(s.s):
			return math.NaN()
		case kind == kindPredict:
			return b.classes[k]
		}
		return s.s[k] - s.s[vec.Argmax(s.s, k)]
	}
	score := b.body.Score(z, s.w)
	switch kind {
	case kindPredict:
		if b.c.Task == learners.Binary {
			return DecodeLabel(b.c.Labels, score)
		}
		return score
	case kindProb:
		return b.prob(score)
	}
	return score
}

func (b *Base[T, P]) prob(s float64) float64 {
	if b.c.Task != learners.Binary {
		return math.NaN()
	}
	if len(b.c.Calib) == 2 {
		return 1 / (1 + xmath.Exp(-(float64(b.c.Calib[0]*s) + b.c.Calib[1])))
	}
	if b.cal != nil {
		if p, ok := b.cal.Calibrated(s); ok {
			return p
		}
	}
	switch b.c.Link {
	case Logistic:
		return 1 / (1 + xmath.Exp(-s))
	case Clamped:
		return math.Max(0, math.Min(1, (1+s)/2))
	case HalfLogOdds:
		return 1 / (1 + xmath.Exp(-2*s))
	}
	return math.NaN()
}

func hasNaN(v []float64) bool {
	for _, x := range v {
		if x != x {
			return true
		}
	}
	return false
}

func (b *Base[T, P]) one(x []float64, kind int) float64 {
	b.check(x)
	s := b.pool.Get().(*scratch)
	v := b.eval(s, x, kind)
	b.pool.Put(s)
	return v
}

// Score returns the raw score: the predicted value for regression, a
// signed margin (positive → the larger label) for binary classification,
// the margin of the best class over the runner-up for a multiclass model.
// It panics if len(x) != NumInputs(); a NaN input is a missing value (see
// Predict).
func (b *Base[T, P]) Score(x []float64) float64 { return b.one(x, kindScore) }

// Predict returns the original class label (Binary: the larger label when
// Score(x) ≥ 0; Multiclass: the class of the largest score, which is the
// class of largest probability) or the predicted value (Regression). It is
// the unchecked fast path: it panics if len(x) != NumInputs().
//
// Missing values: a NaN input stands for a missing value and is replaced
// by its training mean (0 after the stored standardisation) on every
// path, so Predict never returns a NaN label for a NaN input. The checked
// paths (PredictChecked, the batch forms, Probabilities) report a NaN
// input as an error wrapping ErrNotFinite unless the model was fitted
// with Missing = MissingImpute (Imputes), which declares NaN inputs
// legitimate. ±Inf inputs, and finite inputs so extreme that the score
// overflows (such as 1e308), give a NaN result here and an error on the
// checked paths.
func (b *Base[T, P]) Predict(x []float64) float64 { return b.one(x, kindPredict) }

// PredictChecked is Predict with errors instead of a panic or a NaN: one
// wrapping ErrShape if len(x) != NumInputs(), one wrapping ErrNotFinite if
// x holds ±Inf, or NaN (unless the model imputes), or the prediction is
// not finite.
func (b *Base[T, P]) PredictChecked(x []float64) (float64, error) {
	if len(x) != len(b.c.Mean) {
		return math.NaN(), fmt.Errorf("%s: PredictChecked: %w", b.name, shapeError{fmt.Errorf("len(x) = %d, the model takes %d inputs", len(x), len(b.c.Mean))})
	}
	v := b.one(x, kindPredict)
	if err := b.finiteRow(0, x, v, kindPredict); err != nil {
		return math.NaN(), fmt.Errorf("%s: PredictChecked: %w", b.name, err)
	}
	return v, nil
}

// finiteRow reports a NaN (unless the model imputes) or ±Inf input of x,
// or a non-finite output v of a prediction or score (a probability may be
// NaN by definition).
func (b *Base[T, P]) finiteRow(row int, x []float64, v float64, kind int) error {
	for k, xv := range x {
		if !xmath.Finite(xv) && !(b.c.Impute && xv != xv) {
			return &learners.RowError{Row: row, Input: k, Value: xv}
		}
	}
	if kind != kindProb && !xmath.Finite(v) {
		return &learners.RowError{Row: row, Input: -1, Value: v}
	}
	return nil
}

// Probability estimates the probability that x has the larger label: the
// calibrated one when the model has a calibration (Calibration), else
// where the model's loss estimates one (see Link); it is NaN for
// regression, multiclass and uncalibrated hinge-loss models. It panics if len(x) != NumInputs().
func (b *Base[T, P]) Probability(x []float64) float64 { return b.one(x, kindProb) }

// Probabilities writes into dst, len(dst) == len(Classes()), the
// probability of each class for the row x, in the order of Classes; they
// sum to 1 (up to rounding). A multiclass model gives the softmax of its
// class scores (times the calibration's slope when it has one); a binary
// model gives 1 − p and p, p = Probability(x), or, for an uncalibrated
// loss that estimates none (hinge, NoProbability), the crude (1 + score)/2
// clamped to [0, 1]. Errors (dst is then not written): a
// regression model, len(x) != NumInputs() or a wrong len(dst) (wrapping
// ErrShape), a NaN (unless the model imputes) or ±Inf input or a
// non-finite score (wrapping ErrNotFinite, a *RowError). It allocates
// nothing.
func (b *Base[T, P]) Probabilities(dst, x []float64) error {
	switch {
	case len(b.classes) == 0:
		return fmt.Errorf("%s: Probabilities: %w", b.name, shapeError{fmt.Errorf("a %v model has no classes", b.c.Task)})
	case len(x) != len(b.c.Mean):
		return fmt.Errorf("%s: Probabilities: %w", b.name, shapeError{fmt.Errorf("len(x) = %d, the model takes %d inputs", len(x), len(b.c.Mean))})
	case len(dst) != len(b.classes):
		return fmt.Errorf("%s: Probabilities: %w", b.name, shapeError{fmt.Errorf("len(dst) = %d, the model has %d classes", len(dst), len(b.classes))})
	}
	if err := b.finiteRow(0, x, 0, kindScore); err != nil {
		return fmt.Errorf("%s: Probabilities: %w", b.name, err)
	}
	s := b.pool.Get().(*scratch)
	defer b.pool.Put(s)
	z := s.z[:len(x)]
	b.standardize(z, x)
	if b.multi != nil {
		b.multi.Scores(s.s, z, s.w)
		for _, v := range s.s {
			if !xmath.Finite(v) {
				return fmt.Errorf("%s: Probabilities: %w", b.name, &learners.RowError{Input: -1, Value: v})
			}
		}
		if len(b.c.Calib) == 2 {
			for k, v := range s.s {
				s.s[k] = float64(b.c.Calib[0] * v)
			}
		}
		vec.Softmax(dst, s.s)
		return nil
	}
	score := b.body.Score(z, s.w)
	p := b.prob(score)
	if b.c.Link == NoProbability && len(b.c.Calib) != 2 {
		p = math.Max(0, math.Min(1, (1+score)/2))
	}
	if !xmath.Finite(score) || math.IsNaN(p) {
		return fmt.Errorf("%s: Probabilities: %w", b.name, &learners.RowError{Input: -1, Value: score})
	}
	dst[0], dst[1] = 1-p, p
	return nil
}

func (b *Base[T, P]) batch(op string, dst []float64, X featmap.Matrix, kind int) error {
	if X.Rows == 0 && len(dst) == 0 && X.Cols == len(b.c.Mean) {
		return nil // an empty batch is not an error
	}
	if err := CheckShape(X, len(b.c.Mean)); err != nil {
		return fmt.Errorf("%s: %s: %w", b.name, op, err)
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("%s: %s: %w", b.name, op, shapeError{fmt.Errorf("len(dst) = %d, X has %d rows", len(dst), X.Rows)})
	}
	s := b.pool.Get().(*scratch)
	defer b.pool.Put(s)
	for i := range dst {
		dst[i] = b.eval(s, X.Row(i), kind)
		if err := b.finiteRow(i, X.Row(i), dst[i], kind); err != nil {
			return fmt.Errorf("%s: %s: %w", b.name, op, err)
		}
	}
	return nil
}

// PredictBatch writes Predict of every row of X into dst, the same values
// as Predict row by row. It returns an error wrapping ErrShape, and writes
// nothing, if X is malformed, does not have NumInputs() columns, or
// len(dst) != X.Rows; a batch of no rows is not an error. A row with a
// NaN or ±Inf input or a non-finite prediction stops it with an error
// wrapping ErrNotFinite that names the row (the rows before it are
// written), so a batch never hands back a NaN label; a NaN input is such
// an error unless the model imputes (see Predict). Rows are predicted on
// the calling goroutine.
func (b *Base[T, P]) PredictBatch(dst []float64, X featmap.Matrix) error {
	return b.batch("PredictBatch", dst, X, kindPredict)
}

// ScoreBatch writes Score of every row of X into dst, with PredictBatch's
// checks (a non-finite score is an error).
func (b *Base[T, P]) ScoreBatch(dst []float64, X featmap.Matrix) error {
	return b.batch("ScoreBatch", dst, X, kindScore)
}

// ProbabilityBatch writes Probability of every row of X into dst, with
// PredictBatch's checks of the shape and the inputs (the output is NaN
// where Probability's is).
func (b *Base[T, P]) ProbabilityBatch(dst []float64, X featmap.Matrix) error {
	return b.batch("ProbabilityBatch", dst, X, kindProb)
}

// MarshalBinary encodes the model in the rfkit model file format
// (internal/modelfile): the common header, the arrays "mean" and "scale",
// then the learner's own arrays.
func (b *Base[T, P]) MarshalBinary() ([]byte, error) {
	f, err := b.file("MarshalBinary")
	if err != nil {
		return nil, err
	}
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.name, err)
	}
	return data, nil
}

// file is the model file of MarshalBinary and WriteTo (op), whose arrays
// are the model's own slices.
func (b *Base[T, P]) file(op string) (*modelfile.File, error) {
	if b.body == nil {
		return nil, fmt.Errorf("%s: %s: empty model (use Fit or Load)", P(new(T)).Spec().Name, op)
	}
	version := b.body.Spec().Version
	if v, ok := any(b.body).(Versioner); ok {
		version = v.FileVersion()
	}
	e := &Encoder{f: &modelfile.File{Header: modelfile.Header{
		Method:  method(b.body),
		Version: version,
		Task:    b.c.Task.String(),
		Inputs:  len(b.c.Mean),
		Meta:    map[string]float64{},
		Impute:  b.c.Impute,
		Names:   b.c.Names,
	}}}
	switch b.c.Task {
	case learners.Binary:
		e.f.Header.Labels = []float64{b.c.Labels.Neg, b.c.Labels.Pos}
	case learners.Multiclass:
		e.f.Header.Labels = b.c.Classes
	}
	e.Array("mean", b.c.Mean)
	e.Array("scale", b.c.Scale)
	err := b.body.Encode(e)
	if len(b.c.Calib) == 2 {
		e.f.Header.Version += modelfile.CalibratedVersion
		e.Array("calibration", b.c.Calib)
	}
	if c, ok := any(b.body).(Configured); ok && err == nil {
		err = e.Config(c.Configuration())
	}
	if err == nil && e.f.Header.Config == nil {
		err = errors.New("Encode stored no configuration")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.name, err)
	}
	return e.f, nil
}

func method(b Body) string {
	if m, ok := b.(Methoder); ok {
		return m.Method()
	}
	return b.Spec().Methods[0]
}

// UnmarshalBinary decodes a model written by MarshalBinary into b, which
// must be new and zero: models are immutable once built. Corrupt,
// truncated or hostile input gives an error wrapping ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func (b *Base[T, P]) UnmarshalBinary(data []byte) error {
	spec := P(new(T)).Spec()
	if b.body != nil {
		return fmt.Errorf("%s: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)", spec.Name)
	}
	c, body, err := decodeFile[T, P](data, spec)
	if err != nil {
		return fmt.Errorf("%s: %w", spec.Name, err)
	}
	Build(b, c, body)
	return nil
}

func decodeFile[T any, P interface {
	*T
	Body
}](data []byte, spec Spec) (learners.Common, P, error) {
	f, err := modelfile.Parse(data)
	if err != nil {
		return learners.Common{}, nil, err
	}
	h := &f.Header
	if !slices.Contains(spec.Methods, h.Method) {
		return learners.Common{}, nil, fmt.Errorf("%w: a %q model, not %q", learners.ErrCorrupt, h.Method, spec.Methods[0])
	}
	version, calibrated := h.Version, h.Version > modelfile.CalibratedVersion
	if calibrated {
		version -= modelfile.CalibratedVersion
	}
	if version > spec.Version || h.Version == modelfile.CalibratedVersion {
		return learners.Common{}, nil, fmt.Errorf("%w: %s model version %d is newer than this build reads (%d, or %d + %d with a calibration)", learners.ErrCorrupt, h.Method, h.Version, spec.Version, modelfile.CalibratedVersion, spec.Version)
	}
	d := &Decoder{f: f, Method: h.Method, Version: version, Inputs: h.Inputs}
	if d.Task, err = learners.ParseTask(h.Task); err != nil {
		return learners.Common{}, nil, fmt.Errorf("%w: %v", learners.ErrCorrupt, err)
	}
	switch d.Task {
	case learners.Binary:
		if d.Labels, err = learners.NewLabels(h.Labels[0], h.Labels[1]); err != nil {
			return learners.Common{}, nil, fmt.Errorf("%w: %v", learners.ErrCorrupt, err)
		}
	case learners.Multiclass:
		if err := NewClasses(h.Labels); err != nil {
			return learners.Common{}, nil, fmt.Errorf("%w: %v", learners.ErrCorrupt, err)
		}
		d.Classes = h.Labels
		d.Labels = learners.Labels{Neg: h.Labels[0], Pos: h.Labels[len(h.Labels)-1]}
	}
	d.Impute = h.Impute
	c := learners.Common{Task: d.Task, Labels: d.Labels, Impute: h.Impute, Names: h.Names} // Parse validated the names
	c.Mean, c.Scale = d.Array("mean", h.Inputs), d.Array("scale", h.Inputs)
	for k, s := range c.Scale {
		if !(s > 0) {
			d.Fail("scale[%d] = %v, want > 0", k, s)
			break
		}
	}
	body := P(new(T))
	if c, ok := any(body).(Configured); ok && d.err == nil {
		d.err = d.ValidConfig(c.Configuration())
	}
	if d.err == nil {
		d.err = body.Decode(d)
	}
	if d.err != nil {
		if errors.Is(d.err, learners.ErrCorrupt) {
			return learners.Common{}, nil, d.err
		}
		return learners.Common{}, nil, fmt.Errorf("%w: %v", learners.ErrCorrupt, d.err)
	}
	c.Link, c.Classes = d.Link, d.Classes
	if calibrated {
		if c.Task == learners.Regression {
			return learners.Common{}, nil, fmt.Errorf("%w: a regression model with a calibration", learners.ErrCorrupt)
		}
		c.Calib = d.Array("calibration", 2)
		if err := d.Err(); err != nil {
			return learners.Common{}, nil, fmt.Errorf("%w: %v", learners.ErrCorrupt, err)
		}
		if err := checkCalibration(c.Calib); err != nil {
			return learners.Common{}, nil, fmt.Errorf("%w: %v", learners.ErrCorrupt, err)
		}
	}
	if _, ok := any(body).(MultiScorer); len(c.Classes) > 0 && !ok {
		return learners.Common{}, nil, fmt.Errorf("%w: a %s model with %d classes, which this learner cannot score", learners.ErrCorrupt, h.Method, len(c.Classes))
	}
	return c, body, nil
}

// WriteTo writes MarshalBinary's bytes to w as it encodes them: the
// encoded model is never held in memory whole.
func (b *Base[T, P]) WriteTo(w io.Writer) (int64, error) {
	f, err := b.file("WriteTo")
	if err != nil {
		return 0, err
	}
	n, err := f.WriteTo(w)
	if err != nil {
		return n, fmt.Errorf("%s: %w", b.name, err)
	}
	return n, nil
}

// ReadFrom reads r to EOF and decodes it with UnmarshalBinary.
func (b *Base[T, P]) ReadFrom(r io.Reader) (int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return int64(len(data)), fmt.Errorf("%s: %w", P(new(T)).Spec().Name, err)
	}
	return int64(len(data)), b.UnmarshalBinary(data)
}

// Encoder collects a learner's configuration, arrays and scalars for
// MarshalBinary. Arrays are written in the order they are added, which is
// part of the file's bytes.
type Encoder struct{ f *modelfile.File }

// Config stores cfg, marshalled as JSON, as the file's configuration.
func (e *Encoder) Config(cfg any) error {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	e.f.Header.Config = raw
	return nil
}

// Array adds a named array (not copied).
func (e *Encoder) Array(name string, v []float64) { e.f.Add(name, v) }

// Meta sets a named finite scalar of the header.
func (e *Encoder) Meta(name string, v float64) { e.f.Header.Meta[name] = v }

// Decoder reads a learner's part of a model file. Its accessors keep the
// first error (later calls return zero values), so a Decode reads every
// field and checks Err once.
type Decoder struct {
	f   *modelfile.File
	err error

	Method  string // the header's method, one of Spec().Methods
	Version int    // the file's model version
	Task    learners.Task
	Labels  learners.Labels // Binary only
	// Classes are the K labels of a multiclass model (the header's); a
	// Body whose files of another task hold K ≥ 3 classes sets them.
	Classes []float64
	// Impute tells whether the model imputes missing inputs.
	Impute bool
	Inputs int // d
	// Link is what Decode sets for the model's Probability.
	Link learners.Link
}

// Config decodes the stored configuration into cfg (a pointer).
func (d *Decoder) Config(cfg any) {
	if d.err == nil {
		if err := json.Unmarshal(d.f.Header.Config, cfg); err != nil {
			d.err = fmt.Errorf("config: %v", err)
		}
	}
}

// ValidConfig decodes the stored configuration into cfg (a pointer to the
// learner's Config) and checks it with its Validate.
func (d *Decoder) ValidConfig(cfg Validator) error {
	d.Config(cfg)
	if d.err == nil {
		d.err = cfg.Validate()
	}
	return d.err
}

// Array returns the array called name, which must have n elements (any
// number if n < 0).
func (d *Decoder) Array(name string, n int) []float64 {
	if d.err != nil {
		return nil
	}
	v, err := d.f.Array(name, n)
	d.err = err
	return v
}

// Has reports whether the file holds an array called name.
func (d *Decoder) Has(name string) bool {
	for _, a := range d.f.Arrays {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Meta returns the header scalar called name.
func (d *Decoder) Meta(name string) float64 {
	if d.err != nil {
		return 0
	}
	v, err := d.f.Meta(name)
	d.err = err
	return v
}

// Fail records a decoding error (the first one is kept).
func (d *Decoder) Fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

// Check records err if it is the first.
func (d *Decoder) Check(err error) {
	if d.err == nil {
		d.err = err
	}
}

// Err returns the first error.
func (d *Decoder) Err() error { return d.err }

// CheckShape checks that X is a well-formed view with at least one row and
// column and, if cols > 0, exactly cols columns. Its errors wrap ErrShape.
func CheckShape(X featmap.Matrix, cols int) error {
	var err error
	switch {
	case X.Rows <= 0 || X.Cols <= 0:
		err = fmt.Errorf("X is %d×%d: empty data (need at least one row and one column)", X.Rows, X.Cols)
	case cols > 0 && X.Cols != cols:
		err = fmt.Errorf("X has %d columns, the model takes %d inputs", X.Cols, cols)
	case X.Stride < X.Cols:
		err = fmt.Errorf("X stride %d is below its %d columns", X.Stride, X.Cols)
	case X.Rows > 1 && X.Stride > (math.MaxInt-X.Cols)/(X.Rows-1):
		err = fmt.Errorf("X is %d×%d with stride %d: too large", X.Rows, X.Cols, X.Stride)
	case len(X.Data) < (X.Rows-1)*X.Stride+X.Cols:
		err = fmt.Errorf("X is %d×%d with stride %d and needs %d elements, has %d",
			X.Rows, X.Cols, X.Stride, (X.Rows-1)*X.Stride+X.Cols, len(X.Data))
	default:
		return nil
	}
	return shapeError{err}
}

// shapeError wraps ErrShape without repeating its text.
type shapeError struct{ err error }

func (e shapeError) Error() string { return e.err.Error() }

func (e shapeError) Unwrap() error { return learners.ErrShape }

// Unmarshal decodes data into a new M with its UnmarshalBinary: every
// learner's Load.
func Unmarshal[M any, PM interface {
	*M
	UnmarshalBinary([]byte) error
}](data []byte) (*M, error) {
	m := PM(new(M))
	if err := m.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return m, nil
}

func init() {
	hook.CopyNamed = func(m any, names []string) (any, bool, error) {
		out, ok := reflect.New(reflect.TypeOf(m).Elem()).Interface().(interface {
			initNamed(src any, names []string) error
		})
		if !ok {
			return nil, false, nil
		}
		return out, true, out.initNamed(m, names)
	}
}
