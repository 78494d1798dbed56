package rfselect

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// defaultRho is the default radius of LKRF's χ² ball: ‖q − u‖² ≤ ρ with
// u = 1/M₀ (the reference code's rho/Nw, 0.005 in its example).
const defaultRho = 0.005

// maxCandidates bounds M₀ (the candidate frequencies are d×M₀ floats).
const maxCandidates = 1 << 20

// blockRows is the number of rows whose candidate features are computed
// at once when the scores are accumulated (memory blockRows×M₀).
const blockRows = 256

// EERF draws candidates random Fourier features of the Gaussian kernel
// exp(−γ‖x−x'‖²) (ω ~ N(0, 2γI), b ~ U[0, 2π), featmap.NewRFF with seed),
// scores each by the energy |(1/n) Σ_i y_i cos(ω·x_i + b)| (Shahrampour,
// Beirami and Tarokh 2018) and returns the map of the M best, best first
// (ties to the lower candidate index). X is used as given (standardise it
// first if need be); y are ±1 labels or real targets.
//
// Errors: invalid shapes, non-finite values, M < 1, candidates < M or above
// 2²⁰, γ not positive and finite.
func EERF(X featmap.Matrix, y []float64, candidates, M int, gamma float64, seed uint64) (*featmap.RFF, error) {
	return eerf(X, y, 1, candidates, M, gamma, seed)
}

// eerf is EERF on the n×K targets y (K columns; see candidateScores).
func eerf(X featmap.Matrix, y []float64, K, candidates, M int, gamma float64, seed uint64) (*featmap.RFF, error) {
	rff, score, err := candidateScores(X, y, K, candidates, M, gamma, seed)
	if err != nil {
		return nil, fmt.Errorf("rfselect: EERF: %w", err)
	}
	idx := make([]int, candidates)
	for j := range idx {
		idx[j] = j
	}
	slices.SortFunc(idx, func(a, b int) int {
		sa, sb := math.Abs(score[a]), math.Abs(score[b])
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return a - b
	})
	return linrf.Subset(rff, idx[:M])
}

// LKRF is Sinha and Duchi's (2016) kernel learning with random features,
// as in their reference code (amansinha/learning-kernels): draw candidates
// features as EERF does, put the weights
//
//	q = argmax_q Σ_j q_j (Φ_jᵀ y)²  s.t.  q on the simplex, ‖q − u‖² ≤ ρ
//
// (u = 1/M₀, Φ_j the values cos(ω_j·x_i + b_j); solved by bisection on the
// dual variable with projections onto the simplex, to a relative bracket
// of 1e-10), then sample M features i.i.d. from q with seed, as the
// reference's createOptimizedGaussianKernelParams does. Duplicates are
// kept (a duplicate weighs a feature up). Keeping the M largest q instead
// would rank exactly as EERF, since q is increasing in (Φ_jᵀ y)².
// ρ = 0 selects 0.005.
//
// Errors: as EERF, plus ρ negative or not finite.
func LKRF(X featmap.Matrix, y []float64, candidates, M int, gamma, rho float64, seed uint64) (*featmap.RFF, error) {
	return lkrf(X, y, 1, candidates, M, gamma, rho, seed)
}

// lkrf is LKRF on the n×K targets y (K columns; see candidateScores).
func lkrf(X featmap.Matrix, y []float64, K, candidates, M int, gamma, rho float64, seed uint64) (*featmap.RFF, error) {
	if rho == 0 {
		rho = defaultRho
	}
	if !(rho > 0) || math.IsInf(rho, 0) {
		return nil, fmt.Errorf("rfselect: LKRF: rho = %v, want a finite ρ > 0 (0 for the default %g)", rho, defaultRho)
	}
	rff, score, err := candidateScores(X, y, K, candidates, M, gamma, seed)
	if err != nil {
		return nil, fmt.Errorf("rfselect: LKRF: %w", err)
	}
	v := make([]float64, candidates)
	for j, s := range score {
		v[j] = -float64(s * s)
	}
	q, err := chiSquareWeights(v, rho)
	if err != nil {
		return nil, fmt.Errorf("rfselect: LKRF: %w", err)
	}
	cdf := make([]float64, candidates)
	var sum float64
	for j, p := range q {
		sum += p
		cdf[j] = sum
	}
	r := rand.New(rand.NewPCG(seed, 0x6c6b7266)) // "lkrf"
	idx := make([]int, M)
	for t := range idx {
		u := r.Float64() * sum
		j, _ := slices.BinarySearch(cdf, u)
		for j < candidates-1 && q[j] == 0 { // never land on a zero weight
			j++
		}
		idx[t] = min(j, candidates-1)
	}
	return linrf.Subset(rff, idx)
}

