package featmap

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/trig"
)

// Sampling selects how Nyström landmarks are drawn from the data.
type Sampling int

const (
	// Uniform draws m distinct rows uniformly without replacement.
	Uniform Sampling = iota
	// KMeansPP draws them by k-means++ seeding (Arthur and Vassilvitskii
	// 2007): the first uniformly, each next one with probability
	// proportional to its squared distance to the nearest landmark so far
	// (uniformly among the rows not yet drawn once every row coincides with
	// a landmark).
	KMeansPP
)

func (s Sampling) String() string {
	switch s {
	case Uniform:
		return "uniform"
	case KMeansPP:
		return "kmeans++"
	}
	return fmt.Sprintf("Sampling(%d)", int(s))
}

// NystromConfig describes a Nyström map of the Gaussian kernel
// exp(−γ‖x−y‖²).
type NystromConfig struct {
	Inputs    int      // d, the input dimension (> 0)
	Landmarks int      // m, the number of landmarks and of features (1..min(n, 8192): the eigendecomposition costs about 4.3·m³ multiply–adds)
	Gamma     float64  // kernel bandwidth γ (> 0)
	Sampling  Sampling // Uniform (default) or KMeansPP
	Seed      uint64   // the landmarks are a pure function of the data, the config and the seed
}

// Validate reports a configuration NewNystrom would reject for any data.
func (c NystromConfig) Validate() error {
	switch {
	case c.Inputs <= 0:
		return fmt.Errorf("featmap: Nyström Inputs = %d, must be positive", c.Inputs)
	case c.Landmarks <= 0 || c.Landmarks > limit.Landmarks:
		return fmt.Errorf("featmap: Nyström Landmarks = %d, want 1..%d", c.Landmarks, limit.Landmarks)
	case limit.CheckElements(c.Inputs, c.Landmarks) != nil:
		return limit.CheckElements(c.Inputs, c.Landmarks)
	case !(c.Gamma > 0) || math.IsInf(c.Gamma, 0):
		return fmt.Errorf("featmap: Nyström Gamma = %v, must be positive and finite", c.Gamma)
	case c.Sampling != Uniform && c.Sampling != KMeansPP:
		return fmt.Errorf("featmap: unknown Nyström sampling %v", c.Sampling)
	}
	return nil
}

// Nystrom is the Nyström feature map of the Gaussian kernel (Williams and
// Seeger 2001): with m landmarks l_1…l_m, K the m×m kernel matrix
// K_ij = k(l_i, l_j) = U·diag(λ)·Uᵀ and k(x) = (k(x, l_i))_i,
//
//	z(x) = diag(λ_r)^{−1/2}·U_rᵀ·k(x),
//
// where r keeps the eigenvalues λ_j > m·ε·λ_1 (the rest, numerically zero,
// give features that are identically 0). Then z(x)·z(y) = k(x)ᵀK⁺k(y), the
// Nyström approximation of k(x, y).
//
// Approximation contract: the map is exact on the landmarks
// (z(l_i)·z(l_j) = K_ij up to a few m·ε·λ_1/λ_r), hence on the whole
// training set when m = n; for other points the error is that of the
// projection of k(x, ·) onto the span of the k(l_i, ·) in the kernel's
// Hilbert space, z(x)·z(x) ≤ k(x, x) = 1, and it falls as landmarks are
// added (for uniform sampling, as O(1/√m) in expectation and faster when the
// spectrum of K decays fast; Drineas and Mahoney 2005). Unlike RFF it is
// data-dependent: the features of rows far from every landmark go to 0.
//
// The map is computed in plain Go in a fixed order (trig.Exp for the
// kernel, products rounded on their own, the eigendecomposition by the
// Householder–QL solver of eigsym.go), so it has the same bits on every
// SIMD path, for any GOMAXPROCS and on arm64; Transform and TransformRow
// agree to the bit. It is safe for concurrent use.
type Nystrom struct {
	d, m  int
	gamma float64
	land  []float64 // m×d landmarks, row-major
	proj  []float64 // m×m row-major: row j is λ_j^{−1/2}·u_j (0 for dropped j)
	rank  int
	pool  sync.Pool // *[]float64 scratch of m kernel values for TransformRow
}

