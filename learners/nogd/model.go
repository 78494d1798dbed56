package nogd

import (
	"fmt"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "landmarks" (B×d, standardised), "coef" (B averaged weights). Load
// rebuilds the Nyström map from the landmarks (the same bits; O(B³)).
const modelVersion = 1

// Model is a fitted NOGD model: score(x) = w̄·z((x − mean)/scale), z the
// Nyström features. Probability is NaN (the hinge loss estimates none).
// Obtain one from Fit or Load.
// Its methods are learners.Base's, whose doc gives the contract (immutable,
// safe for concurrent use, allocation-free Predict and Score, NaN inputs,
// multiclass scores); a Model must not be copied.
type Model struct {
	learners.Base[body, *body]
}

// Config returns the configuration the model was fitted with, defaults
// resolved.
func (m *Model) Config() Config { return m.Body().cfg }

// Load decodes a model file; see learners.Base.UnmarshalBinary for its errors.
func Load(data []byte) (*Model, error) { return learners.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg  Config
	nys  *featmap.Nystrom
	coef []float64
}

func (*body) Spec() learners.Spec {
	return learners.Spec{Name: Name, Methods: []string{Name}, Version: modelVersion}
}

// NewWork is the scratch of a score: the features and the kernel values.
func (b *body) NewWork() any { return make([]float64, b.nys.Outputs()+b.nys.WorkLen()) }

// Score is w̄·z(x), summed in index order with every product rounded, as
// during training.
func (b *body) Score(z []float64, w any) float64 {
	buf := w.([]float64)
	B := b.nys.Outputs()
	b.nys.TransformRowWork(buf[:B], z, buf[B:])
	return xmath.DotRound(b.coef, buf[:B])
}

func (b *body) Encode(e *learners.Encoder) error {
	e.Array("landmarks", b.nys.Landmarks())
	e.Array("coef", b.coef)
	return e.Config(b.cfg)
}

func (b *body) Decode(d *learners.Decoder) error {
	if err := d.ValidConfig(&b.cfg); err != nil {
		return err
	}
	c := b.cfg
	switch {
	case c.Budget == 0 || c.Gamma == 0 || c.Eta == 0 || c.Epochs == 0 || c.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", c)
	case c.Task != d.Task:
		return fmt.Errorf("config task %v, header task %v", c.Task, d.Task)
	case d.Inputs > featmap.MaxElements/c.Budget:
		return fmt.Errorf("%d inputs × %d landmarks overflow", d.Inputs, c.Budget)
	}
	land, coef := d.Array("landmarks", c.Budget*d.Inputs), d.Array("coef", c.Budget)
	if err := d.Err(); err != nil {
		return err
	}
	nys, err := featmap.NewNystromFromLandmarks(land, d.Inputs, c.Budget, c.Gamma)
	if err != nil {
		return err
	}
	d.Link = learners.NoProbability
	b.nys, b.coef = nys, coef
	return nil
}

func init() {
	learners.Define(Name, "Nyström online gradient descent: Gaussian Nyström features on the first B rows, hinge-gated online steps, averaged weights (Lu et al. 2016)",
		func() *Config { return new(Config) }, Fit, Load)
}
