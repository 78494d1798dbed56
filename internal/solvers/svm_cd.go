package solvers

import (
	"context"
	"github.com/rfkit/rfkit/internal/asm"
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
// widens exactly). w·x_i is asm.DotF32/DotF64 (sixteen FMA lanes combined
// by a fixed tree; AVX-512, AVX2, NEON and the pure-Go twin give the same
// bits) and the update w += δ·x_i is asm.AxpyF32/AxpyF64 (one FMA per
// element), so float32 rows give the bits of float64 rows holding the same
// values, on every path and architecture.
//
// Without shrinking every pass cost n·d, and pbrff's problems (100 strongly
// correlated features) run to the pass limit: at n = 10⁵ that was 10⁸ row
// visits, against 1.4·10⁷ with shrinking (the active set falls below 2 %
// of the rows). The rows are visited in random order, so at n = 10⁵
// (pbrff: 40 MB of float32 rows) every visit would wait on main memory:
// from gatherMin bytes of rows on, each visit prefetches the row of the
// position prefetchAhead visits later (asm.PrefetchF32, a hint that
// changes no result), so the loads of several rows are in flight while the
// dependent visits compute. (Session 9 copied the next 64 rows into a
// buffer instead: the copies were 28 % of a fit at n = 10⁵.) ctx (may be
// nil) is checked after every pass; a cancelled ctx stops the solver with
// its error.
//
// gatherMin is the size of the rows in bytes (4 MB) from which the solver
// prefetches and compacts: below it the rows stay in cache. (It is a
// variable for the tests that check both ways give the same bits.)
//
// compactRatio: the active rows are copied into a compact store once they
// are at most 1/compactRatio of the rows stored (from gatherMin on).
const (
	prefetchAhead = 4
	compactRatio  = 3
)

var gatherMin = 1 << 22

// rowOps are the row kernels of svmDualCD for one row type.
type rowOps[T float32 | float64] struct {
	dot      func(w []float64, x []T) float64
	axpy     func(a float64, x []T, y []float64)
	prefetch func(x []T)
}

var (
	ops32 = rowOps[float32]{asm.DotF32, asm.AxpyF32, asm.PrefetchF32}
	ops64 = rowOps[float64]{asm.DotF64, asm.AxpyF64, prefetch64}
)

// prefetch64 prefetches a float64 row: the lines of its bytes read as
// float32 values.
func prefetch64(x []float64) {
	if len(x) > 0 {
		asm.PrefetchF32(unsafe.Slice((*float32)(unsafe.Pointer(&x[0])), 2*len(x)))
	}
}

func rowOpsOf[T float32 | float64]() rowOps[T] {
	if o, ok := any(ops32).(rowOps[T]); ok {
		return o
	}
	return any(ops64).(rowOps[T])
}

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
	// st[i] holds α_i, Q̄_ii, y_i and U_i side by side: at n = 10⁵ a visit
	// then misses one cache line for them instead of three.
	st := make([]svmSample, n)
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
		ui := upper
		if wts != nil {
			ui = ups[i]
		}
		qi := dotRows(xi, xi) + float64(bs*bs) + di
		st[i] = svmSample{qd: qi, y: y[i], up: ui}
		if qi > 0 { // a zero sample (Hinge, no bias): α_i has no effect
			index = append(index, i)
		}
	}
	all := len(index)
	active := all
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var zero T
	esz := int(unsafe.Sizeof(zero))
	big := n*d*esz >= gatherMin // below, X stays in cache: no prefetches, no compaction
	ops := rowOpsOf[T]()
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
		if big && active > 0 && active*compactRatio <= stored {
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
		// rng.Shuffle(active, swap) spelled out (the same draws, hence the
		// same order), without a call of the swap closure per element.
		for a := active - 1; a > 0; a-- {
			b := int(rng.Uint64N(uint64(a + 1)))
			index[a], index[b] = index[b], index[a]
		}
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		// A compact store below gatherMin bytes stays in cache: no prefetches.
		pf := big && (!compact || stored*d*esz >= gatherMin)
		// The rows of this pass: X, or the compact store cx (sample i at
		// row slot[i]); read without the closure row in the loop below.
		rows, slots := X, []int(nil)
		if compact {
			rows, slots = cx, slot
		}
		for s := 0; s < active; s++ {
			if pf && s+prefetchAhead < active {
				j := index[s+prefetchAhead]
				k := j
				if slots != nil {
					k = slots[j]
				}
				ops.prefetch(rows[k*d : (k+1)*d])
				asm.PrefetchF32(unsafe.Slice((*float32)(unsafe.Pointer(&st[j])), svmSampleWords))
			}
			i := index[s]
			p := &st[i]
			k := i
			if slots != nil {
				k = slots[i]
			}
			xi, yi, qi, ui, di := rows[k*d:(k+1)*d], p.y, p.qd, p.up, diag
			if wts != nil {
				di = diags[i]
			}
			old := p.alpha
			g := float64(yi*(ops.dot(w, xi)+float64(wb*bs))) - 1 + float64(di*old)
			pg := 0.0
			switch {
			case old == 0:
				if g > pgMaxOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				pg = min(g, 0)
			case old >= ui:
				if g < pgMinOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				pg = max(g, 0)
			default:
				pg = g
			}
			pgMax = max(pgMax, pg)
			pgMin = min(pgMin, pg)
			if math.Abs(pg) <= 1e-12 {
				continue
			}
			p.alpha = min(max(old-g/qi, 0), ui)
			if delta := float64((p.alpha - old) * yi); delta != 0 {
				ops.axpy(delta, xi, w)
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
	alpha = make([]float64, n)
	for i := range st {
		alpha[i] = st[i].alpha
	}
	return w, wb, alpha, nil
}

// svmSample is the per-sample state of svmDualCD: α_i, Q̄_ii, y_i, U_i.
type svmSample struct{ alpha, qd, y, up float64 }

// svmSampleWords is the size of an svmSample in float32 words (for its
// prefetch).
const svmSampleWords = int(unsafe.Sizeof(svmSample{}) / 4)

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
