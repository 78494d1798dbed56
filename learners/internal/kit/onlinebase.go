package kit

import (
	"github.com/rfkit/rfkit/learners"

	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
)

// OnlineBase is the part of an online learner (rrf, fogd) that does not
// depend on its model: the input standardisation z_j = (x_j − mean_j)/scale_j
// applied to every row of Update and Predict (the arithmetic of a fitted
// model, so a Snapshot predicts raw rows with the same bits), the online
// statistics, and the methods on them. A Learner embeds it; the zero value
// is not usable (NewOnlineBase). It is not safe for concurrent use (a
// learner has a single writer).
type OnlineBase struct {
	pkg            string
	d              int
	mean, scale, z []float64
	stats          learners.Stats
}

// CheckInputs is the check of an online learner's NewLearner: d ≥ 1 inputs,
// and d × features × 16 values addressable.
func CheckInputs(pkg string, d, features int) error {
	if d <= 0 {
		return fmt.Errorf("%s: NewLearner: %d inputs, want ≥ 1", pkg, d)
	}
	if d > math.MaxInt/features/16 {
		return fmt.Errorf("%s: NewLearner: %d inputs × %d features do not fit in memory", pkg, d, features)
	}
	return nil
}

// StartLearner is the opening every online learner's NewLearner shares:
// it validates cfg, resolves its defaults for rows of d inputs (resolve,
// the learner's Config.resolve) and checks the inputs with CheckInputs
// against the resolved size (size: the number of features or the budget).
// It returns the resolved Config, or the first error.
func StartLearner[C Validator](pkg string, d int, cfg C, resolve func(C, int) C, size func(C) int) (C, error) {
	if err := cfg.Validate(); err != nil {
		return cfg, err
	}
	c := resolve(cfg, d)
	return c, CheckInputs(pkg, d, size(c))
}

// Resumable is the model an online learner resumes from: one it can check
// (CheckModel) and whose input standardisation the resumed learner takes.
type Resumable interface {
	comparable
	NumInputs() int
	Standardization() (mean, scale []float64)
}

// Standardizer is a resumed online learner: it takes its model's input
// standardisation (an OnlineBase's SetStandardization).
type Standardizer interface {
	SetStandardization(mean, scale []float64) error
}

// ResumeFrom is an online learner's Resume(m): resumed(cfg, d) with cfg
// m's configuration with its field Resume set to m and d m's number of
// inputs, after CheckModel; the learner then takes m's standardisation.
// resumed builds the learner of the model cfg.Resume with cfg's learning
// settings.
func ResumeFrom[M interface {
	Resumable
	Config() C
}, C any, L Standardizer](pkg string, m M, resumed func(C, int) (L, error)) (L, error) {
	if err := CheckModel(pkg, m); err != nil {
		var none L
		return none, err
	}
	cfg := m.Config()
	if f := reflect.ValueOf(&cfg).Elem().FieldByName("Resume"); f.IsValid() && f.Type() == reflect.TypeFor[M]() {
		f.Set(reflect.ValueOf(m))
	}
	return resume(m, cfg, m.NumInputs(), resumed)
}

// ResumeFit is the learner of an online learner's Fit with cfg.Resume =
// m: after the checks of m and of X's shape, resumed(cfg, X.Cols), which
// then takes m's standardisation (as ResumeFrom).
func ResumeFit[M Resumable, C any, L Standardizer](pkg string, X featmap.Matrix, cfg C, m M, resumed func(C, int) (L, error)) (L, error) {
	if err := resumeShape(pkg, X, m); err != nil {
		var none L
		return none, err
	}
	return resume(m, cfg, X.Cols, resumed)
}

func resume[M Resumable, C any, L Standardizer](m M, cfg C, d int, resumed func(C, int) (L, error)) (L, error) {
	l, err := resumed(cfg, d)
	if err == nil {
		err = l.SetStandardization(m.Standardization())
	}
	if err != nil {
		var none L
		return none, err
	}
	return l, nil
}

