package featmap

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/xrand"
)

// Kernel names the shift-invariant kernel whose spectral law RFF samples.
type Kernel int

const (
	// Gaussian is exp(−γ‖x−y‖²): frequencies ω ~ N(0, 2γ·I).
	Gaussian Kernel = iota
	// Laplacian is exp(−γ‖x−y‖₁): each coordinate of ω ~ Cauchy(0, γ).
	Laplacian
)

func (k Kernel) String() string {
	switch k {
	case Gaussian:
		return "gaussian"
	case Laplacian:
		return "laplacian"
	}
	return fmt.Sprintf("Kernel(%d)", int(k))
}

// RFFConfig describes a random Fourier feature map.
type RFFConfig struct {
	Inputs   int     // d, the input dimension (> 0)
	Features int     // D, the number of frequencies (> 0)
	Gamma    float64 // kernel bandwidth γ (> 0)
	Kernel   Kernel  // Gaussian (default) or Laplacian
	// Orthogonal draws Gaussian frequencies as orthogonal random features
	// (Yu et al. 2016): blocks of a random orthogonal matrix whose rows are
	// rescaled by independent χ_d norms. Gaussian kernel only.
	Orthogonal bool
	// Pair outputs [cos(ω·x), sin(ω·x)] (2·D features, scale √(1/D), no
	// phase) instead of √(2/D)·cos(ω·x + b).
	Pair bool
	Seed uint64 // the map is a pure function of the config and the seed
}

// Validate reports a configuration NewRFF would reject.
func (c RFFConfig) Validate() error {
	switch {
	case c.Inputs <= 0:
		return fmt.Errorf("featmap: Inputs = %d, must be positive", c.Inputs)
	case c.Features <= 0:
		return fmt.Errorf("featmap: Features = %d, must be positive", c.Features)
	case limit.CheckElements(c.Inputs, c.Features) != nil:
		return limit.CheckElements(c.Inputs, c.Features)
	case !(c.Gamma > 0) || math.IsInf(c.Gamma, 0):
		return fmt.Errorf("featmap: Gamma = %v, must be positive and finite", c.Gamma)
	case c.Kernel != Gaussian && c.Kernel != Laplacian:
		return fmt.Errorf("featmap: unknown kernel %v", c.Kernel)
	case c.Orthogonal && c.Inputs > limit.Elements/c.Inputs:
		return fmt.Errorf("featmap: orthogonal features of %d inputs need a %[1]d×%[1]d matrix, more than 2²⁸ weights", c.Inputs)
	case c.Orthogonal && c.Kernel != Gaussian:
		return fmt.Errorf("featmap: orthogonal features need the Gaussian kernel")
	}
	return nil
}

// RFF is z(x) = Scale·cos(Wᵀx + b), or the [cos, sin] pair form. W is stored
// d×D row-major: W[k*D+j] is coordinate k of frequency j, the layout the
// fused kernel streams.
type RFF struct {
	d, D  int
	w     []float64
	b     []float64
	bSin  []float64 // b − π/2: sin θ = cos(θ − π/2), for the pair form
	scale float64
	pair  bool

	// panels is w re-packed for the register-blocked kernel of Transform,
	// built on first use (TransformRow alone never needs it).
	panelsMu sync.Mutex
	panels   *asm.AffinePanels
}

// NewRFF samples a map. The draws come from internal/xrand (Box–Muller
// normals, Cauchy as sin/cos from package trig) and every product that feeds
// an addition is rounded on its own, so a seed gives the same map, bit for
// bit, on every architecture.
func NewRFF(c RFFConfig) (*RFF, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x7266666d6170)) // "rffmap"
	w := make([]float64, c.Inputs*c.Features)
	switch {
	case c.Orthogonal:
		orthogonalGaussian(w, c.Inputs, c.Features, math.Sqrt(2*c.Gamma), r)
	case c.Kernel == Laplacian:
		for i := range w {
			w[i] = c.Gamma * xrand.Cauchy(r)
		}
	default:
		sd := math.Sqrt(2 * c.Gamma)
		xrand.FillNormal(r, w)
		for i := range w {
			w[i] *= sd
		}
	}
	var b []float64
	if !c.Pair {
		b = make([]float64, c.Features)
		for j := range b {
			b[j] = 2 * math.Pi * r.Float64()
		}
	}
	return NewRFFFromWeights(w, b, c.Inputs, c.Features, c.Pair)
}

// NewRFFFromWeights builds a map from given frequencies (d×D row-major) and
// phases (len D; nil for the pair form), e.g. learned ones or ones read from a
// model file. The slices are copied.
func NewRFFFromWeights(w, b []float64, inputs, features int, pair bool) (*RFF, error) {
	if err := limit.CheckElements(inputs, features); err != nil {
		return nil, err
	}
	if len(w) != inputs*features {
		return nil, fmt.Errorf("%w: %d weights for %d×%d", ErrShape, len(w), inputs, features)
	}
	m := &RFF{d: inputs, D: features, w: append([]float64(nil), w...), pair: pair}
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("featmap: weight %d is %v", i, v)
		}
	}
	if pair {
		if b != nil {
			return nil, fmt.Errorf("featmap: the pair form has no phases")
		}
		m.scale = math.Sqrt(1 / float64(features))
		m.b = make([]float64, features)
		m.bSin = make([]float64, features)
		for j := range m.bSin {
			m.bSin[j] = -math.Pi / 2
		}
		return m, nil
	}
	if len(b) != features {
		return nil, fmt.Errorf("%w: %d phases for %d features", ErrShape, len(b), features)
	}
	m.b = append([]float64(nil), b...)
	m.scale = math.Sqrt(2 / float64(features))
	return m, nil
}

