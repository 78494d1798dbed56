package rfbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"
)

// Partial is a shard's (or, merged, the whole data's) part of a sum over
// rows: its row count, the distinct labels seen (at most three, sorted;
// binary tasks need exactly two) and the exact sums (an encoded exactVec).
// Partials merge exactly, in any order.
type Partial struct {
	N      int64
	Labels []float64
	Sums   []byte
}

// mergePartials adds b to a.
func mergePartials(a, b Partial) (Partial, error) {
	if a.Sums == nil {
		return b, nil
	}
	if b.Sums == nil {
		return a, nil
	}
	va, _, err := unmarshalExact(a.Sums)
	if err != nil {
		return Partial{}, err
	}
	vb, _, err := unmarshalExact(b.Sums)
	if err != nil {
		return Partial{}, err
	}
	if err := va.merge(vb); err != nil {
		return Partial{}, err
	}
	return Partial{N: a.N + b.N, Labels: mergeLabels(a.Labels, b.Labels), Sums: va.marshal()}, nil
}

// mergeLabels is the sorted union of two label sets, cut at three values
// (enough to tell a binary task it has too many classes).
func mergeLabels(a, b []float64) []float64 {
	out := slices.Clone(a)
	for _, v := range b {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), 3)]
}

// mergeFn combines Partials (the CombineFn of every pass).
type mergeFn struct{}

// MergeAccumulators adds two Partials.
func (*mergeFn) MergeAccumulators(a, b Partial) (Partial, error) { return mergePartials(a, b) }

// Standardization is the input standardisation every learner applies,
// (x − Mean)/Scale, computed over a distributed data set as
// learners.Standardize computes it on one machine (the mean, then the
// population standard deviation by the corrected two-pass formula, 1 for a
// constant column), from exact sums.
type Standardization struct {
	N           int64
	Mean, Scale []float64
	// Labels are the distinct labels seen, at most three, sorted.
	Labels []float64
}

// TrainOptions configures the distributed fits.
type TrainOptions struct {
	// Inputs is d, the number of features of every example (required):
	// an example of another length goes to the dead-letter output.
	Inputs int
	// Shards is the number of groups the examples are split into (by
	// Index mod Shards), each accumulated by one worker; 0 → 1. The
	// result does not depend on it.
	Shards int
}

func (o TrainOptions) check() (TrainOptions, error) {
	if o.Inputs <= 0 {
		return o, fmt.Errorf("rfbeam: TrainOptions.Inputs = %d, want the number of features (> 0)", o.Inputs)
	}
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Shards < 0 || o.Shards > MaxShards {
		return o, fmt.Errorf("rfbeam: TrainOptions.Shards = %d, want 1 to %d", o.Shards, MaxShards)
	}
	return o, nil
}

// shardExamples drops (to the dead letters) the examples of the wrong
// length or with a value that is not finite, and groups the others into
// shards.
func shardExamples(s beam.Scope, opt TrainOptions, examples beam.PCollection) (grouped, bad beam.PCollection) {
	keyed, bad := beam.ParDo2(s, &checkExampleFn{Inputs: opt.Inputs, Shards: opt.Shards}, examples)
	return beam.GroupByKey(s, keyed), bad
}

// Standardize computes the standardisation statistics of the examples
// (two passes over the shards: the sums, then the spread about the mean)
// and returns a PCollection of one Standardization, and the dead-letter
// examples.
func Standardize(s beam.Scope, opt TrainOptions, examples beam.PCollection) (std, bad beam.PCollection, err error) {
	if opt, err = opt.check(); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	s = s.Scope("rfbeam.Standardize")
	grouped, bad := shardExamples(s, opt, examples)
	p1, p2 := standardPasses(s, opt, grouped)
	return beam.ParDo(s, &standardizationFn{}, p1, beam.SideInput{Input: p2}), bad, nil
}