// CheckModel refuses an empty model to resume from: nil, or one never
// fitted or loaded (no inputs).
func CheckModel[M interface {
	comparable
	NumInputs() int
}](pkg string, m M) error {
	var zero M
	if m == zero || m.NumInputs() == 0 {
		return fmt.Errorf("%s: Resume: empty model (use Fit, Snapshot or Load)", pkg)
	}
	return nil
}

// CheckResume is the part of an online learner's Resume check that does
// not depend on its Config type: rows of d inputs for a model taking
// inputs, and the Config's task equal to the model's. Errors are prefixed
// by pkg and "Resume".
func CheckResume(pkg string, d, inputs int, task, modelTask learners.Task) error {
	switch {
	case d != inputs:
		return fmt.Errorf("%s: Resume: %d inputs, the model takes %d", pkg, d, inputs)
	case task != modelTask:
		return fmt.Errorf("%s: Resume: Config.Task = %v, the model's task is %v", pkg, task, modelTask)
	}
	return nil
}

// ResumeSetting checks a Config field that defines a resumed model (its
// size, kernel, loss or labels): left at its zero value or equal to the
// model's value, else an error naming the field, prefixed by pkg and
// "Resume".
func ResumeSetting[T comparable](pkg, field string, cfg, model T) error {
	var zero T
	if cfg != zero && cfg != model {
		return fmt.Errorf("%s: Resume: Config.%s = %v, the model has %v", pkg, field, cfg, model)
	}
	return nil
}

// resumeShape checks the model m an online learner's Fit resumes
// (CheckModel) and that X has its columns, with CheckShape's error.
func resumeShape[M Resumable](pkg string, X featmap.Matrix, m M) error {
	if err := CheckModel(pkg, m); err != nil {
		return err
	}
	if err := CheckShape(X, m.NumInputs()); err != nil {
		return fmt.Errorf("%s: Resume: %w", pkg, err)
	}
	return nil
}

// Targets maps every label of y through target (an online learner's
// label → internal target), for a Fit; the error names the row.
func Targets(pkg string, y []float64, target func(float64) (float64, error)) ([]float64, error) {
	t := make([]float64, len(y))
	for i, v := range y {
		var err error
		if t[i], err = target(v); err != nil {
			return nil, fmt.Errorf("%s: y[%d]: %w", pkg, i, err)
		}
	}
	return t, nil
}

// CheckFit is the opening of an online learner's Fit: a live ctx, a valid
// cfg, finite data of matching shape and a fit within the size bound of
// ctx (CheckSize, when cfg has a FitSize), with errors prefixed by pkg
// (Validate's carry their own).
func CheckFit(ctx context.Context, pkg string, cfg interface{ Validate() error }, X featmap.Matrix, y []float64) error {
	return checkFit(ctx, pkg, cfg, X, y, false)
}

// checkFit is CheckFit with NaN inputs allowed if missing is set: the
// opening of every Fit (PrepareWeighted's too).
func checkFit(ctx context.Context, pkg string, cfg Validator, X featmap.Matrix, y []float64, missing bool) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := checkData(X, y, missing); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	return checkSizeCtx(ctx, pkg, cfg, y, X.Cols)
}

// NewOnlineBase returns the base of a learner of package pkg (the prefix
// of its errors) for rows of d inputs, without a standardisation.
func NewOnlineBase(pkg string, d int) OnlineBase {
	return OnlineBase{pkg: pkg, d: d, z: make([]float64, max(d, 0))}
}

// SetStandardization makes the Learner standardise every row of Update and
// Predict as (x − mean)/scale (the arithmetic of a Model), and its
// Snapshots carry mean and scale, so that they predict raw rows. It takes
// effect from the next Update: set it before the first, from statistics
// of a prefix of the stream (StandardizeFrom) or known ones. mean and scale
// have NumInputs() elements, mean finite and scale finite and > 0; both
// nil removes the standardisation. They are copied.
func (b *OnlineBase) SetStandardization(mean, scale []float64) error {
	if err := b.set(mean, scale); err != nil {
		return fmt.Errorf("%s: SetStandardization: %w", b.pkg, err)
	}
	return nil
}

