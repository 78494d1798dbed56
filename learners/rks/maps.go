package rks

import (
	"fmt"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// Map selects the feature map of a Config.
type Map string

// The maps. RFF, ORF and Laplacian draw Features random frequencies
// (featmap.NewRFF); the Nyström maps take Features landmarks among the
// standardised training rows (featmap.NewNystrom, so Features must not
// exceed the number of rows) and cost O(D³) to build and, on Load, to
// rebuild from the stored landmarks (seconds at D = 1000).
const (
	// RFF is the Gaussian random Fourier map √(2/D)·cos(Wᵀx + b),
	// W ~ N(0, 2γ) (Rahimi and Recht 2007), the default. It is stored as
	// "" in model files, which therefore read as before maps existed.
	RFF Map = "rff"
	// ORF draws the Gaussian frequencies as orthogonal random features
	// (Yu et al. 2016).
	ORF Map = "orf"
	// Laplacian is the random Fourier map of exp(−γ‖x−x'‖₁) (Cauchy
	// frequencies).
	Laplacian Map = "laplacian"
	// Nystrom is the Nyström map of the Gaussian kernel exp(−γ‖x−x'‖²)
	// on Features landmarks drawn uniformly from the training rows.
	Nystrom Map = "nystrom"
	// NystromKMeans is Nystrom with landmarks drawn by k-means++ seeding.
	NystromKMeans Map = "nystrom-kmeans++"
)

// checkMap is the Map part of Validate. The Nyström maps have a single
// read-out (no multiclass head).
func checkMap(m Map, task learners.Task) error {
	switch m {
	case "", RFF, ORF, Laplacian:
		return nil
	case Nystrom, NystromKMeans:
		if task == learners.Multiclass {
			return fmt.Errorf("rks: Map = %s supports the binary and regression tasks, not %v", m, task)
		}
		return nil
	}
	return fmt.Errorf("rks: unknown Map %q, want %q, %q, %q, %q or %q", m, RFF, ORF, Laplacian, Nystrom, NystromKMeans)
}

// nystrom reports whether m is a Nyström map.
func (m Map) nystrom() bool { return m == Nystrom || m == NystromKMeans }

// draw builds the map of the resolved config c on the standardised rows
// Z (n×d): b.nys for a Nyström map, else b.RFF.
func (b *body) draw(Z featmap.Matrix) (linrf.Map, error) {
	c := b.cfg
	n, d, D := Z.Rows, Z.Cols, c.Features
	var err error
	if c.Map.nystrom() {
		if D > n {
			return nil, fmt.Errorf("rks: Features = %d Nyström landmarks, more than the %d training rows", D, n)
		}
		s := featmap.Uniform
		if c.Map == NystromKMeans {
			s = featmap.KMeansPP
		}
		b.nys, err = featmap.NewNystrom(Z, featmap.NystromConfig{Inputs: d, Landmarks: D, Gamma: c.Gamma, Sampling: s, Seed: c.Seed})
	} else {
		rc := featmap.RFFConfig{Inputs: d, Features: D, Gamma: c.Gamma, Seed: c.Seed,
			Orthogonal: c.Map == ORF}
		if c.Map == Laplacian {
			rc.Kernel = featmap.Laplacian
		}
		b.RFF, err = featmap.NewRFF(rc)
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("rks: %w", err)
	case b.nys != nil:
		return b.nys, nil
	}
	return b.RFF, nil
}

// NewWork is the scratch of a Nyström score (features and kernel values),
// else linrf.Head's.
func (b *body) NewWork() any {
	if b.nys == nil {
		return b.Head.NewWork()
	}
	return make([]float64, b.nys.Outputs()+b.nys.Outputs())
}

// Score is coef·φ(z) + bias: the fused epilogue of linrf.Head for the
// random Fourier maps, the Nyström features then a dot product (products
// rounded on their own) for the Nyström maps.
func (b *body) Score(z []float64, w any) float64 {
	if b.nys == nil {
		return b.Head.Score(z, w)
	}
	buf := w.([]float64)
	D := b.nys.Outputs()
	b.nys.TransformRowWork(buf[:D], z, buf[D:])
	return xmath.DotRound(b.Coef, buf[:D]) + b.Bias
}

// encodeNystrom adds the arrays "landmarks" (D×d, standardised) and
// "coef" (D) and the meta value "bias".
func (b *body) encodeNystrom(e *kit.Encoder) {
	e.Array("landmarks", b.nys.Landmarks())
	e.Array("coef", b.Coef)
	e.Meta("bias", b.Bias)
}

// decodeNystrom reads what encodeNystrom wrote and rebuilds the map.
func (b *body) decodeNystrom(d *kit.Decoder) error {
	D := b.cfg.Features
	if d.Inputs > limit.Elements/D {
		return fmt.Errorf("%d inputs × %d landmarks overflow", d.Inputs, D)
	}
	land, coef, bias := d.Array("landmarks", D*d.Inputs), d.Array("coef", D), d.Meta("bias")
	if err := d.Err(); err != nil {
		return err
	}
	nys, err := featmap.NewNystromFromLandmarks(land, d.Inputs, D, b.cfg.Gamma)
	if err != nil {
		return err
	}
	b.nys, b.Coef, b.Bias = nys, coef, bias
	return nil
}