// standardPasses returns the merged Partials of pass 1 (N, labels, Σx) and
// pass 2 (Σ(x − mean)², Σ(x − mean)).
func standardPasses(s beam.Scope, opt TrainOptions, grouped beam.PCollection) (p1, p2 beam.PCollection) {
	p1 = beam.Combine(s, &mergeFn{}, beam.ParDo(s, &sumFn{D: opt.Inputs}, grouped))
	p2 = beam.Combine(s, &mergeFn{}, beam.ParDo(s, &spreadFn{D: opt.Inputs}, grouped, beam.SideInput{Input: p1}))
	return p1, p2
}

type checkExampleFn struct{ Inputs, Shards int }

func (f *checkExampleFn) ProcessElement(e Example, emit func(int, Example), dead func(BadRow)) {
	reason := ""
	switch {
	case len(e.X) != f.Inputs:
		reason = fmt.Sprintf("%d inputs, want %d", len(e.X), f.Inputs)
	case math.IsNaN(e.Y) || math.IsInf(e.Y, 0):
		reason = fmt.Sprintf("the label is %v", e.Y)
	default:
		for j, v := range e.X {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				reason = fmt.Sprintf("input %d is %v", j, v)
				break
			}
		}
	}
	if reason != "" {
		dead(BadRow{Source: e.Source, Index: e.Index, Reason: reason})
		return
	}
	emit(int(uint64(e.Index)%uint64(f.Shards)), e)
}

// sumFn is pass 1 over a shard: N, the labels, Σx.
type sumFn struct{ D int }

func (f *sumFn) ProcessElement(_ int, it func(*Example) bool) Partial {
	v := newExactVec(f.D)
	var p Partial
	var e Example
	for it(&e) {
		for j, x := range e.X {
			v.add(j, x)
		}
		v.step()
		p.N++
		if len(p.Labels) < 3 && !slices.Contains(p.Labels, e.Y) {
			p.Labels = mergeLabels(p.Labels, []float64{e.Y})
		}
	}
	p.Sums = v.marshal()
	return p
}

// means returns Σx/N of pass 1.
func means(p1 Partial, d int) ([]float64, error) {
	if p1.N == 0 {
		return nil, errors.New("rfbeam: no training examples")
	}
	v, _, err := unmarshalExact(p1.Sums)
	if err != nil {
		return nil, err
	}
	if v.len() != d {
		return nil, fmt.Errorf("rfbeam: %d sums for %d inputs", v.len(), d)
	}
	mean := v.floats()
	for j := range mean {
		mean[j] /= float64(p1.N)
	}
	return mean, nil
}

// spreadFn is pass 2 over a shard: Σ(x − mean)² and Σ(x − mean), the
// sums of learners.Standardize's corrected two-pass formula.
type spreadFn struct {
	D    int
	mean []float64
}

func (f *spreadFn) ProcessElement(_ int, it func(*Example) bool, p1 Partial) (Partial, error) {
	if f.mean == nil {
		m, err := means(p1, f.D)
		if err != nil {
			return Partial{}, err
		}
		f.mean = m
	}
	v := newExactVec(2 * f.D)
	var n int64
	var e Example
	for it(&e) {
		for j, x := range e.X {
			dv := x - f.mean[j]
			v.add(j, float64(dv*dv))
			v.add(f.D+j, dv)
		}
		v.step()
		n++
	}
	return Partial{N: n, Sums: v.marshal()}, nil
}

// standardization finishes the statistics of passes 1 and 2.
func standardization(p1, p2 Partial, d int) (Standardization, error) {
	mean, err := means(p1, d)
	if err != nil {
		return Standardization{}, err
	}
	v, _, err := unmarshalExact(p2.Sums)
	if err != nil {
		return Standardization{}, err
	}
	sums := v.floats()
	n := float64(p1.N)
	scale := make([]float64, d)
	for j := range scale {
		ss, sc := sums[j], sums[d+j]
		sd := math.Sqrt(math.Max(0, (ss-float64(sc*sc)/n)/n))
		switch {
		case math.IsNaN(sd) || math.IsInf(sd, 0) || math.IsInf(mean[j], 0) || math.IsNaN(mean[j]):
			return Standardization{}, fmt.Errorf("rfbeam: column %d: mean or standard deviation overflows float64", j)
		case sd == 0:
			sd = 1
		}
		scale[j] = sd
	}
	return Standardization{N: p1.N, Mean: mean, Scale: scale, Labels: p1.Labels}, nil
}