func (b *OnlineBase) set(mean, scale []float64) error {
	if mean == nil && scale == nil {
		b.mean, b.scale = nil, nil
		return nil
	}
	if len(mean) != b.d || len(scale) != b.d {
		return fmt.Errorf("%d means and %d scales, the learner takes %d inputs", len(mean), len(scale), b.d)
	}
	for j := range mean {
		if !xmath.Finite(mean[j]) || !xmath.Finite(scale[j]) || !(scale[j] > 0) {
			return fmt.Errorf("input %d has mean %v and scale %v, want finite and scale > 0", j, mean[j], scale[j])
		}
	}
	b.mean, b.scale = slices.Clone(mean), slices.Clone(scale)
	return nil
}

// StandardizeFrom sets the standardisation (SetStandardization) to the
// statistics Fit would compute on X, e.g. a prefix of the stream held back
// before the first Update. X must have NumInputs() columns and finite
// values.
func (b *OnlineBase) StandardizeFrom(X featmap.Matrix) error {
	err := CheckShape(X, b.d)
	if err == nil {
		err = CheckData(X, make([]float64, X.Rows))
	}
	var mean, scale []float64
	if err == nil {
		mean, scale, _, err = learners.Standardize(X)
	}
	if err == nil {
		err = b.set(mean, scale)
	}
	if err != nil {
		return fmt.Errorf("%s: StandardizeFrom: %w", b.pkg, err)
	}
	return nil
}

// Standardization returns copies of the learner's means and scales (nil
// when it uses rows as given).
func (b *OnlineBase) Standardization() (mean, scale []float64) {
	return slices.Clone(b.mean), slices.Clone(b.scale)
}

// NumInputs is d.
func (b *OnlineBase) NumInputs() int { return b.d }

// Stats returns the online statistics so far.
func (b *OnlineBase) Stats() learners.Stats { return b.stats }

// Record adds the outcome o of an Update with target y to the statistics.
func (b *OnlineBase) Record(o learners.Outcome, task learners.Task, y float64) {
	s := &b.stats
	s.N++
	s.LossSum += o.Loss
	if o.Mistake {
		s.Mistakes++
	}
	if task == learners.Regression {
		r := o.Prediction - y
		s.SSE += float64(r * r)
	}
}

// Input returns x standardised into a scratch row (asm.Standardize), or x
// itself without a standardisation, with a NaN input (a missing value) as
// 0 in both cases: the missing-value policy of the models (Base.Predict),
// so that a Learner's Predict gives what its Snapshot's gives. Update
// never sees a NaN (CheckUpdate refuses it). It allocates nothing.
func (b *OnlineBase) Input(x []float64) []float64 {
	if b.mean != nil {
		z := b.z[:len(x)]
		asm.Standardize(z, x, b.mean, b.scale)
		return z
	}
	if !hasNaN(x) {
		return x
	}
	z := b.z[:len(x)]
	for j, v := range x {
		z[j] = v
		if v != v {
			z[j] = 0
		}
	}
	return z
}

// UpdateWith is an online learner's Update: it checks the row x (d
// finite values) and the label y (finite, mapped to the internal target
// by target), runs step on the standardised row (Input) and records the
// outcome in the Stats. A bad x or y, or an error of step, changes
// nothing; the errors are prefixed by the package and "Update". It
// allocates nothing unless target or step do.
func (b *OnlineBase) UpdateWith(x []float64, y float64, task learners.Task, target func(float64) (float64, error), step func([]float64, float64) (learners.Outcome, error)) (learners.Outcome, error) {
	if err := b.CheckUpdate(x); err != nil {
		return learners.Outcome{}, err
	}
	if !xmath.Finite(y) {
		return learners.Outcome{}, fmt.Errorf("%s: Update: y is %v: targets must be finite", b.pkg, y)
	}
	t, err := target(y)
	if err == nil {
		var o learners.Outcome
		if o, err = step(b.Input(x), t); err == nil {
			b.Record(o, task, y)
			return o, nil
		}
	}
	return learners.Outcome{}, fmt.Errorf("%s: Update: %w", b.pkg, err)
}

