package rfbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/exactsum"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rks"
)

// Partial is a block's (or, merged, the whole data's) part of a sum over
// rows: its row count, the distinct labels seen (at most three, sorted;
// binary tasks need exactly two) and the exact sums (an encoded
// exactsum.Vec) of its float64 sums. Partials merge exactly, in any order.
type Partial struct {
	N      int64
	Labels []float64
	Sums   []byte
}

// exactPartial is the Partial of n rows with labels and the float64 sums.
func exactPartial(n int64, labels, sums []float64) (Partial, error) {
	v := exactsum.New(len(sums))
	v.AddSlice(0, sums)
	enc, err := v.MarshalBinary()
	return Partial{N: n, Labels: labels, Sums: enc}, err
}

// floats returns the sums of p rounded, checking that there are want.
func (p Partial) floats(want int) ([]float64, error) {
	v, _, err := exactsum.Unmarshal(p.Sums)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %w", err)
	}
	if v.Len() != want {
		return nil, fmt.Errorf("rfbeam: %d sums, want %d", v.Len(), want)
	}
	out := make([]float64, want)
	v.Floats(out)
	return out, nil
}

// mergePartials adds b to a.
func mergePartials(a, b Partial) (Partial, error) {
	if a.Sums == nil {
		return b, nil
	}
	if b.Sums == nil {
		return a, nil
	}
	va, _, err := exactsum.Unmarshal(a.Sums)
	if err != nil {
		return Partial{}, fmt.Errorf("rfbeam: %w", err)
	}
	vb, _, err := exactsum.Unmarshal(b.Sums)
	if err != nil {
		return Partial{}, fmt.Errorf("rfbeam: %w", err)
	}
	if err := va.Merge(vb); err != nil {
		return Partial{}, fmt.Errorf("rfbeam: %w", err)
	}
	enc, err := va.MarshalBinary()
	return Partial{N: a.N + b.N, Labels: mergeLabels(a.Labels, b.Labels), Sums: enc}, err
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
	// Shards is the number of groups the blocks' sums are merged in
	// before the final merge (block number mod Shards); 0 → 1. The result
	// does not depend on it.
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

// exampleBlock holds the examples of one block: the rows whose Index lies
// in [Block·B, (Block+1)·B) of one Source (B = exactsum.Block), sorted by
// Index. Fit sums rows in float64 within these blocks and exactly across
// them, so summing each block in row order on some worker and merging the
// blocks' exact sums gives Fit's bits.
type exampleBlock struct {
	Source string
	Block  int64
	X      []float64 // the rows, row-major
	Y      []float64
}

// blockExamples drops (to the dead letters) the examples of the wrong
// length or with a value that is not finite, and groups the others into
// blocks.
func blockExamples(s beam.Scope, opt TrainOptions, examples beam.PCollection) (blocks, bad beam.PCollection) {
	good, bad := beam.ParDo2(s, &checkExampleFn{Inputs: opt.Inputs}, examples)
	keyed := beam.ParDo(s, &blockKeyFn{}, good)
	return beam.ParDo(s, &blockFn{D: opt.Inputs}, beam.GroupByKey(s, keyed)), bad
}

// sumBlocks runs a pass over the blocks (fn returns a block's shard and
// Partial) and merges the Partials, by shard first.
func sumBlocks(s beam.Scope, fn any, blocks beam.PCollection, side ...beam.PCollection) beam.PCollection {
	var opts []beam.Option
	for _, p := range side {
		opts = append(opts, beam.SideInput{Input: p})
	}
	parts := beam.ParDo(s, fn, blocks, opts...)
	return beam.Combine(s, &mergeFn{}, beam.DropKey(s, beam.CombinePerKey(s, &mergeFn{}, parts)))
}

// Standardize computes the standardisation statistics of the examples
// (two passes over the blocks: the sums, then the spread about the mean)
// and returns a PCollection of one Standardization, and the dead-letter
// examples. On the rows of one source in file order it has the bits of
// learners.Standardize.
func Standardize(s beam.Scope, opt TrainOptions, examples beam.PCollection) (std, bad beam.PCollection, err error) {
	if opt, err = opt.check(); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	s = s.Scope("rfbeam.Standardize")
	blocks, bad := blockExamples(s, opt, examples)
	p1, p2 := standardPasses(s, opt, blocks)
	return beam.ParDo(s, &standardizationFn{}, p1, beam.SideInput{Input: p2}), bad, nil
}

// standardPasses returns the merged Partials of pass 1 (N, labels, Σx) and
// pass 2 (Σ(x − mean)², Σ(x − mean)).
func standardPasses(s beam.Scope, opt TrainOptions, blocks beam.PCollection) (p1, p2 beam.PCollection) {
	p1 = sumBlocks(s, &sumFn{D: opt.Inputs, Shards: opt.Shards}, blocks)
	p2 = sumBlocks(s, &spreadFn{D: opt.Inputs, Shards: opt.Shards}, blocks, p1)
	return p1, p2
}

type checkExampleFn struct{ Inputs int }

func (f *checkExampleFn) ProcessElement(e Example, emit func(Example), dead func(BadRow)) {
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
	emit(e)
}

// blockKeyFn keys an example by its source and block.
type blockKeyFn struct{}

func (*blockKeyFn) ProcessElement(e Example) (string, Example) {
	return fmt.Sprintf("%d\x00%s", e.Index/exactsum.Block, e.Source), e
}

// blockFn collects a block and sorts it by Index (a group's order is not
// fixed by Beam).
type blockFn struct{ D int }

func (f *blockFn) ProcessElement(_ string, it func(*Example) bool) exampleBlock {
	var rows []Example
	var e Example
	for it(&e) {
		rows = append(rows, e)
	}
	slices.SortStableFunc(rows, func(a, b Example) int { return compare(a.Index, b.Index) })
	b := exampleBlock{Source: rows[0].Source, Block: rows[0].Index / exactsum.Block,
		X: make([]float64, 0, len(rows)*f.D), Y: make([]float64, 0, len(rows))}
	for _, r := range rows {
		b.X, b.Y = append(b.X, r.X...), append(b.Y, r.Y)
	}
	return b
}

// shard is the group a block's Partial is merged in first.
func (b exampleBlock) shard(shards int) int { return int(uint64(b.Block) % uint64(shards)) }

// sumFn is pass 1 over a block: N, the labels, Σx (as learners.Standardize
// sums them: in row order).
type sumFn struct{ D, Shards int }

func (f *sumFn) ProcessElement(b exampleBlock) (int, Partial, error) {
	part := make([]float64, f.D)
	var labels []float64
	for i, y := range b.Y {
		for j, x := range b.X[i*f.D : (i+1)*f.D] {
			part[j] += x
		}
		if len(labels) < 3 && !slices.Contains(labels, y) {
			labels = mergeLabels(labels, []float64{y})
		}
	}
	p, err := exactPartial(int64(len(b.Y)), labels, part)
	return b.shard(f.Shards), p, err
}

// means returns Σx/N of pass 1.
func means(p1 Partial, d int) ([]float64, error) {
	if p1.N == 0 {
		return nil, errors.New("rfbeam: no training examples")
	}
	mean, err := p1.floats(d)
	if err != nil {
		return nil, err
	}
	for j := range mean {
		mean[j] /= float64(p1.N)
	}
	return mean, nil
}

// spreadFn is pass 2 over a block: Σ(x − mean)² and Σ(x − mean), the
// sums of learners.Standardize's corrected two-pass formula.
type spreadFn struct {
	D, Shards int
	mean      []float64
}

func (f *spreadFn) ProcessElement(b exampleBlock, p1 Partial) (int, Partial, error) {
	if f.mean == nil {
		m, err := means(p1, f.D)
		if err != nil {
			return 0, Partial{}, err
		}
		f.mean = m
	}
	part := make([]float64, 2*f.D)
	for i := range b.Y {
		for j, x := range b.X[i*f.D : (i+1)*f.D] {
			dv := x - f.mean[j]
			part[j] += float64(dv * dv)
			part[f.D+j] += dv
		}
	}
	p, err := exactPartial(int64(len(b.Y)), nil, part)
	return b.shard(f.Shards), p, err
}

// standardization finishes the statistics of passes 1 and 2.
func standardization(p1, p2 Partial, d int) (Standardization, error) {
	mean, err := means(p1, d)
	if err != nil {
		return Standardization{}, err
	}
	sums, err := p2.floats(2 * d)
	if err != nil {
		return Standardization{}, err
	}
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
	v, _, err := exactsum.Unmarshal(p1.Sums)
	if err != nil {
		return Standardization{}, fmt.Errorf("rfbeam: %w", err)
	}
	return standardization(p1, p2, v.Len())
}

// RKSModel fits rks (Random Kitchen Sinks) with the ridge loss on the
// examples by sufficient statistics, and returns a PCollection of one
// model file (the bytes rks.Model.MarshalBinary writes) and the
// dead-letter examples. Four passes run over blocks of exactsum.Block
// consecutive rows: the standardisation statistics (two), the means of
// the random features z and of the targets, and the centred ridge system
// ZcᵀZc, Zcᵀ(t − t̄) (solvers.RidgeBlockSums). Each block is summed in
// float64 in row order, as rks.Fit sums it, and the blocks' sums are added
// exactly; a single worker then solves the D×D system
// (solvers.SolveRidgeSums). So on the rows of one source, in file order,
// the model file is rks.Fit's, byte for byte, whatever Shards and the
// runner's bundling; over several sources (whose Index each start at 0)
// each source's blocks are summed apart, and the model is the same for
// every sharding and within rounding of rks.Fit on the concatenation.
//
// cfg is rks.Config with Loss rks.Ridge (binary, on ±1 labels) or the
// Regression task; the logistic loss is no sum over rows and is refused.
// Memory: the D(D+1)/2 + D sums of a block in float64 and, per merge,
// their exact sums (536 bytes each), so Features is at most
// MaxRKSFeatures.
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
		return beam.PCollection{}, beam.PCollection{}, fmt.Errorf("rfbeam: %d features, at most %d (the exact D×D sums take D²·268 bytes per merge)", cfg.Features, MaxRKSFeatures)
	}
	cfg.Progress = nil
	cj, err := newCfgJSON(cfg)
	if err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	s = s.Scope("rfbeam.RKSModel")
	blocks, bad := blockExamples(s, opt, examples)
	p1, p2 := standardPasses(s, opt, blocks)
	fsum := sumBlocks(s, &featureSumFn{D: opt.Inputs, Shards: opt.Shards, Cfg: cj}, blocks, p1, p2)
	gram := sumBlocks(s, &gramFn{D: opt.Inputs, Shards: opt.Shards, Cfg: cj}, blocks, p1, p2, fsum)
	model = beam.ParDo(s, &solveFn{D: opt.Inputs, Cfg: cj}, gram, beam.SideInput{Input: p1}, beam.SideInput{Input: p2}, beam.SideInput{Input: fsum})
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

