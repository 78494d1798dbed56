package solvers

import (
	"context"
	"fmt"
	"math"
)

// SVMLoss selects the loss of LinearSVM.
type SVMLoss int

const (
	// SquaredHinge is the L2-loss SVM, C·Σ max(0, 1 − y_i w·x_i)²
	// (liblinear -s 1). It is the default: its primal is smooth.
	SquaredHinge SVMLoss = iota
	// Hinge is the L1-loss SVM, C·Σ max(0, 1 − y_i w·x_i) (liblinear -s 3).
	Hinge
)

// String returns the loss name.
func (l SVMLoss) String() string {
	switch l {
	case SquaredHinge:
		return "squared hinge"
	case Hinge:
		return "hinge"
	}
	return fmt.Sprintf("SVMLoss(%d)", int(l))
}

// Default settings of LinearSVM; a zero field in SVMOptions selects them.
const (
	// DefaultSVMMaxEpochs bounds the passes over the data.
	DefaultSVMMaxEpochs = 1000
	// DefaultSVMTol is the stopping tolerance on the projected
	// gradient over one pass (liblinear uses 0.1; ours is tighter).
	DefaultSVMTol = 1e-4
)

// SVMOptions configures LinearSVM. The zero value selects the defaults.
type SVMOptions struct {
	// Loss is SquaredHinge (default) or Hinge.
	Loss SVMLoss
	// NoBias fits w without a bias. Otherwise, as in liblinear, a constant
	// feature BiasScale (default 1) is appended to every x, so the bias is
	// regularised like a weight: b = BiasScale·w_{d+1}.
	NoBias bool
	// BiasScale is the value of the appended constant feature (0 → 1;
	// negative or non-finite is an error).
	BiasScale float64
	// MaxEpochs bounds the passes over the active samples (0 → 1000;
	// negative is an error).
	MaxEpochs int
	// Tol stops the solver after a pass whose projected dual gradients have
	// max − min ≤ Tol and both max and min within ±Tol, over every sample
	// (liblinear's rule; 0 → 1e-4; negative is an error).
	Tol float64
	// Seed fixes the pseudo-random visiting order (PCG); equal seeds give
	// identical results.
	Seed uint64
	// Weights, if not nil, are the rows' weights (len n, finite, ≥ 0, not
	// all 0): the loss term becomes C Σ_i w_i ξ_i, liblinear's instance
	// weights (each row has its own C·w_i), so a weight of 2 acts as the
	// row twice and a row of weight 0 is left out. Nil leaves every
	// operation, hence the result's bits, as without this field.
	Weights []float64
	// Float32 makes the solver read a copy of X rounded to float32 (half
	// the bytes per row visit; the solver's arithmetic stays float64, so
	// it solves the problem on the rounded rows exactly as on float64
	// rows).
	Float32 bool
	// Context, if not nil, is checked after every pass over the active
	// samples: once it is cancelled LinearSVM returns its error (wrapped).
	// A pass costs at most n·d multiply-adds, so a cancellation is seen
	// within milliseconds even at n = 10⁵.
	Context context.Context
}

// LinearSVM trains a linear SVM with labels y ∈ {−1, +1} on the primal
//
//	min_w ½‖w‖² + C Σ_i ξ(1 − y_i (w·x_i + b))
//
// with ξ(t) = max(0, t)² (SquaredHinge, default) or max(0, t) (Hinge), by the
// dual coordinate descent of Hsieh et al. (ICML 2008) with liblinear's
// shrinking and stopping rule (see svmDualCD). The active samples are
// visited in a fresh pseudo-random permutation each pass, drawn from a PCG
// stream seeded by opt.Seed, so results are deterministic. X is n×d
// row-major. Reaching MaxEpochs is not an error.
//
// With opt.Weights the primal is ½‖w‖² + C Σ_i w_i ξ(·).
//
// Errors: shape mismatches, NaN/Inf in X, labels other than ±1, C ≤ 0 or
// non-finite, bad weights, invalid options, a cancelled opt.Context.
func LinearSVM(X []float64, n, d int, y []float64, C float64, opt SVMOptions) (w []float64, bias float64, err error) {
	if err := checkMatrix("X", X, n, d); err != nil {
		return nil, 0, fmt.Errorf("solvers: linear SVM: %w", err)
	}
	if err := checkLabels("y", y, n); err != nil {
		return nil, 0, fmt.Errorf("solvers: linear SVM: %w", err)
	}
	if !(C > 0) || math.IsInf(C, 0) {
		return nil, 0, fmt.Errorf("solvers: linear SVM: C = %v, want finite and > 0", C)
	}
	if opt.Loss != SquaredHinge && opt.Loss != Hinge {
		return nil, 0, fmt.Errorf("solvers: linear SVM: unknown loss %v", opt.Loss)
	}
	bs := opt.BiasScale
	if !(bs >= 0) || math.IsInf(bs, 0) {
		return nil, 0, fmt.Errorf("solvers: linear SVM: BiasScale = %v, want finite and ≥ 0", bs)
	}
	if bs == 0 {
		bs = 1
	}
	if opt.NoBias {
		bs = 0
	}
	epochs := opt.MaxEpochs
	if epochs < 0 {
		return nil, 0, fmt.Errorf("solvers: linear SVM: MaxEpochs = %d, want ≥ 0", epochs)
	}
	if epochs == 0 {
		epochs = DefaultSVMMaxEpochs
	}
	tol := opt.Tol
	if !(tol >= 0) {
		return nil, 0, fmt.Errorf("solvers: linear SVM: Tol = %v, want ≥ 0", tol)
	}
	if tol == 0 {
		tol = DefaultSVMTol
	}

	if opt.Weights != nil {
		if _, err := checkWeights(opt.Weights, n); err != nil {
			return nil, 0, fmt.Errorf("solvers: linear SVM: %w", err)
		}
	}
	var wb float64
	if opt.Float32 {
		x32 := make([]float32, len(X))
		for i, v := range X {
			x32[i] = float32(v)
		}
		w, wb, _, err = svmDualCD(opt.Context, x32, n, d, y, C, opt.Weights, opt.Loss, bs, epochs, tol, opt.Seed)
	} else {
		w, wb, _, err = svmDualCD(opt.Context, X, n, d, y, C, opt.Weights, opt.Loss, bs, epochs, tol, opt.Seed)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("solvers: linear SVM: %w", err)
	}
	if i := firstNonFinite(w); i >= 0 {
		return nil, 0, fmt.Errorf("solvers: linear SVM: w[%d] = %v (overflow): %w", i, w[i], ErrNotFinite)
	}
	return w, wb * bs, nil
}
