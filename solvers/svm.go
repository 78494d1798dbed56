package solvers

import (
	"fmt"
	"math"
	"math/rand/v2"
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
	// DefaultSVMTol is the stopping tolerance on the spread of the projected
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
	// MaxEpochs bounds the passes over the data (0 → 1000; negative is an error).
	MaxEpochs int
	// Tol stops when max − min of the projected dual gradient over one pass is
	// ≤ Tol (0 → 1e-4; negative is an error).
	Tol float64
	// Seed fixes the pseudo-random visiting order (PCG); equal seeds give
	// identical results.
	Seed uint64
}

// LinearSVM trains a linear SVM with labels y ∈ {−1, +1} on the primal
//
//	min_w ½‖w‖² + C Σ_i ξ(1 − y_i (w·x_i + b))
//
// with ξ(t) = max(0, t)² (SquaredHinge, default) or max(0, t) (Hinge), by the
// dual coordinate descent of Hsieh et al. (ICML 2008) without shrinking. The
// samples are visited in a fresh pseudo-random permutation each pass, drawn
// from a PCG stream seeded by opt.Seed, so results are deterministic.
// X is n×d row-major. Reaching MaxEpochs is not an error.
//
// Errors: shape mismatches, NaN/Inf in X, labels other than ±1, C ≤ 0 or
// non-finite, invalid options.
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

	w, wb, _ := svmDualCD(X, n, d, y, C, opt.Loss, bs, epochs, tol, opt.Seed)
	if i := firstNonFinite(w); i >= 0 {
		return nil, 0, fmt.Errorf("solvers: linear SVM: w[%d] = %v (overflow): %w", i, w[i], ErrNotFinite)
	}
	return w, wb * bs, nil
}

// svmDualCD runs the dual coordinate descent on validated inputs and returns
// w, the weight wb of the constant feature bs, and the dual variables.
func svmDualCD(X []float64, n, d int, y []float64, C float64, loss SVMLoss, bs float64, epochs int, tol float64, seed uint64) (w []float64, wb float64, alpha []float64) {
	// Dual: min_α ½ αᵀQ̄α − Σα, 0 ≤ α_i ≤ U, Q̄ = Q + D,
	// Q_ij = y_i y_j x̃_i·x̃_j with x̃ = [x, bs].
	upper, diag := C, 0.0
	if loss == SquaredHinge {
		upper, diag = math.Inf(1), 1/(2*C)
	}
	w = make([]float64, d)
	alpha = make([]float64, n)
	qd := make([]float64, n)
	order := make([]int, n)
	for i := range order {
		xi := X[i*d : (i+1)*d]
		qd[i] = dot(xi, xi) + float64(bs*bs) + diag
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		for _, i := range order {
			if qd[i] <= 0 {
				continue // zero sample (Hinge loss, no bias): α_i has no effect
			}
			xi := X[i*d : (i+1)*d]
			g := float64(y[i]*(dot(w, xi)+float64(wb*bs))) - 1 + float64(diag*alpha[i])
			pg := g
			switch {
			case alpha[i] == 0:
				pg = math.Min(g, 0)
			case alpha[i] >= upper:
				pg = math.Max(g, 0)
			}
			pgMax = math.Max(pgMax, pg)
			pgMin = math.Min(pgMin, pg)
			if pg == 0 {
				continue
			}
			old := alpha[i]
			alpha[i] = math.Min(math.Max(old-g/qd[i], 0), upper)
			if delta := float64((alpha[i] - old) * y[i]); delta != 0 {
				axpy(delta, xi, w)
				wb += float64(delta * bs)
			}
		}
		if pgMax-pgMin <= tol {
			break
		}
	}
	return w, wb, alpha
}