// CheckUpdate checks the row of an Update (d finite values).
func (b *OnlineBase) CheckUpdate(x []float64) error {
	if err := CheckRow(x, b.d); err != nil {
		return fmt.Errorf("%s: Update: %w", b.pkg, err)
	}
	return nil
}

// CheckPredict panics if x is not a row of d values, as Learner.Predict
// documents.
func (b *OnlineBase) CheckPredict(x []float64) {
	if len(x) != b.d {
		panic(fmt.Sprintf("%s: Learner.Predict: len(x) = %d, the learner takes %d inputs", b.pkg, len(x), b.d))
	}
}

// SnapshotStandardization returns copies of the means and scales for a
// Snapshot: mean 0 and scale 1 without a standardisation.
func (b *OnlineBase) SnapshotStandardization() (mean, scale []float64) {
	if b.mean == nil {
		mean, scale = make([]float64, b.d), make([]float64, b.d)
		for j := range scale {
			scale[j] = 1
		}
		return mean, scale
	}
	return b.Standardization()
}

// FitRows returns the rows of X (checked) as Fit's learner learns them, a
// dense n×d copy: with standardize, X standardised with its own statistics,
// which the learner keeps (SetStandardization); otherwise each row through
// the learner's standardisation, if any (a resumed model's).
//
// The online learners' Config field Standardize selects it: Fit
// standardises with the statistics of X when it is Default or Enabled,
// and uses the rows as they are when it is Disabled (the model then stores
// mean 0 and scale 1). It is ignored with Resume, whose model's
// standardisation is kept.
func (b *OnlineBase) FitRows(X featmap.Matrix, standardize bool) ([]float64, error) {
	if standardize {
		mean, scale, xs, err := learners.Standardize(X)
		if err == nil {
			err = b.set(mean, scale)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.pkg, err)
		}
		return xs, nil
	}
	n, d := X.Rows, X.Cols
	xs := make([]float64, n*d)
	for i := range n {
		copy(xs[i*d:(i+1)*d], b.Input(X.Row(i)))
	}
	return xs, nil
}

// Epochs runs the passes of an online learner's Fit over n rows: each
// epoch visits them in a fresh permutation drawn from rng (in row order
// without shuffle), calls pass with it (pass returns the summed loss) and
// ends round ep of epochs with the mean loss (Rounds.End: progress, then
// ctx). Pass's errors are returned as they are.
//
// The online learners' Config field Shuffle selects the order: a fresh
// seeded permutation every epoch when it is Default or Enabled, the rows'
// own order when it is Disabled (a stream learned in file order, which
// Resume can continue exactly). It is a Toggle because its default is on.
func (b *OnlineBase) Epochs(rounds *Rounds, rng *rand.Rand, n, epochs int, shuffle bool, pass func(ep int, perm []int) (float64, error)) error {
	rounds.SetTotal(epochs)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for ep := 1; ep <= epochs; ep++ {
		if shuffle {
			rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		}
		loss, err := pass(ep, perm)
		if err != nil {
			return err
		}
		if err := rounds.End(ep, loss/float64(n)); err != nil {
			return err
		}
	}
	return nil
}

// FitSteps runs Epochs with one online step a row: step (Update's on a
// standardised row) is called on every row of xs (n×d, dense) with its
// target t[i] in each epoch's order, and the epoch's loss is the sum of
// the outcomes' losses. The permutations are drawn from the PCG source
// (seed, stream), stream a constant of the learner. A step's error stops
// the fit, naming the row.
func (b *OnlineBase) FitSteps(rounds *Rounds, seed, stream uint64, xs, t []float64, epochs int, shuffle bool, step func([]float64, float64) (learners.Outcome, error)) error {
	d, rng := b.d, rand.New(rand.NewPCG(seed, stream))
	return b.Epochs(rounds, rng, len(t), epochs, shuffle, func(_ int, perm []int) (loss float64, err error) {
		for _, i := range perm {
			o, err := step(xs[i*d:(i+1)*d], t[i])
			if err != nil {
				return 0, fmt.Errorf("%s: row %d: %w", b.pkg, i, err)
			}
			loss += o.Loss
		}
		return loss, nil
	})
}