// features returns the block's random features (row-major, len(b.Y)×D)
// and targets (±1 for a binary task), as rks.Fit computes them.
func (u *rksSetup) features(b exampleBlock, d int, binary bool) (z, t []float64) {
	m := len(b.Y)
	x := make([]float64, d)
	z, t = make([]float64, m*u.D), make([]float64, m)
	for i, y := range b.Y {
		for j, xv := range b.X[i*d : (i+1)*d] {
			x[j] = (xv - u.std.Mean[j]) / u.std.Scale[j]
		}
		u.rff.TransformRow(z[i*u.D:(i+1)*u.D], x)
		t[i] = y
		if binary {
			t[i] = -1
			if y == u.labels.Pos {
				t[i] = 1
			}
		}
	}
	return z, t
}

// setup decodes the config and derives the map and labels once per
// worker.
func setup(cached **rksSetup, cj cfgJSON, d int, p1, p2 Partial) (*rksSetup, rks.Config, error) {
	cfg, err := cj.config()
	if err != nil {
		return nil, cfg, err
	}
	if *cached == nil {
		u, err := newRKSSetup(cfg, d, p1, p2)
		if err != nil {
			return nil, cfg, err
		}
		*cached = u
	}
	return *cached, cfg, nil
}

// featureSumFn is pass 3 over a block: Σz and Σt, the sums of the means
// solvers.Ridge centres by.
type featureSumFn struct {
	D, Shards int
	Cfg       cfgJSON

	u *rksSetup
}

