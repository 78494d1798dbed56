package rfbeam

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/rrf"
)

// OnlineOptions configures OnlineModel, the iterative parameter mixing of
// an online learner.
type OnlineOptions struct {
	// Method is "rrf" or "fogd"; the learner is configured by RRF or FOGD
	// (the other is ignored). Their Epochs field is ignored (Epochs below
	// counts the rounds); Shuffle (default on) permutes each shard's rows
	// every round with a seed of (Seed, round, shard), else they are
	// visited in file order (by Index); Standardize (default on) sets the
	// standardisation of every shard to the statistics of all the examples
	// (Standardize, computed once).
	Method string
	RRF    rrf.Config
	FOGD   fogd.Config
	// Inputs is d, the number of features of every example (required).
	Inputs int
	// Shards is the number of groups (by Index mod Shards), each run by
	// one worker from the current model every round; 0 → 1.
	Shards int
	// Epochs is the number of rounds, each one pass of every shard over
	// its rows followed by the average of the shards' models; 0 → 1.
	Epochs int
}

// MaxOnlineEpochs bounds OnlineOptions.Epochs: every round is unrolled
// into the pipeline graph.
const MaxOnlineEpochs = 1000

func (o OnlineOptions) check() (OnlineOptions, error) {
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Epochs == 0 {
		o.Epochs = 1
	}
	switch {
	case o.Method != rrf.Name && o.Method != fogd.Name:
		return o, fmt.Errorf("rfbeam: OnlineOptions.Method = %q, want %q or %q", o.Method, rrf.Name, fogd.Name)
	case o.Inputs <= 0:
		return o, fmt.Errorf("rfbeam: OnlineOptions.Inputs = %d, want the number of features (> 0)", o.Inputs)
	case o.Shards < 0 || o.Shards > MaxShards:
		return o, fmt.Errorf("rfbeam: OnlineOptions.Shards = %d, want 1 to %d", o.Shards, MaxShards)
	case o.Epochs < 0 || o.Epochs > MaxOnlineEpochs:
		return o, fmt.Errorf("rfbeam: OnlineOptions.Epochs = %d, want 1 to %d", o.Epochs, MaxOnlineEpochs)
	}
	o.RRF.Progress, o.RRF.Resume = nil, nil
	o.FOGD.Progress, o.FOGD.Resume = nil, nil
	if o.Method == rrf.Name {
		if err := o.RRF.Validate(); err != nil {
			return o, err
		}
	} else if err := o.FOGD.Validate(); err != nil {
		return o, err
	}
	// The initial model also checks what only the inputs can tell.
	if _, err := initialModel(o, nil, nil); err != nil {
		return o, err
	}
	return o, nil
}

// OnlineModel trains rrf or fogd by iterative parameter mixing: starting
// from the learner's initial model (standardised by the statistics of all
// the examples unless Standardize is Disabled), every round each shard
// resumes the current model (Resume), runs one pass of Update over its
// rows and snapshots it, and the shards' models are averaged in shard
// order (rrf.Average, fogd.Average) into the next current model. It
// returns a PCollection of one model file, and the dead-letter examples
// (wrong length, not finite, or refused by Update, such as a label not
// among the classes). The shards and the order of their rows are fixed by
// the options, so the result is deterministic; with one shard and Shuffle
// Disabled it has the bits of one Learner run over the rows in file order
// for Epochs passes (the test checks this).
func OnlineModel(s beam.Scope, opt OnlineOptions, examples beam.PCollection) (model, bad beam.PCollection, err error) {
	if opt, err = opt.check(); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	cfg, err := json.Marshal(opt)
	if err != nil {
		return beam.PCollection{}, beam.PCollection{}, fmt.Errorf("rfbeam: %w", err)
	}
	s = s.Scope("rfbeam.OnlineModel")
	topt := TrainOptions{Inputs: opt.Inputs, Shards: opt.Shards}
	blocks, bad := blockExamples(s, topt, examples)
	p1, p2 := standardPasses(s, topt, blocks)
	grouped := shardExamples(s, topt, examples)
	std := beam.ParDo(s, &standardizationFn{}, p1, beam.SideInput{Input: p2})
	model = beam.ParDo(s, &onlineInitFn{Opt: cfg}, std)
	shards := beam.ParDo(s, &sortShardFn{}, grouped)
	bads := []beam.PCollection{bad}
	for e := range opt.Epochs {
		es := s.Scope(fmt.Sprintf("round%d", e))
		parts, dead := beam.ParDo2(es, &onlineEpochFn{Opt: cfg, Epoch: e}, shards, beam.SideInput{Input: model})
		if e == 0 {
			bads = append(bads, dead)
		}
		model = beam.ParDo(es, &mixFn{Method: opt.Method}, beam.GroupByKey(es, parts))
	}
	return model, beam.Flatten(s, bads...), nil
}

