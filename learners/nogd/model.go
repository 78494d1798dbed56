package nogd

import (
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/ogd"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "landmarks" (B×d, standardised), "coef" (B averaged weights). Load
// rebuilds the Nyström map from the landmarks (the same bits; O(B³)).
//
// Version 2 adds the Learner's state, so that Resume continues exactly:
// "wt" (B current weights), "wsum" (B, the running sum Σ_t w_t) and the
// header scalar "steps" (T); "coef" must be wsum/T (wt when T = 0). A
// model snapshotted before the B-th row has the header scalar "kept" = k <
// B, k×d rows in "landmarks", their internal targets in "targets" (k), no
// map (it scores 0), and zero weights. A version 1 file keeps version 1
// and re-saves to its own bytes; it cannot be resumed.
const modelVersion = 2

//go:generate go run ../../internal/tools/modelmethods

// Model is a NOGD model: score(x) = w̄·z((x − mean)/scale), z the Nyström
// features. It is immutable and
// safe for concurrent use; Predict, Score and their batch forms allocate
// nothing. Probability is NaN (the hinge loss estimates none). Obtain one
// from Fit, Learner.Snapshot or Load; Resume (or Fit with Config.Resume)
// continues learning from one of file version 2. A Model must not be
// copied.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	version int // of the file it was read from (0 for a zero body)
	cfg     Config
	nys     *featmap.Nystrom // nil before the B-th row
	coef    []float64
	// The Learner's state (version 2; nil for version 1): current
	// weights, their running sum, the number of steps; before the map,
	// the rows kept and their targets.
	wt, wsum   []float64
	steps      int
	land, pend []float64
}

// Spec gives the file version this body writes: the one it was read from,
// so that old files re-save to their own bytes; a new model (and the zero
// body, whose Spec bounds what Load reads) has the current one.
func (b *body) Spec() kit.Spec { return ogd.Spec(methodName, b.version, modelVersion) }

// NewWork is the scratch of a score: the features and the kernel values.
func (b *body) NewWork() any {
	if b.nys == nil {
		return []float64(nil)
	}
	return make([]float64, b.nys.Outputs()+b.nys.Outputs())
}

// Score is w̄·z(x), summed in index order with every product rounded, as
// during training (0 before the map).
func (b *body) Score(z []float64, w any) float64 {
	if b.nys == nil {
		return 0
	}
	buf := w.([]float64)
	B := b.nys.Outputs()
	b.nys.TransformRowWork(buf[:B], z, buf[B:])
	return xmath.DotRound(b.coef, buf[:B])
}

func (b *body) Configuration() kit.Validator { return &b.cfg }

func (b *body) Encode(e *kit.Encoder) error {
	if b.nys != nil {
		e.Array("landmarks", b.nys.Landmarks())
	} else {
		e.Array("landmarks", b.land)
		e.Array("targets", b.pend)
		e.Meta("kept", float64(len(b.pend)))
	}
	e.Array("coef", b.coef)
	if b.version >= 2 {
		ogd.WriteState(e, b.wt, b.wsum, b.steps)
	}
	return nil
}

func (b *body) Decode(d *kit.Decoder) error {
	c := b.cfg
	switch {
	case c.Budget == 0 || c.Gamma == 0 || c.Eta == 0 || c.Epochs == 0 || c.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", c)
	case c.Task != d.Task:
		return fmt.Errorf("config task %v, header task %v", c.Task, d.Task)
	case d.Inputs > limit.Elements/c.Budget:
		return fmt.Errorf("%d inputs × %d landmarks overflow", d.Inputs, c.Budget)
	}
	B, k := c.Budget, c.Budget
	if d.Version >= 2 && d.Has("targets") {
		kept := d.Meta("kept")
		if err := d.Err(); err != nil {
			return err
		}
		if !(kept >= 0 && kept < float64(B)) || kept != math.Trunc(kept) {
			return fmt.Errorf("kept = %v rows, want an integer in [0, %d)", kept, B)
		}
		k = int(kept)
	}
	land, coef := d.Array("landmarks", k*d.Inputs), d.Array("coef", B)
	var pend []float64
	if d.Version >= 2 && k < B {
		pend = d.Array("targets", k)
	}
	if err := d.Err(); err != nil {
		return err
	}
	wt, wsum, n, err := ogd.ReadState(d, "coef", coef, B)
	if err != nil {
		return err
	}
	if d.Version >= 2 {
		if k < B && (n != 0 || slices.ContainsFunc(wt, nonzero) || slices.ContainsFunc(wsum, nonzero)) {
			return fmt.Errorf("%d steps and non-zero weights before the %d landmarks were kept", n, B)
		}
		for i, v := range pend {
			if v != 1 && v != -1 && c.Task == learners.Binary || !xmath.Finite(v) {
				return fmt.Errorf("targets[%d] = %v", i, v)
			}
		}
		for i, v := range land[:len(pend)*d.Inputs] {
			if !xmath.Finite(v) {
				return fmt.Errorf("landmarks[%d] = %v", i, v)
			}
		}
	}
	var nys *featmap.Nystrom
	if k == B {
		var err error
		if nys, err = featmap.NewNystromFromLandmarks(land, d.Inputs, B, c.Gamma); err != nil {
			return err
		}
		land = nil
	}
	if c.Task == learners.Binary {
		c.Labels = d.Labels
	}
	d.Link = kit.NoProbability
	*b = body{version: d.Version, cfg: c, nys: nys, coef: coef, wt: wt, wsum: wsum, steps: n, land: land, pend: pend}
	return nil
}

func init() {
	kit.Define(methodName, "Nyström online gradient descent: Gaussian Nyström features on the first B rows, hinge-gated online steps, averaged weights (Lu et al. 2016)", []learners.Task{learners.Binary, learners.Regression},
		func() *Config { return new(Config) }, Fit, Load)
}

func nonzero(v float64) bool { return v != 0 }
