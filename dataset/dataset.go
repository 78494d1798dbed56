package dataset

import (
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/featmap"
)

// Dataset is a dense data set of N samples with D features each.
//
// X holds the features row-major: sample i is X[i*D : (i+1)*D]. Y holds
// one label or regression target per sample, or is nil for unlabelled data
// (for example a file read with [CSVOptions].NoLabel). FeatureNames, when
// not nil, has one name per feature column; LabelName is the name of the
// label column ("" when unknown).
type Dataset struct {
	X            []float64
	N, D         int
	Y            []float64
	FeatureNames []string
	LabelName    string
}

// Matrix returns the features as the matrix view every learner's Fit and
// PredictBatch take (featmap.Matrix: Rows N, Cols D, Stride D, Data X, the
// layout of gonum's blas64.General), sharing X: a data set read from a
// file goes straight into a learner without copying or bridging.
func (ds *Dataset) Matrix() featmap.Matrix { return featmap.Dense(ds.N, ds.D, ds.X) }

// Row returns the features of sample i as a subslice of X (not a copy; its
// capacity is capped at D so appending to it cannot overwrite the next
// row). It panics if i is out of range.
func (ds *Dataset) Row(i int) []float64 {
	if i < 0 || i >= ds.N {
		panic(fmt.Sprintf("dataset: Row(%d) out of range [0, %d)", i, ds.N))
	}
	return ds.X[i*ds.D : (i+1)*ds.D : (i+1)*ds.D]
}

// Validate checks that the data set is usable: N > 0 and D > 0,
// len(X) == N*D, Y is nil or has length N, FeatureNames is nil or has
// length D, and every value in X and Y is finite (no NaN or ±Inf).
func (ds *Dataset) Validate() error {
	if ds == nil {
		return errors.New("dataset: nil Dataset")
	}
	if ds.N <= 0 {
		return fmt.Errorf("dataset: N = %d, need at least one sample", ds.N)
	}
	if ds.D <= 0 {
		return fmt.Errorf("dataset: D = %d, need at least one feature", ds.D)
	}
	if ds.N > math.MaxInt/ds.D || len(ds.X) != ds.N*ds.D {
		return fmt.Errorf("dataset: len(X) = %d, want N*D = %d*%d", len(ds.X), ds.N, ds.D)
	}
	if ds.Y != nil && len(ds.Y) != ds.N {
		return fmt.Errorf("dataset: len(Y) = %d, want N = %d", len(ds.Y), ds.N)
	}
	if ds.FeatureNames != nil && len(ds.FeatureNames) != ds.D {
		return fmt.Errorf("dataset: len(FeatureNames) = %d, want D = %d", len(ds.FeatureNames), ds.D)
	}
	for k, v := range ds.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("dataset: X[%d, %d] = %v is not finite", k/ds.D, k%ds.D, v)
		}
	}
	for i, v := range ds.Y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("dataset: Y[%d] = %v is not finite", i, v)
		}
	}
	return nil
}

// Subset returns a new Dataset holding the samples idx, in that order
// (indices may repeat). X and Y are copied; FeatureNames is shared. It
// panics if an index is out of range.
func (ds *Dataset) Subset(idx []int) *Dataset {
	out := &Dataset{
		X:            make([]float64, 0, len(idx)*ds.D),
		N:            len(idx),
		D:            ds.D,
		FeatureNames: ds.FeatureNames,
		LabelName:    ds.LabelName,
	}
	if ds.Y != nil {
		out.Y = make([]float64, len(idx))
	}
	for k, i := range idx {
		out.X = append(out.X, ds.Row(i)...)
		if ds.Y != nil {
			out.Y[k] = ds.Y[i]
		}
	}
	return out
}
