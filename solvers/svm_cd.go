package solvers

import (
	"context"
	"math"
	"math/rand/v2"
	"unsafe"
)

// svmDualCD runs the dual coordinate descent on validated inputs and returns
// w, the weight wb of the constant feature bs, and the dual variables.
//
// It is liblinear's solve_l2r_l1l2_svc (Hsieh et al., ICML 2008, §3 with
// the shrinking of §3.2):
//
//   - each pass visits the active samples in a fresh pseudo-random order;
//   - a sample at a bound whose gradient points outward by more than the
//     spread of the previous pass (α_i = 0 with G > PGmax, α_i = U with
//     G < PGmin) leaves the active set: near the optimum most samples are
//     at a bound and stay there, so a pass costs the free samples only;
//   - the pass stops the solver when the projected gradient over the
//     active set has max − min ≤ tol and both max and min within ±tol
//     (liblinear's rule since version 2.42, its linear.cpp of 2020-10-28;
//     with a sample at a bound whose PG is 0 the second part follows from
//     the first, but a pass whose PG all lie on one side of 0, away from
//     it, no longer stops the solver); if samples were shrunk,
//     every sample is reactivated and the rule must hold again over all
//     of them, so the returned point meets the rule on the full problem.
//
// The rows are float64 or float32 (LinearSVM's Float32 option: half the
// bytes per visit); the arithmetic is float64 either way (a float32 value
// widens exactly), each product rounded on its own, so both round the same
// on every architecture.
//
// Without shrinking every pass cost n·d, and pbrff's problems (100 strongly
// correlated features) run to the pass limit: at n = 10⁵ that was 10⁸ row
// visits, against 1.4·10⁷ with shrinking (the active set falls below 2 %
// of the rows). The rows are visited in random order, so at n = 10⁵
// (pbrff: 80 MB of rows) every visit waited on main memory: each pass
// copies the rows of its next gatherRows positions into a small buffer
// first (independent loads that the CPU overlaps, where the dependent
// visits could not), and the visits read them from there; the arithmetic
// and its order are unchanged (a sample that shrinking swaps into a
// position is read from X itself). w·x_i uses dotW (dot4's four independent chains): one chain of d
// dependent adds was latency-bound. ctx (may be nil) is checked after every
// pass; a cancelled ctx stops the solver with its error.
// gatherRows is the number of rows svmDualCD copies ahead of its visits:
// 64 rows of 100 features (51 KB) stay in the L2 cache. gatherMin is the
// size of X in bytes (4 MB) from which it copies: at pbrff's n = 1000
// (0.8 MB) the copies made the fit 12 % slower.
// (gatherMin is a variable for the test that checks both ways give the
// same bits.)
//
// compactRatio: the active rows are copied into a compact store once they
// are at most 1/compactRatio of the rows stored (from gatherMin on).
const (
	gatherRows   = 64
	compactRatio = 3
)

var gatherMin = 1 << 22