type standardizationFn struct{}

func (*standardizationFn) ProcessElement(p1, p2 Partial) (Standardization, error) {
	v, _, err := unmarshalExact(p1.Sums)
	if err != nil {
		return Standardization{}, err
	}
	return standardization(p1, p2, v.len())
}

// RKSModel fits rks (Random Kitchen Sinks) with the ridge loss on the
// examples by sufficient statistics, and returns a PCollection of one
// model file (the bytes rks.Model.MarshalBinary writes) and the
// dead-letter examples. Three passes run over the shards: the
// standardisation statistics (two) and the ridge system ZᵀZ, Zᵀt, Σz, Σt
// of the random features z; every sum is exact, so the model has the same
// bits whatever Shards and the runner's bundling. A single worker then
// solves the D×D system (Cholesky, fixed order) as rks.Fit's ridge solver
// does. The coefficients equal rks.Fit's on the same rows within rks.Fit's
// own rounding (it sums in float64 in row order; measured on 10⁵ rows:
// 3.3e-12 of max|coef|, while rks.Fit on the same rows permuted moves by
// 5.2e-12).
//
// cfg is rks.Config with Loss rks.Ridge (binary, on ±1 labels) or the
// Regression task; the logistic loss is no sum over rows and is refused.
// Memory: D(D+1)/2 exact sums of 536 bytes per shard, so Features is at
// most MaxRKSFeatures.
func RKSModel(s beam.Scope, cfg rks.Config, opt TrainOptions, examples beam.PCollection) (model, bad beam.PCollection, err error) {
	if opt, err = opt.check(); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	if err := cfg.Validate(); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	if cfg.Loss == rks.Logistic || (cfg.Loss == "" && cfg.Task == learners.Binary) {
		return beam.PCollection{}, beam.PCollection{}, errors.New("rfbeam: RKSModel fits the ridge loss only (the logistic loss is no sum over rows): set Loss to rks.Ridge")
	}
	if cfg.Features > MaxRKSFeatures {
		return beam.PCollection{}, beam.PCollection{}, fmt.Errorf("rfbeam: %d features, at most %d (the exact D×D sums take D²·268 bytes per shard)", cfg.Features, MaxRKSFeatures)
	}
	cfg.Progress = nil
	cj, err := newCfgJSON(cfg)
	if err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	s = s.Scope("rfbeam.RKSModel")
	grouped, bad := shardExamples(s, opt, examples)
	p1, p2 := standardPasses(s, opt, grouped)
	gram := beam.Combine(s, &mergeFn{}, beam.ParDo(s, &gramFn{D: opt.Inputs, Cfg: cj}, grouped,
		beam.SideInput{Input: p1}, beam.SideInput{Input: p2}))
	model = beam.ParDo(s, &solveFn{D: opt.Inputs, Cfg: cj}, gram, beam.SideInput{Input: p1}, beam.SideInput{Input: p2})
	return model, bad, nil
}

// cfgJSON carries an rks.Config in a DoFn (its Progress field is no
// Beam type).
type cfgJSON struct{ JSON []byte }

func newCfgJSON(cfg rks.Config) (cfgJSON, error) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return cfgJSON{}, fmt.Errorf("rfbeam: %w", err)
	}
	return cfgJSON{JSON: b}, nil
}

func (c cfgJSON) config() (rks.Config, error) {
	var cfg rks.Config
	if err := json.Unmarshal(c.JSON, &cfg); err != nil {
		return cfg, fmt.Errorf("rfbeam: rks config: %w", err)
	}
	return cfg, nil
}

// MaxRKSFeatures is the largest Features RKSModel accepts.
const MaxRKSFeatures = 2048