// shardExamples groups the examples of the right length with finite
// values into Shards shards by Index mod Shards (blockExamples sends the
// others to the dead letters).
func shardExamples(s beam.Scope, opt TrainOptions, examples beam.PCollection) beam.PCollection {
	good, _ := beam.ParDo2(s, &checkExampleFn{Inputs: opt.Inputs}, examples)
	return beam.GroupByKey(s, beam.ParDo(s, &shardKeyFn{Shards: opt.Shards}, good))
}

type shardKeyFn struct{ Shards int }

func (f *shardKeyFn) ProcessElement(e Example) (int, Example) {
	return int(uint64(e.Index) % uint64(f.Shards)), e
}

// onlineShard is one shard's examples sorted by Index.
type onlineShard struct {
	Shard int
	Rows  []Example
}

// sortShardFn collects a shard and sorts it by Index (a group's order is
// not fixed by Beam).
type sortShardFn struct{}

func (*sortShardFn) ProcessElement(shard int, it func(*Example) bool) onlineShard {
	var rows []Example
	var e Example
	for it(&e) {
		rows = append(rows, e)
	}
	slices.SortFunc(rows, func(a, b Example) int {
		if a.Index != b.Index {
			return compare(a.Index, b.Index)
		}
		return compare(a.Source, b.Source)
	})
	return onlineShard{Shard: shard, Rows: rows}
}