func (f *featureSumFn) ProcessElement(b exampleBlock, p1, p2 Partial) (int, Partial, error) {
	u, cfg, err := setup(&f.u, f.Cfg, f.D, p1, p2)
	if err != nil {
		return 0, Partial{}, err
	}
	z, t := u.features(b, f.D, cfg.Task == learners.Binary)
	part := make([]float64, u.D+1)
	for i, ti := range t {
		for j, v := range z[i*u.D : (i+1)*u.D] {
			part[j] += v
		}
		part[u.D] += ti
	}
	p, err := exactPartial(int64(len(t)), nil, part)
	return b.shard(f.Shards), p, err
}

// one returns the one Partial of a side input read as an iterable (a
// zero Partial if there is none, which means rows to fail on). The passes
// after the first check the labels themselves before they read it, so
// that a bad job fails with that error, whichever stage the runner
// reports first, rather than on a missing side input.
func one(it func(*Partial) bool) Partial {
	var p Partial
	it(&p)
	return p
}

// featureMeans returns the means of pass 3: z̄ and t̄.
func featureMeans(p3 Partial, D int) (zbar []float64, tbar float64, err error) {
	m, err := means(p3, D+1)
	if err != nil {
		return nil, 0, err
	}
	return m[:D], m[D], nil
}