// NewNystrom samples m landmarks from the rows of X (n×d, finite, n ≥ m)
// and builds the map. Errors: an invalid config, a malformed X, NaN or ±Inf
// in X, fewer rows than landmarks, or a non-converging eigensolver.
// Memory: m×d landmarks plus 3·m² floats while building. It allocates.
func NewNystrom(X Matrix, c NystromConfig) (*Nystrom, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if err := checkFinite(X); err != nil {
		return nil, err
	}
	switch {
	case X.Cols != c.Inputs:
		return nil, fmt.Errorf("%w: X has %d columns, the Nyström map takes %d inputs", ErrShape, X.Cols, c.Inputs)
	case X.Rows < c.Landmarks:
		return nil, fmt.Errorf("featmap: Nyström Landmarks = %d, more than the %d rows of X", c.Landmarks, X.Rows)
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x6e7973747230)) // "nystr0"
	var idx []int
	if c.Sampling == KMeansPP {
		idx = kmeansPP(X, c.Landmarks, r)
	} else {
		idx = uniformRows(X.Rows, c.Landmarks, r)
	}
	land := make([]float64, c.Landmarks*c.Inputs)
	for i, row := range idx {
		copy(land[i*c.Inputs:], X.Row(row))
	}
	return nystromFromLandmarks(land, c.Inputs, c.Landmarks, c.Gamma)
}

// NewNystromFromLandmarks builds the map on given landmarks (m×d row-major,
// finite; copied), e.g. ones read from a model file: the eigendecomposition
// is recomputed, with the same bits as when NewNystrom built it.
func NewNystromFromLandmarks(landmarks []float64, inputs, m int, gamma float64) (*Nystrom, error) {
	if err := (NystromConfig{Inputs: inputs, Landmarks: m, Gamma: gamma}).Validate(); err != nil {
		return nil, err
	}
	if len(landmarks) != inputs*m {
		return nil, fmt.Errorf("featmap: %d landmark values, want %d×%d", len(landmarks), m, inputs)
	}
	for i, v := range landmarks {
		if !xmath.Finite(v) {
			return nil, fmt.Errorf("featmap: landmark value %d is %v: must be finite", i, v)
		}
	}
	return nystromFromLandmarks(append([]float64(nil), landmarks...), inputs, m, gamma)
}

func nystromFromLandmarks(land []float64, d, m int, gamma float64) (*Nystrom, error) {
	n := &Nystrom{d: d, m: m, gamma: gamma, land: land}
	K := make([]float64, m*m)
	for i := 0; i < m; i++ {
		n.kernelRow(K[i*m:(i+1)*m], land[i*d:(i+1)*d])
	}
	vals, vecs, err := eigSym(K, m)
	if err != nil {
		return nil, err
	}
	n.proj = make([]float64, m*m)
	cut := float64(m) * 0x1p-52 * vals[0]
	for j := 0; j < m && vals[j] > cut && vals[j] > 0; j++ {
		s := 1 / math.Sqrt(vals[j])
		row := n.proj[j*m : (j+1)*m]
		for i := range row {
			row[i] = float64(vecs[i*m+j] * s)
		}
		n.rank++
	}
	return n, nil
}

// kernelRow sets k[i] = exp(−γ‖x − l_i‖²) for every landmark, the squared
// distance summed in index order with every product rounded.
func (n *Nystrom) kernelRow(k, x []float64) {
	d := n.d
	x = x[:d]
	for i := range k[:n.m] {
		l := n.land[i*d : (i+1)*d]
		var s float64
		for j, v := range x {
			t := v - l[j]
			s += float64(t * t)
		}
		k[i] = float64(-n.gamma * s)
	}
	trig.Exp(k[:n.m], k[:n.m])
}

// uniformRows draws m distinct indices of [0, n) (a partial Fisher–Yates
// shuffle), in draw order.
func uniformRows(n, m int, r *rand.Rand) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < m; i++ {
		j := i + r.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm[:m]
}

