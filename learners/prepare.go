package learners

import (
	"context"
	"fmt"
	"math"
	"reflect"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
)

// CheckData validates a training set: CheckShape(X, 0), len(y) == X.Rows,
// and every value of X and y finite. The errors name the first offending
// row and column.
func CheckData(X featmap.Matrix, y []float64) error {
	if err := CheckShape(X, 0); err != nil {
		return err
	}
	if len(y) != X.Rows {
		return fmt.Errorf("X has %d rows but y has %d values", X.Rows, len(y))
	}
	for i := 0; i < X.Rows; i++ {
		for j, v := range X.Row(i) {
			if !xmath.Finite(v) {
				return fmt.Errorf("X[%d, %d] is %v: inputs must be finite", i, j, v)
			}
		}
	}
	for i, v := range y {
		if !xmath.Finite(v) {
			return fmt.Errorf("y[%d] is %v: targets must be finite", i, v)
		}
	}
	return nil
}

// Standardize returns a dense row-major copy of X with every column
// standardised to mean 0 and unit variance, and the means and scales that
// did it (a model stores them and applies (x − mean)/scale at predict
// time). X must have passed CheckData.
//
// The scale is the population standard deviation by the corrected
// two-pass formula, 1 for a constant column (which is then only centred).
// Every product is rounded on its own (float64(a*b)), so the Go compiler
// cannot fuse it into an FMA on arm64 and the statistics, hence the model,
// have the same bits on every architecture.
func Standardize(X featmap.Matrix) (mean, scale, xs []float64, err error) {
	n, d := X.Rows, X.Cols
	xs = make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(xs[i*d:(i+1)*d], X.Row(i))
	}
	mean, scale = make([]float64, d), make([]float64, d)
	ss, sc := make([]float64, d), make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range xs[i*d : (i+1)*d] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		for j, v := range xs[i*d : (i+1)*d] {
			dv := v - mean[j]
			ss[j] += float64(dv * dv)
			sc[j] += dv
		}
	}
	for j := range scale {
		sd := math.Sqrt(math.Max(0, (ss[j]-float64(sc[j]*sc[j])/float64(n))/float64(n)))
		switch {
		case !xmath.Finite(sd) || !xmath.Finite(mean[j]):
			return nil, nil, nil, fmt.Errorf("column %d: mean or standard deviation overflows float64", j)
		case sd == 0: // constant column (or a spread that underflows): centre it only
			sd = 1
		}
		scale[j] = sd
	}
	for i := 0; i < n; i++ {
		row := xs[i*d : (i+1)*d]
		for j, v := range row {
			row[j] = (v - mean[j]) / scale[j]
		}
	}
	return mean, scale, xs, nil
}

// Rows returns a dense copy of the rows idx of X.
func Rows(X featmap.Matrix, idx []int) featmap.Matrix {
	d := X.Cols
	out := make([]float64, len(idx)*d)
	for r, i := range idx {
		copy(out[r*d:(r+1)*d], X.Row(i))
	}
	return featmap.Dense(len(idx), d, out)
}

// Validator is a learner Config.
type Validator interface{ Validate() error }

// Prepared is the training data after the prologue every Fit shares.
type Prepared struct {
	N, D int
	// Targets are y mapped onto ±1 (Binary) or y itself (Regression).
	Targets []float64
	// Labels maps ±1 back to the original labels (Binary only).
	Labels Labels
	// Mean and Scale standardise the inputs; Z is the standardised
	// dense n×d copy of X.
	Mean, Scale, Z []float64
}

// Common returns the model's Common part with the given Link.
func (p *Prepared) Common(task Task, link Link) Common {
	return Common{Task: task, Labels: p.Labels, Mean: p.Mean, Scale: p.Scale, Link: link}
}

// Prepare is the prologue of every Fit: a cancelled ctx, cfg.Validate (its
// error is returned as it is), then CheckData, the two-class labels of a
// Binary task (BinaryLabels) and the standardisation (Standardize). Every
// other error is prefixed with name.
func Prepare(ctx context.Context, name string, cfg Validator, task Task, X featmap.Matrix, y []float64) (*Prepared, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := CheckData(X, y); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := &Prepared{N: X.Rows, D: X.Cols, Targets: y}
	if task == Binary {
		var err error
		if p.Targets, p.Labels, err = BinaryLabels(y); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	var err error
	if p.Mean, p.Scale, p.Z, err = Standardize(X); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// Define registers a learner from its typed Config, Fit and Load: the
// adapter every learner used to write by hand. newConfig returns a
// pointer to a new Config (with any per-method preset); the Progress given
// to Method.Fit, if not nil, replaces the Config's field of that name.
func Define[C any, M Model](name, doc string, newConfig func() *C,
	fit func(context.Context, featmap.Matrix, []float64, C) (M, error),
	load func([]byte) (M, error)) {
	Register(Method{
		Name:      name,
		Doc:       doc,
		NewConfig: func() any { return newConfig() },
		Fit: func(ctx context.Context, X featmap.Matrix, y []float64, cfg any, p Progress) (Model, error) {
			c, ok := cfg.(*C)
			if !ok {
				return nil, fmt.Errorf("%s: config is %T, want %T", name, cfg, (*C)(nil))
			}
			cc := *c
			if p != nil {
				if f := reflect.ValueOf(&cc).Elem().FieldByName("Progress"); f.IsValid() && f.Type() == reflect.TypeFor[Progress]() {
					f.Set(reflect.ValueOf(p))
				}
			}
			m, err := fit(ctx, X, y, cc)
			if err != nil {
				return nil, err // not a typed nil inside the interface
			}
			return m, nil
		},
		Load: func(data []byte) (Model, error) {
			m, err := load(data)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	})
}