// gramFn is pass 4 over a block: the centred ridge system of the random
// features (solvers.RidgeBlockSums).
type gramFn struct {
	D, Shards int
	Cfg       cfgJSON

	u    *rksSetup
	zbar []float64
	tbar float64
}

func (f *gramFn) ProcessElement(b exampleBlock, p1, p2 Partial, p3 func(*Partial) bool) (int, Partial, error) {
	u, cfg, err := setup(&f.u, f.Cfg, f.D, p1, p2)
	if err != nil {
		return 0, Partial{}, err
	}
	if f.zbar == nil {
		if f.zbar, f.tbar, err = featureMeans(one(p3), u.D); err != nil {
			return 0, Partial{}, err
		}
	}
	z, t := u.features(b, f.D, cfg.Task == learners.Binary)
	m, D := len(t), u.D
	zct := make([]float64, D*m)
	for i := range m {
		for j, v := range z[i*D : (i+1)*D] {
			zct[j*m+i] = v - f.zbar[j]
		}
		t[i] -= f.tbar
	}
	p, err := exactPartial(int64(m), nil, solvers.RidgeBlockSums(nil, zct, m, D, t))
	return b.shard(f.Shards), p, err
}

// solveFn solves the ridge system and assembles the model file.
type solveFn struct {
	D   int
	Cfg cfgJSON
}

func (f *solveFn) ProcessElement(g, p1, p2 Partial, p3it func(*Partial) bool, emit func([]byte)) error {
	var u *rksSetup
	u, cfg, err := setup(&u, f.Cfg, f.D, p1, p2)
	if err != nil {
		return err
	}
	D, p3 := u.D, one(p3it)
	if g.N != p1.N || p3.N != p1.N {
		return fmt.Errorf("rfbeam: ridge sums of %d and %d rows, want %d", p3.N, g.N, p1.N)
	}
	zbar, tbar, err := featureMeans(p3, D)
	if err != nil {
		return err
	}
	sums, err := g.floats(D*(D+1)/2 + D)
	if err != nil {
		return err
	}
	w, bias, err := solvers.SolveRidgeSums(sums, int(g.N), D, u.lambda, zbar, tbar)
	if err != nil {
		return fmt.Errorf("rfbeam: rks ridge: %w", err)
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
	beam.RegisterType(reflect.TypeOf(exampleBlock{}))
	register.Combiner1[Partial](&mergeFn{})
	register.DoFn3x0[Example, func(Example), func(BadRow)](&checkExampleFn{})
	register.DoFn1x2[Example, string, Example](&blockKeyFn{})
	register.DoFn2x1[string, func(*Example) bool, exampleBlock](&blockFn{})
	register.DoFn1x3[exampleBlock, int, Partial, error](&sumFn{})
	register.DoFn2x3[exampleBlock, Partial, int, Partial, error](&spreadFn{})
	register.DoFn2x2[Partial, Partial, Standardization, error](&standardizationFn{})
	register.DoFn3x3[exampleBlock, Partial, Partial, int, Partial, error](&featureSumFn{})
	register.DoFn4x3[exampleBlock, Partial, Partial, func(*Partial) bool, int, Partial, error](&gramFn{})
	register.DoFn5x1[Partial, Partial, Partial, func(*Partial) bool, func([]byte), error](&solveFn{})
	register.Iter1[Partial]()
	register.DoFn2x1[context.Context, []byte, error](&writeModelFn{})
	register.Emitter1[Example]()
	register.Emitter1[[]byte]()
	register.Iter1[Example]()
}