// kmeansPP draws m distinct row indices of X by k-means++ seeding.
func kmeansPP(X Matrix, m int, r *rand.Rand) []int {
	n := X.Rows
	dist := make([]float64, n) // squared distance to the nearest landmark
	taken := make([]bool, n)
	idx := make([]int, 0, m)
	add := func(c int) {
		idx = append(idx, c)
		taken[c] = true
		lc := X.Row(c)
		for i := 0; i < n; i++ {
			var s float64
			for j, v := range X.Row(i) {
				t := v - lc[j]
				s += float64(t * t)
			}
			if len(idx) == 1 || s < dist[i] {
				dist[i] = s
			}
		}
	}
	add(r.IntN(n))
	for len(idx) < m {
		var total float64
		for i, v := range dist {
			if !taken[i] {
				total += v
			}
		}
		c := -1
		if total > 0 && !math.IsInf(total, 0) {
			u := float64(r.Float64() * total)
			var acc float64
			for i, v := range dist {
				if taken[i] || v == 0 {
					continue
				}
				acc += v
				c = i
				if acc > u {
					break
				}
			}
		} else {
			// Every free row coincides with a landmark (or the distances
			// overflow): draw uniformly among the free rows.
			k := r.IntN(n - len(idx))
			for i := range taken {
				if !taken[i] {
					if k == 0 {
						c = i
						break
					}
					k--
				}
			}
		}
		add(c)
	}
	return idx
}

// Inputs is d.
func (n *Nystrom) Inputs() int { return n.d }

// Outputs is m, the number of landmarks (features beyond Rank are 0).
func (n *Nystrom) Outputs() int { return n.m }

// Rank is the number of eigenvalues kept (features not identically 0).
func (n *Nystrom) Rank() int { return n.rank }

// Gamma is the kernel bandwidth γ.
func (n *Nystrom) Gamma() float64 { return n.gamma }

// Landmarks returns the m×d landmarks (row-major); the caller must not
// modify them.
func (n *Nystrom) Landmarks() []float64 { return n.land }

// Projection returns the m×m matrix P (row-major) of the map: the
// features of x are P·k(x), k(x) the m kernel values exp(−γ‖x − l_i‖²);
// row j is λ_j^{−1/2}·u_j for the kept eigenpairs and 0 beyond Rank. The
// caller must not modify it.
func (n *Nystrom) Projection() []float64 { return n.proj }

// TransformRowWork writes the Outputs() features of x (len d) into dst,
// using work (len ≥ Outputs()) as scratch. It allocates nothing.
func (n *Nystrom) TransformRowWork(dst, x, work []float64) {
	k := work[:n.m]
	n.kernelRow(k, x)
	dst = dst[:n.m]
	for j := range dst {
		if j < n.rank {
			dst[j] = xmath.DotRound(n.proj[j*n.m:(j+1)*n.m], k)
		} else {
			dst[j] = 0
		}
	}
}

// TransformRow is TransformRowWork with pooled scratch: after warm-up it
// allocates nothing.
func (n *Nystrom) TransformRow(dst, x []float64) {
	w, _ := n.pool.Get().(*[]float64)
	if w == nil {
		s := make([]float64, n.m)
		w = &s
	}
	n.TransformRowWork(dst, x, *w)
	n.pool.Put(w)
}

// Transform writes the features of every row of X into dst (X.Rows ×
// Outputs()). Large inputs are split across goroutines in fixed chunks of
// rows; rows are independent, so the result does not depend on GOMAXPROCS.
func (n *Nystrom) Transform(dst, X Matrix) error {
	if err := checkTransform(dst, X, n.d, n.m); err != nil {
		return err
	}
	if !parallel(X.Rows, n.m*(n.d+n.m)) {
		for i := 0; i < X.Rows; i++ {
			n.TransformRow(dst.Row(i), X.Row(i))
		}
		return nil
	}
	forRows(X.Rows, func(lo, hi int) {
		work := make([]float64, n.m)
		for i := lo; i < hi; i++ {
			n.TransformRowWork(dst.Row(i), X.Row(i), work)
		}
	})
	return nil
}

// checkFinite returns an error naming the first NaN or ±Inf of X, or X's
// shape error.
func checkFinite(X Matrix) error {
	if err := X.Check(); err != nil {
		return err
	}
	for i := 0; i < X.Rows; i++ {
		for j, v := range X.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("featmap: X[%d,%d] = %v: data must be finite", i, j, v)
			}
		}
	}
	return nil
}