func svmDualCD[T float32 | float64](ctx context.Context, X []T, n, d int, y []float64, C float64, wts []float64, loss SVMLoss, bs float64, epochs int, tol float64, seed uint64) (w []float64, wb float64, alpha []float64, err error) {
	// Dual: min_α ½ αᵀQ̄α − Σα, 0 ≤ α_i ≤ U, Q̄ = Q + D,
	// Q_ij = y_i y_j x̃_i·x̃_j with x̃ = [x, bs].
	//
	// With row weights (wts not nil) row i has its own C_i = C·w_i, so its
	// own bound U_i = C_i (Hinge) or diagonal 1/(2C_i) (SquaredHinge), held
	// in ups and diags; a row of weight 0 is left out.
	upper, diag := C, 0.0
	if loss == SquaredHinge {
		upper, diag = math.Inf(1), 1/(2*C)
	}
	var ups, diags []float64
	if wts != nil {
		ups, diags = make([]float64, n), make([]float64, n)
		for i, v := range wts {
			ci := float64(C * v)
			ups[i] = ci
			if loss == SquaredHinge {
				ups[i], diags[i] = math.Inf(1), 1/(2*ci)
			}
		}
	}
	w = make([]float64, d)
	alpha = make([]float64, n)
	qd := make([]float64, n)
	index := make([]int, 0, n)
	for i := 0; i < n; i++ {
		xi := X[i*d : (i+1)*d]
		di := diag
		if wts != nil {
			if !(float64(C*wts[i]) > 0) {
				continue // weight 0 (or C·w underflowing): the row is left out
			}
			di = diags[i]
		}
		qd[i] = dotRows(xi, xi) + float64(bs*bs) + di
		if qd[i] > 0 { // a zero sample (Hinge, no bias): α_i has no effect
			index = append(index, i)
		}
	}
	all := len(index)
	active := all
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var zero T
	esz := int(unsafe.Sizeof(zero))
	gather := n*d*esz >= gatherMin // below, X stays in cache and the copies only cost
	var buf []T
	var gy, gq, ga []float64
	var held []int
	if gather {
		buf, held = make([]T, gatherRows*d), make([]int, gatherRows)
		gy, gq, ga = make([]float64, gatherRows), make([]float64, gatherRows), make([]float64, gatherRows)
	}
	// The compact store: once shrinking has left at most 1/compactRatio of
	// the stored rows active, the active rows are copied into cx (sample i
	// at row slot[i]) and read from there until every sample is
	// reactivated. Shrinking only removes samples within a pass, so every
	// sample a pass visits is in cx.
	var cx []T
	var slot []int
	compact, stored := false, all
	row := func(i int) []T {
		if compact {
			k := slot[i] * d
			return cx[k : k+d]
		}
		return X[i*d : (i+1)*d]
	}
	for ep := 0; ep < epochs; ep++ {
		if ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, 0, nil, err
			}
		}
		if gather && active > 0 && active*compactRatio <= stored {
			nc := make([]T, active*d)
			if slot == nil {
				slot = make([]int, n)
			}
			for k, i := range index[:active] {
				copy(nc[k*d:(k+1)*d], row(i))
				slot[i] = k
			}
			cx, compact, stored = nc, true, active
		}
		rng.Shuffle(active, func(a, b int) { index[a], index[b] = index[b], index[a] })
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		// A compact store below gatherMin bytes stays in cache: no copies.
		gp := gather && (!compact || stored*d*esz >= gatherMin)
		base, next := 0, 0 // the rows of positions [base, next) are in buf
		for s := 0; s < active; s++ {
			if gp && s >= next {
				base, next = s, min(active, s+gatherRows)
				for q, i := range index[base:next] {
					copy(buf[q*d:(q+1)*d], row(i))
					held[q] = i
					gy[q], gq[q], ga[q] = y[i], qd[i], alpha[i] // (alpha[i]: a touch only)
				}
			}
			i := index[s]
			xi, yi, qi := row(i), y[i], qd[i]
			if q := s - base; gp && held[q] == i {
				xi, yi, qi = buf[q*d:(q+1)*d], gy[q], gq[q]
			}
			ui, di := upper, diag
			if wts != nil {
				ui, di = ups[i], diags[i]
			}
			g := float64(yi*(dotW(w, xi)+float64(wb*bs))) - 1 + float64(di*alpha[i])
			pg := 0.0
			switch {
			case alpha[i] == 0:
				if g > pgMaxOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				pg = math.Min(g, 0)
			case alpha[i] >= ui:
				if g < pgMinOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				pg = math.Max(g, 0)
			default:
				pg = g
			}
			pgMax = math.Max(pgMax, pg)
			pgMin = math.Min(pgMin, pg)
			if math.Abs(pg) <= 1e-12 {
				continue
			}
			old := alpha[i]
			alpha[i] = math.Min(math.Max(old-g/qi, 0), ui)
			if delta := float64((alpha[i] - old) * yi); delta != 0 {
				axpyRow(delta, xi, w)
				wb += float64(delta * bs)
			}
		}
		// (With every sample shrunk, pgMax − pgMin = −Inf: reactivate.)
		if pgMax-pgMin <= tol && math.Abs(pgMax) <= tol && math.Abs(pgMin) <= tol {
			if active == all {
				break
			}
			active = all
			pgMaxOld, pgMinOld = math.Inf(1), math.Inf(-1)
			compact, cx, stored = false, nil, all
			continue
		}

		pgMaxOld, pgMinOld = pgMax, pgMin
		if pgMaxOld <= 0 {
			pgMaxOld = math.Inf(1)
		}
		if pgMinOld >= 0 {
			pgMinOld = math.Inf(-1)
		}
	}
	return w, wb, alpha, nil
}

// dotRows is Σ a_i·b_i of two rows in index order, each product rounded
// on its own: for float64 rows the bits of dot.
func dotRows[T float32 | float64](a, b []T) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		s += float64(float64(v) * float64(b[i]))
	}
	return s
}

// dotW is w·x in dot4's order (four interleaved partial sums, each product
// rounded on its own, the tail added in order); x is widened to float64
// exactly, so for float64 rows it is dot4 to the bit.
func dotW[T float32 | float64](w []float64, x []T) float64 {
	x = x[:len(w)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(w); i += 4 {
		s0 += float64(w[i] * float64(x[i]))
		s1 += float64(w[i+1] * float64(x[i+1]))
		s2 += float64(w[i+2] * float64(x[i+2]))
		s3 += float64(w[i+3] * float64(x[i+3]))
	}
	s := (s0 + s1) + (s2 + s3)
	for ; i < len(w); i++ {
		s += float64(w[i] * float64(x[i]))
	}
	return s
}

// axpyRow is y += alpha·x, one rounded product and one add per element
// (axpy's bits for float64 rows).
func axpyRow[T float32 | float64](alpha float64, x []T, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		xx, yy := x[i:i+4:i+4], y[i:i+4:i+4]
		yy[0] += float64(alpha * float64(xx[0]))
		yy[1] += float64(alpha * float64(xx[1]))
		yy[2] += float64(alpha * float64(xx[2]))
		yy[3] += float64(alpha * float64(xx[3]))
	}
	for ; i < len(x); i++ {
		y[i] += float64(alpha * float64(x[i]))
	}
}