// rksSetup is what passes 3 and the solve derive from passes 1 and 2.
type rksSetup struct {
	std    Standardization
	labels learners.Labels
	rff    *featmap.RFF
	D      int // resolved features
	lambda float64
}

func newRKSSetup(cfg rks.Config, d int, p1, p2 Partial) (*rksSetup, error) {
	std, err := standardization(p1, p2, d)
	if err != nil {
		return nil, err
	}
	u := &rksSetup{std: std, D: cfg.Features, lambda: cfg.Lambda}
	if u.D == 0 {
		u.D = rks.DefaultFeatures
	}
	if u.lambda == 0 {
		u.lambda = rks.DefaultLambda
	}
	gamma := cfg.Gamma
	if gamma == 0 {
		gamma = 1 / float64(d)
	}
	if cfg.Task == learners.Binary {
		if len(std.Labels) != 2 {
			return nil, fmt.Errorf("rfbeam: binary classification needs exactly two classes, the labels have %s", labelsPhrase(std.Labels))
		}
		if u.labels, err = learners.NewLabels(std.Labels[0], std.Labels[1]); err != nil {
			return nil, fmt.Errorf("rfbeam: %w", err)
		}
	}
	if u.rff, err = featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: u.D, Gamma: gamma, Seed: cfg.Seed}); err != nil {
		return nil, fmt.Errorf("rfbeam: %w", err)
	}
	return u, nil
}

func labelsPhrase(l []float64) string {
	switch len(l) {
	case 1:
		return fmt.Sprintf("one value (%v)", l[0])
	case 2:
		return fmt.Sprintf("%v and %v", l[0], l[1])
	}
	return fmt.Sprintf("more than two values (%v, %v, %v, …)", l[0], l[1], l[2])
}

// gram layout: the upper triangle of ZᵀZ row by row, then Σz, Zᵀt, Σt.
func gramLen(D int) int { return D*(D+1)/2 + 2*D + 1 }

// gramFn is pass 3 over a shard: the ridge system of the random features.
type gramFn struct {
	D   int
	Cfg cfgJSON

	u *rksSetup
}

func (f *gramFn) ProcessElement(_ int, it func(*Example) bool, p1, p2 Partial) (Partial, error) {
	cfg, err := f.Cfg.config()
	if err != nil {
		return Partial{}, err
	}
	if f.u == nil {
		u, err := newRKSSetup(cfg, f.D, p1, p2)
		if err != nil {
			return Partial{}, err
		}
		f.u = u
	}
	u, D := f.u, f.u.D
	v := newExactVec(gramLen(D))
	tri := D * (D + 1) / 2
	x := make([]float64, f.D)
	z := make([]float64, D)
	var n int64
	var e Example
	for it(&e) {
		for j, xv := range e.X {
			x[j] = (xv - u.std.Mean[j]) / u.std.Scale[j]
		}
		u.rff.TransformRow(z, x)
		t := e.Y
		if cfg.Task == learners.Binary {
			t = -1
			if e.Y == u.labels.Pos {
				t = 1
			}
		}
		k := 0
		for j, zj := range z {
			for _, zl := range z[j:] {
				v.add(k, float64(zj*zl))
				k++
			}
			v.add(tri+j, zj)
			v.add(tri+D+j, float64(zj*t))
		}
		v.add(tri+2*D, t)
		v.step()
		n++
	}
	return Partial{N: n, Sums: v.marshal()}, nil
}

// solveFn solves the ridge system and assembles the model file.
type solveFn struct {
	D   int
	Cfg cfgJSON
}

