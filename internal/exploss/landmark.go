package exploss

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
)

// Landmark evaluates the GBRFF1 landmark objective through the phase-shift
// trick. With P = XΩᵀ (the K projections of every sample, computed once per
// round) and a = Ωp for a landmark p,
//
//	L(a) = (1/n) Σ_i exp(−ỹ_i·(1/K) Σ_k cos(a_k − P_ik))
//
// and ∂L/∂a_k = (1/n) Σ_i ỹ_i·e_i·(1/K)·sin(a_k − P_ik); the caller maps it
// to ∂L/∂p = Ωᵀ ∂L/∂a. Only cos P and sin P are stored, so an evaluation
// costs one exp per sample plus 2K FMAs for the objective and 2K for the
// gradient.
type Landmark struct {
	// C and S are cos P and sin P, K×n row-major (row k is frequency k).
	C, S []float64
	K, N int
	yt   []float64
	part [][]float64 // per chunk: Σe, K sums over C, K over S
	// threads is the thread limit of the Data of the last Reset.
	threads int
	ca      []float64
	sa      []float64
}

// MaxLandmarkValues bounds K·N, the size of each of a Landmark's C and S
// (2²⁸ values, 2 GiB): NewLandmark refuses more with an error wrapping
// ErrShape instead of exhausting memory.
const MaxLandmarkValues = 1 << 28

func dataShape(x *Data) string {
	if x == nil {
		return "nil data"
	}
	return fmt.Sprintf("%d×%d data", x.N, x.D)
}

// NewLandmark takes the data, the K frequencies of the round (omega, K×d
// row-major, finite) and ỹ (len x.N, finite), and computes cos P and sin P
// for P_ik = ω_k·x_i.
func NewLandmark(x *Data, omega []float64, K int, yt []float64) (*Landmark, error) {
	if x == nil || K <= 0 || K > MaxLandmarkValues/x.N || len(omega) != K*x.D {
		return nil, fmt.Errorf("%w: Landmark with K %d and %d frequency values on %s", ErrShape, K, len(omega), dataShape(x))
	}
	n := x.N
	l := &Landmark{C: make([]float64, K*n), S: make([]float64, K*n), K: K, N: n,
		ca: make([]float64, K), sa: make([]float64, K)}
	l.part = make([][]float64, numChunks(n))
	for c := range l.part {
		l.part[c] = make([]float64, 1+2*K)
	}
	if err := l.Reset(x, omega, yt); err != nil {
		return nil, err
	}
	return l, nil
}

// Reset makes l the landmark of new frequencies omega (K×d row-major,
// finite) and targets yt (len N, finite) on data x of the same N rows,
// reusing l's K×N buffers: a boosting loop calls it once per round instead
// of NewLandmark, which would allocate them afresh. On error l is unusable
// until a successful Reset.
func (l *Landmark) Reset(x *Data, omega, yt []float64) error {
	K, n := l.K, l.N
	if x == nil || x.N != n || len(omega) != K*x.D || len(yt) != n {
		return fmt.Errorf("%w: Landmark of K %d on %d rows with %d frequency values and %d targets", ErrShape, K, n, len(omega), len(yt))
	}
	if err := checkFiniteSlice("omega", omega); err != nil {
		return err
	}
	if err := checkFiniteSlice("yt", yt); err != nil {
		return err
	}
	l.yt = yt
	l.threads = x.threads
	for k := 0; k < K; k++ {
		if err := x.Sincos(l.S[k*n:(k+1)*n], l.C[k*n:(k+1)*n], omega[k*x.D:(k+1)*x.D]); err != nil {
			return err
		}
	}
	return nil
}

// Eval returns L(a) and writes ∂L/∂a to grad (both len K).
func (l *Landmark) Eval(a, grad []float64) (float64, error) {
	K, n := l.K, l.N
	if len(a) != K || len(grad) != K {
		return 0, fmt.Errorf("%w: Landmark with a %d and gradient %d for K %d", ErrShape, len(a), len(grad), K)
	}
	invK := 1 / float64(K)
	for k, v := range a {
		s, c := xmath.Sincos(v)
		l.ca[k], l.sa[k] = float64(c*invK), float64(s*invK)
	}
	forChunks(l.threads, n, func(c, lo, hi int) {
		var acc [8]float64
		var stack [2 * maxStackInputs][8]float64
		var ac [][8]float64
		if 2*K <= len(stack) {
			ac = stack[:2*K]
		} else {
			ac = make([][8]float64, 2*K)
		}
		asm.LandmarkSums(l.yt[lo:hi], l.C[lo:], l.S[lo:], n, l.ca, l.sa, &acc, ac[:K], ac[K:])
		p := l.part[c]
		p[0] = asm.SumLanes(&acc)
		for k := range ac {
			p[1+k] = asm.SumLanes(&ac[k])
		}
	})
	var loss float64
	var sums [2 * maxStackInputs]float64
	var sc []float64
	if 2*K <= len(sums) {
		sc = sums[:2*K]
	} else {
		sc = make([]float64, 2*K)
	}
	for _, p := range l.part {
		loss += p[0]
		for k := range sc {
			sc[k] += p[1+k]
		}
	}
	inv := 1 / float64(n)
	for k := 0; k < K; k++ {
		// sin(a−P) = sin a·cos P − cos a·sin P; sa, ca already carry 1/K.
		grad[k] = float64(float64(l.sa[k]*sc[k])-float64(l.ca[k]*sc[K+k])) * inv
	}
	return float64(loss * inv), nil
}

// FeatureLosses writes ℓ_k = (1/n) Σ_i exp(−ỹ_i·cos(a_k − P_ik)) for every
// k to dst: the per-frequency losses that GBRFF1 turns into the weights q.
func (l *Landmark) FeatureLosses(dst, a []float64) error {
	K, n := l.K, l.N
	if len(a) != K || len(dst) != K {
		return fmt.Errorf("%w: FeatureLosses with a %d and dst %d for K %d", ErrShape, len(a), len(dst), K)
	}
	for k := range a {
		s, c := xmath.Sincos(a[k])
		ph := Phase{c: l.C[k*n : (k+1)*n], s: l.S[k*n : (k+1)*n], yt: l.yt, part: make([][2]float64, numChunks(n)), threads: l.threads}
		f, _ := ph.EvalCS(c, s)
		dst[k] = float64(f / float64(n))
	}
	return nil
}
