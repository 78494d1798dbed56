package featmap

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/internal/xrand"
)

// Scaled is a random Fourier map with learnable per-input scales γ:
//
//	θ_j(x) = Σ_k E_kj·γ_k·x_k + b_j,   z(x) = s·cos θ(x)   (or s·[cos θ, sin θ])
//
// with fixed noise E ~ N(0, 1) (d×D) and phases b ~ U[0, 2π) (none for the
// pair form). This is SRFF's z(x) = √(2/D)·cos(E(γ⊙x) + b) and, with
// γ = exp(γ̃) and the pair form, RRF's reparameterised features. SetScales
// folds γ into the frequencies once (W_kj = γ_k·E_kj), so Transform costs
// what an ordinary RFF costs. A Scaled is not safe for concurrent use while
// SetScales runs.
type Scaled struct {
	e     []float64 // d×D noise
	gamma []float64
	rff   *RFF // frequencies W = diag(γ)·E
}

// NewScaled draws the noise and phases and starts at γ = 1.
func NewScaled(inputs, features int, pair bool, seed uint64) (*Scaled, error) {
	if err := CheckSize(inputs, features); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x7363616c6564)) // "scaled"
	e := make([]float64, inputs*features)
	xrand.FillNormal(r, e)
	var b []float64
	if !pair {
		b = make([]float64, features)
		for j := range b {
			b[j] = 2 * math.Pi * r.Float64()
		}
	}
	rff, err := NewRFFFromWeights(e, b, inputs, features, pair)
	if err != nil {
		return nil, err
	}
	g := make([]float64, inputs)
	for i := range g {
		g[i] = 1
	}
	return &Scaled{e: e, gamma: g, rff: rff}, nil
}

// SetScales sets γ (len d, finite) and recomputes the frequencies.
func (s *Scaled) SetScales(gamma []float64) error {
	d, D := s.rff.d, s.rff.D
	if len(gamma) != d {
		return fmt.Errorf("%w: %d scales for %d inputs", ErrShape, len(gamma), d)
	}
	for k, g := range gamma {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return fmt.Errorf("featmap: scale %d is %v", k, g)
		}
	}
	copy(s.gamma, gamma)
	for k := 0; k < d; k++ {
		for j := 0; j < D; j++ {
			s.rff.w[k*D+j] = gamma[k] * s.e[k*D+j]
		}
	}
	s.rff.dropPanels() // Transform's packed copy of w is stale now
	return nil
}

// Scales returns γ; the caller must not modify it.
func (s *Scaled) Scales() []float64 { return s.gamma }

// Map is the current map (valid until the next SetScales).
func (s *Scaled) Map() *RFF { return s.rff }

// Transform is Map().Transform.
func (s *Scaled) Transform(dst, X Matrix) error { return s.rff.Transform(dst, X) }

// ScaleGradient sets grad_k = Σ_i u_i Σ_j v_j ∂z_j(x_i)/∂γ_k for the rows x_i of
// X, row weights u (len X.Rows) and feature weights v (len Outputs()):
//
//	∂(s·cos θ_j)/∂γ_k = −s·sin θ_j·E_kj·x_k,   ∂(s·sin θ_j)/∂γ_k = s·cos θ_j·E_kj·x_k
//
// For SRFF's J = (1/2n)‖y − Za‖², u = −r/n (r the residuals) and v = a give
// ∂J/∂γ; for RRF's log-scales multiply grad_k by γ_k. Rows are summed in
// fixed chunks combined in order, so the result does not depend on
// GOMAXPROCS. It allocates scratch space per call (a training-time routine).
func (s *Scaled) ScaleGradient(grad []float64, X Matrix, u, v []float64) error {
	m := s.rff
	d, D := m.d, m.D
	if err := X.check("X"); err != nil {
		return err
	}
	if X.Cols != d || len(grad) != d || len(u) != X.Rows || len(v) != m.Outputs() {
		return fmt.Errorf("%w: grad %d, X %d×%d, u %d, v %d for a %d→%d map",
			ErrShape, len(grad), X.Rows, X.Cols, len(u), len(v), d, m.Outputs())
	}
	chunks := (X.Rows + chunkRows - 1) / chunkRows
	partial := make([]float64, chunks*d)
	work := func(lo, hi int) {
		sin := make([]float64, D)
		cos := make([]float64, D)
		t := make([]float64, D)
		for c := lo / chunkRows; c*chunkRows < hi; c++ {
			acc := partial[c*d : (c+1)*d]
			for i := c * chunkRows; i < min(hi, (c+1)*chunkRows); i++ {
				x := X.Row(i)
				// sin θ = cos(θ − π/2) with the phases shifted: one fused pass.
				m.sinRow(sin, x)
				for j := 0; j < D; j++ {
					t[j] = -v[j] * sin[j]
				}
				if m.pair {
					m.cosRow(cos, x)
					for j := 0; j < D; j++ {
						t[j] = math.FMA(v[D+j], cos[j], t[j])
					}
				}
				for k := 0; k < d; k++ {
					row := s.e[k*D : (k+1)*D]
					var dot float64
					for j, tj := range t {
						dot = math.FMA(tj, row[j], dot)
					}
					acc[k] = math.FMA(u[i]*m.scale*x[k], dot, acc[k])
				}
			}
		}
	}
	if parallel(X.Rows, 3*d*D) {
		forRows(X.Rows, work)
	} else {
		work(0, X.Rows)
	}
	clear(grad)
	for c := 0; c < chunks; c++ {
		for k := range grad {
			grad[k] += partial[c*d+k]
		}
	}
	return nil
}