// Inputs is d.
func (m *RFF) Inputs() int { return m.d }

// Outputs is D, or 2·D for the pair form.
func (m *RFF) Outputs() int {
	if m.pair {
		return 2 * m.D
	}
	return m.D
}

// Weights returns the frequencies (d×D row-major) and phases; the caller must
// not modify them.
func (m *RFF) Weights() (w, b []float64) { return m.w, m.b }

// Scale is the factor in front of the cosines.
func (m *RFF) Scale() float64 { return m.scale }

// TransformRow writes the Outputs() features of one input row x (len d) into
// dst. It checks nothing beyond what slicing checks: use it on hot paths after
// validating shapes once.
func (m *RFF) TransformRow(dst, x []float64) {
	asm.CosAffine(dst[:m.D], x, m.w, m.b, m.D, m.scale)
	if m.pair {
		asm.CosAffine(dst[m.D:2*m.D], x, m.w, m.bSin, m.D, m.scale)
	}
}

// Transform writes the features of every row of X into dst (X.Rows ×
// Outputs()). Large inputs are split across goroutines in fixed chunks of
// rows; the result does not depend on GOMAXPROCS.
func (m *RFF) Transform(dst, X Matrix) error {
	if err := checkTransform(dst, X, m.d, m.Outputs()); err != nil {
		return err
	}
	if !parallel(X.Rows, m.d*m.Outputs()+m.Outputs()*30) {
		m.transformRows(dst, X, 0, X.Rows)
		return nil
	}
	forRows(X.Rows, func(lo, hi int) { m.transformRows(dst, X, lo, hi) })
	return nil
}

// transformRows maps rows [lo, hi) with asm.CosAffineRows, which blocks
// rows together (one W load feeds several rows' FMAs) and gives each row the
// bits TransformRow gives it.
func (m *RFF) transformRows(dst, X Matrix, lo, hi int) {
	if hi <= lo {
		return
	}
	p := m.affinePanels()
	z, x := dst.Data[lo*dst.Stride:], X.Data[lo*X.Stride:]
	asm.CosAffineRows(z, dst.Stride, x, X.Stride, hi-lo, p, m.b, m.scale)
	if m.pair {
		asm.CosAffineRows(z[m.D:], dst.Stride, x, X.Stride, hi-lo, p, m.bSin, m.scale)
	}
}

// affinePanels returns w packed for asm.CosAffineRows, packing it once.
func (m *RFF) affinePanels() *asm.AffinePanels {
	m.panelsMu.Lock()
	defer m.panelsMu.Unlock()
	if m.panels == nil {
		m.panels = asm.NewAffinePanels(m.w, m.d, m.D, m.D)
	}
	return m.panels
}

// orthogonalGaussian fills w (d×D, row-major: column j is frequency j) with
// blocks of d orthonormal directions, each scaled by sd times an independent
// χ_d draw (the norm of a d-dimensional standard normal vector), so every
// frequency is marginally N(0, sd²·I) while a block's directions are
// orthogonal.
func orthogonalGaussian(w []float64, d, D int, sd float64, r *rand.Rand) {
	q := make([]float64, d*d) // rows are the directions
	g := make([]float64, d)
	for j0 := 0; j0 < D; j0 += d {
		xrand.FillNormal(r, q)
		gramSchmidt(q, d)
		for j := j0; j < min(D, j0+d); j++ {
			xrand.FillNormal(r, g)
			var n2 float64
			for _, v := range g {
				n2 += float64(v * v)
			}
			norm := sd * math.Sqrt(n2)
			row := q[(j-j0)*d : (j-j0+1)*d]
			for k := 0; k < d; k++ {
				w[k*D+j] = norm * row[k]
			}
		}
	}
}

// gramSchmidt orthonormalises the d rows of the d×d matrix q in place
// (modified Gram–Schmidt, applied twice for stability).
func gramSchmidt(q []float64, d int) {
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < d; i++ {
			ri := q[i*d : (i+1)*d]
			for j := 0; j < i; j++ {
				rj := q[j*d : (j+1)*d]
				var dot float64
				for k := range ri {
					dot += float64(ri[k] * rj[k])
				}
				for k := range ri {
					ri[k] -= float64(dot * rj[k])
				}
			}
			var n2 float64
			for _, v := range ri {
				n2 += float64(v * v)
			}
			inv := 1 / math.Sqrt(n2)
			for k := range ri {
				ri[k] *= inv
			}
		}
	}
}