// candidateScores samples the candidate map and returns Σ_i y_i z_j(x_i)
// / (n·scale) = (1/n) Σ_i y_i cos(ω_j·x_i + b_j) for every candidate j.
// With K > 1 target columns (y n×K row-major, a multiclass problem's
// centred class indicators) the score is the root of the sum over the
// columns of their squared scores, so EERF's |score| and LKRF's score²
// add the energies of the classes.
func candidateScores(X featmap.Matrix, y []float64, K, candidates, M int, gamma float64, seed uint64) (*featmap.RFF, []float64, error) {
	if K == 1 {
		if err := kit.CheckData(X, y); err != nil {
			return nil, nil, err
		}
	} else if err := kit.CheckShape(X, 0); err != nil || len(y) != X.Rows*K {
		return nil, nil, fmt.Errorf("X %d×%d with %d targets of %d columns: %v", X.Rows, X.Cols, len(y), K, err)
	}
	switch {
	case M < 1:
		return nil, nil, fmt.Errorf("M = %d, want ≥ 1", M)
	case candidates < M || candidates > maxCandidates:
		return nil, nil, fmt.Errorf("%d candidates for M = %d, want M..%d", candidates, M, maxCandidates)
	case !(gamma > 0) || math.IsInf(gamma, 0):
		return nil, nil, fmt.Errorf("gamma = %v, want a finite γ > 0", gamma)
	case X.Cols > math.MaxInt/candidates/8:
		return nil, nil, fmt.Errorf("%d inputs × %d candidates do not fit in memory", X.Cols, candidates)
	}
	rff, err := featmap.NewRFF(featmap.RFFConfig{Inputs: X.Cols, Features: candidates, Gamma: gamma, Seed: seed})
	if err != nil {
		return nil, nil, err
	}
	n := X.Rows
	score := make([]float64, candidates*K)
	buf := make([]float64, blockRows*candidates)
	for lo := 0; lo < n; lo += blockRows {
		hi := min(n, lo+blockRows)
		sub := featmap.Matrix{Rows: hi - lo, Cols: X.Cols, Stride: X.Stride, Data: X.Data[lo*X.Stride:]}
		Z := featmap.Dense(hi-lo, candidates, buf[:(hi-lo)*candidates])
		if err := rff.Transform(Z, sub); err != nil {
			return nil, nil, err
		}
		for i := lo; i < hi; i++ {
			if K == 1 {
				yi := y[i]
				for j, z := range Z.Row(i - lo) {
					score[j] += float64(yi * z)
				}
				continue
			}
			for k, yi := range y[i*K : (i+1)*K] {
				s := score[k*candidates : (k+1)*candidates]
				for j, z := range Z.Row(i - lo) {
					s[j] += float64(yi * z)
				}
			}
		}
	}
	norm := float64(n) * rff.Scale()
	for j := range score {
		score[j] /= norm
	}
	if K > 1 {
		for j := 0; j < candidates; j++ {
			var ss float64
			for k := 0; k < K; k++ {
				v := score[k*candidates+j]
				ss += float64(v * v)
			}
			score[j] = math.Sqrt(ss)
		}
		score = score[:candidates]
	}
	return rff, score, nil
}

// chiSquareWeights solves min qᵀv s.t. q on the simplex and ‖q − u‖² ≤ ρ,
// u = 1/len(v), by bisection on the multiplier λ of the ball constraint:
// q(λ) = Π_simplex(u − v/λ), and ‖q(λ) − u‖² decreases in λ. It returns
// q at the smallest feasible λ found (the bracket is narrowed to 1e-10 of
// its initial upper end).
func chiSquareWeights(v []float64, rho float64) ([]float64, error) {
	n := len(v)
	u := 1 / float64(n)
	q, arg := make([]float64, n), make([]float64, n)
	dist := func(lambda float64) (float64, error) {
		for j, vj := range v {
			arg[j] = u - vj/lambda
		}
		if err := solvers.ProjectSimplex(q, arg, 1); err != nil {
			return 0, err
		}
		var s float64
		for _, p := range q {
			s += float64((p - u) * (p - u))
		}
		return s, nil
	}
	hi := 1.0
	for it := 0; ; it++ {
		d, err := dist(hi)
		if err != nil {
			return nil, err
		}
		if d <= rho {
			break
		}
		if it > 2100 || math.IsInf(hi, 0) {
			return nil, errors.New("χ² weights: no feasible multiplier")
		}
		hi *= 2
	}
	lo, top := 0.0, hi
	for hi-lo > 1e-10*top {
		mid := 0.5 * (lo + hi)
		d, err := dist(mid)
		if err != nil {
			return nil, err
		}
		if d <= rho {
			hi = mid
		} else {
			lo = mid
		}
	}
	if _, err := dist(hi); err != nil {
		return nil, err
	}
	return q, nil
}