func compare[T int64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func decodeOnline(data []byte) (OnlineOptions, error) {
	var o OnlineOptions
	if err := json.Unmarshal(data, &o); err != nil {
		return o, fmt.Errorf("rfbeam: online options: %w", err)
	}
	return o, nil
}

// initialModel is the model file of a new Learner of opt with the
// standardisation mean, scale (none when nil or Standardize is Disabled).
func initialModel(opt OnlineOptions, mean, scale []float64) ([]byte, error) {
	switch opt.Method {
	case rrf.Name:
		l, err := rrf.NewLearner(opt.Inputs, opt.RRF)
		if err != nil {
			return nil, err
		}
		if opt.RRF.Standardize != learners.Disabled && mean != nil {
			if err := l.SetStandardization(mean, scale); err != nil {
				return nil, err
			}
		}
		return l.Snapshot().MarshalBinary()
	case fogd.Name:
		l, err := fogd.NewLearner(opt.Inputs, opt.FOGD)
		if err != nil {
			return nil, err
		}
		if opt.FOGD.Standardize != learners.Disabled && mean != nil {
			if err := l.SetStandardization(mean, scale); err != nil {
				return nil, err
			}
		}
		return l.Snapshot().MarshalBinary()
	}
	return nil, fmt.Errorf("rfbeam: unknown online method %q", opt.Method)
}

type onlineInitFn struct{ Opt []byte }

func (f *onlineInitFn) ProcessElement(std Standardization) ([]byte, error) {
	opt, err := decodeOnline(f.Opt)
	if err != nil {
		return nil, err
	}
	if std.N == 0 {
		return nil, errors.New("rfbeam: OnlineModel: no valid examples")
	}
	return initialModel(opt, std.Mean, std.Scale)
}

// updater is what an epoch needs of rrf.Learner and fogd.Learner.
type updater interface {
	Update(x []float64, y float64) (learners.Outcome, error)
}

// resume continues a Learner of method from a model file and returns it
// with a function that snapshots it into a model file.
func resume(method string, model []byte) (updater, func() ([]byte, error), error) {
	switch method {
	case rrf.Name:
		m, err := rrf.Load(model)
		if err != nil {
			return nil, nil, err
		}
		l, err := rrf.Resume(m)
		if err != nil {
			return nil, nil, err
		}
		return l, func() ([]byte, error) { return l.Snapshot().MarshalBinary() }, nil
	case fogd.Name:
		m, err := fogd.Load(model)
		if err != nil {
			return nil, nil, err
		}
		l, err := fogd.Resume(m)
		if err != nil {
			return nil, nil, err
		}
		return l, func() ([]byte, error) { return l.Snapshot().MarshalBinary() }, nil
	}
	return nil, nil, fmt.Errorf("rfbeam: unknown online method %q", method)
}

// onlinePart is one shard's model after a round.
type onlinePart struct {
	Shard int
	Model []byte
}

type onlineEpochFn struct {
	Opt   []byte
	Epoch int
}

func (f *onlineEpochFn) ProcessElement(sh onlineShard, model []byte, emit func(int, onlinePart), dead func(BadRow)) error {
	opt, err := decodeOnline(f.Opt)
	if err != nil {
		return err
	}
	l, snap, err := resume(opt.Method, model)
	if err != nil {
		return err
	}
	order := make([]int, len(sh.Rows))
	for i := range order {
		order[i] = i
	}
	shuffle, seed := opt.RRF.Shuffle, opt.RRF.Seed
	if opt.Method == fogd.Name {
		shuffle, seed = opt.FOGD.Shuffle, opt.FOGD.Seed
	}
	if shuffle != learners.Disabled {
		r := rand.New(rand.NewPCG(seed, uint64(f.Epoch)<<32|uint64(sh.Shard)))
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	for _, i := range order {
		e := sh.Rows[i]
		if _, err := l.Update(e.X, e.Y); err != nil && f.Epoch == 0 {
			dead(BadRow{Source: e.Source, Index: e.Index, Reason: err.Error()})
		}
	}
	data, err := snap()
	if err != nil {
		return err
	}
	emit(0, onlinePart{Shard: sh.Shard, Model: data})
	return nil
}

// mixFn averages the shards' models in shard order.
type mixFn struct{ Method string }

func (f *mixFn) ProcessElement(_ int, it func(*onlinePart) bool) ([]byte, error) {
	var parts []onlinePart
	var p onlinePart
	for it(&p) {
		parts = append(parts, p)
	}
	slices.SortFunc(parts, func(a, b onlinePart) int { return a.Shard - b.Shard })
	switch f.Method {
	case rrf.Name:
		ms := make([]*rrf.Model, len(parts))
		for i, p := range parts {
			m, err := rrf.Load(p.Model)
			if err != nil {
				return nil, err
			}
			ms[i] = m
		}
		m, err := rrf.Average(ms...)
		if err != nil {
			return nil, err
		}
		return m.MarshalBinary()
	case fogd.Name:
		ms := make([]*fogd.Model, len(parts))
		for i, p := range parts {
			m, err := fogd.Load(p.Model)
			if err != nil {
				return nil, err
			}
			ms[i] = m
		}
		m, err := fogd.Average(ms...)
		if err != nil {
			return nil, err
		}
		return m.MarshalBinary()
	}
	return nil, fmt.Errorf("rfbeam: unknown online method %q", f.Method)
}

func init() {
	beam.RegisterType(reflect.TypeOf(onlineShard{}))
	beam.RegisterType(reflect.TypeOf(onlinePart{}))
	register.DoFn2x1[int, func(*Example) bool, onlineShard](&sortShardFn{})
	register.DoFn1x2[Example, int, Example](&shardKeyFn{})
	register.DoFn1x2[Standardization, []byte, error](&onlineInitFn{})
	register.DoFn4x1[onlineShard, []byte, func(int, onlinePart), func(BadRow), error](&onlineEpochFn{})
	register.DoFn2x2[int, func(*onlinePart) bool, []byte, error](&mixFn{})
	register.Emitter2[int, onlinePart]()
	register.Iter1[onlinePart]()
}