func (f *solveFn) ProcessElement(g, p1, p2 Partial, emit func([]byte)) error {
	cfg, err := f.Cfg.config()
	if err != nil {
		return err
	}
	u, err := newRKSSetup(cfg, f.D, p1, p2)
	if err != nil {
		return err
	}
	D := u.D
	v, _, err := unmarshalExact(g.Sums)
	if err != nil {
		return err
	}
	if v.len() != gramLen(D) || g.N != p1.N {
		return fmt.Errorf("rfbeam: ridge sums of %d rows and %d terms, want %d rows and %d", g.N, v.len(), p1.N, gramLen(D))
	}
	sums := v.floats()
	tri := D * (D + 1) / 2
	n := float64(g.N)
	sz, szt, st := sums[tri:tri+D], sums[tri+D:tri+2*D], sums[tri+2*D]
	// (ZcᵀZc + λnI) w = Zcᵀ(t − t̄), Zc the features less their means.
	a := make([]float64, D*D)
	k := 0
	for j := range D {
		for l := j; l < D; l++ {
			c := sums[k] - float64(sz[j]*sz[l])/n
			a[j*D+l], a[l*D+j] = c, c
			k++
		}
	}
	reg := float64(u.lambda * n)
	for j := range D {
		a[j*D+j] += reg
	}
	w := make([]float64, D)
	for j := range w {
		w[j] = szt[j] - float64(sz[j]*st)/n
	}
	if err := choleskySolve(a, w, D); err != nil {
		return fmt.Errorf("rfbeam: rks ridge: %w", err)
	}
	tbar := st / n
	bias := tbar
	for j := range w {
		bias -= float64(sz[j] / n * w[j])
	}
	c := learners.Common{Task: cfg.Task, Labels: u.labels, Mean: u.std.Mean, Scale: u.std.Scale}
	m, err := rks.Assemble(cfg, c, w, bias)
	if err != nil {
		return fmt.Errorf("rfbeam: %w", err)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	emit(data)
	return nil
}

// choleskySolve solves A w = b in place (b becomes w) for a symmetric
// positive definite n×n A (row-major, overwritten by its factor), in a
// fixed order with every product rounded on its own (no FMA), so the
// result has the same bits on every architecture.
func choleskySolve(a, b []float64, n int) error {
	for j := range n {
		s := a[j*n+j]
		for k := range j {
			s -= float64(a[j*n+k] * a[j*n+k])
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("the %d×%d system is not positive definite (pivot %d is %v): raise Lambda", n, n, j, s)
		}
		d := math.Sqrt(s)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := range j {
				s -= float64(a[i*n+k] * a[j*n+k])
			}
			a[i*n+j] = s / d
		}
	}
	for i := range n { // L y = b
		s := b[i]
		for k := range i {
			s -= float64(a[i*n+k] * b[k])
		}
		b[i] = s / a[i*n+i]
	}
	for i := n - 1; i >= 0; i-- { // Lᵀ w = y
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= float64(a[k*n+i] * b[k])
		}
		b[i] = s / a[i*n+i]
	}
	for i, x := range b {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("w[%d] = %v (overflow)", i, x)
		}
	}
	return nil
}

// WriteModel writes the one model file of model (as RKSModel returns it)
// to path through Beam's file systems.
func WriteModel(s beam.Scope, path string, model beam.PCollection) {
	beam.ParDo0(s.Scope("rfbeam.WriteModel"), &writeModelFn{Path: path}, model)
}

type writeModelFn struct{ Path string }

func (f *writeModelFn) ProcessElement(ctx context.Context, data []byte) error {
	return writeBytes(ctx, f.Path, data)
}

func init() {
	register.Combiner1[Partial](&mergeFn{})
	register.DoFn3x0[Example, func(int, Example), func(BadRow)](&checkExampleFn{})
	register.DoFn2x1[int, func(*Example) bool, Partial](&sumFn{})
	register.DoFn3x2[int, func(*Example) bool, Partial, Partial, error](&spreadFn{})
	register.DoFn2x2[Partial, Partial, Standardization, error](&standardizationFn{})
	register.DoFn4x2[int, func(*Example) bool, Partial, Partial, Partial, error](&gramFn{})
	register.DoFn4x1[Partial, Partial, Partial, func([]byte), error](&solveFn{})
	register.DoFn2x1[context.Context, []byte, error](&writeModelFn{})
	register.Emitter2[int, Example]()
	register.Emitter1[[]byte]()
	register.Iter1[Example]()
}
