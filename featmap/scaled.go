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
